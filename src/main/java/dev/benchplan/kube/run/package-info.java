/**
 * {@code benchplan run}: applies a rendered perf.yaml (ConfigMaps + one AIPerf Job) in a cluster,
 * preflights isolation, watches the pod and the Job, collects the AIPerf summary and the pod log
 * into {@code DEPLOY_ROOT/benchmark/runs/<run-id>/}, gates the result and cleans up. The public
 * surface ({@link dev.benchplan.run.RunService}, {@link dev.benchplan.run.RunRequest}, {@link
 * dev.benchplan.run.RunOutcome}, {@link dev.benchplan.progress.RunProgress}, {@link
 * dev.benchplan.kube.run.RunServices}) carries no fabric8 types, so the CLI can hold it without
 * loading the Kubernetes client.
 */
package dev.benchplan.kube.run;
