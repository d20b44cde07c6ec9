/**
 * The domain of {@code benchplan run}, free of the Kubernetes client: what a run is asked to do
 * ({@link dev.benchplan.run.RunRequest}), what it produced ({@link dev.benchplan.run.RunOutcome},
 * run.json as {@link dev.benchplan.runrecord.RunRecordDocument}) and the one interrupt mechanism
 * run and validate share ({@link dev.benchplan.run.ShutdownHooks}). The fabric8 implementation
 * lives in {@code dev.benchplan.kube.run}.
 */
package dev.benchplan.run;
