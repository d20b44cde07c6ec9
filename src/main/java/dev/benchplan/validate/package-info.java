/**
 * {@code benchplan validate}: AICR's inference-perf check end to end — constraints from the overlay
 * (the gate's own {@link dev.benchplan.gate.Constraint}s), discovery or auto-deploy of a DGD, the
 * benchmark through plan, render and run ({@link dev.benchplan.validate.AiperfBenchmarkRunner}),
 * the gate's verdict, cleanup, and the reports ({@link dev.benchplan.validate.ValidateVerdict} as
 * verdict.json, the gate's CTRF and JUnit writers). The cluster is reached through the port {@link
 * dev.benchplan.validate.ValidateCluster}, implemented with fabric8 in {@code
 * dev.benchplan.kube.validate}.
 */
package dev.benchplan.validate;
