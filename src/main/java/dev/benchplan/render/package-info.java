/**
 * {@code benchplan render}: turns a verified series plan into the two run-scoped files that execute
 * it, {@code DEPLOY_ROOT/benchmark/aiperf-config.yaml} and {@code DEPLOY_ROOT/benchmark/perf.yaml}
 * (the ConfigMaps and the batch/v1 Job). Render never talks to a cluster and loads no Kubernetes
 * client classes: manifests are Jackson trees.
 */
package dev.benchplan.render;
