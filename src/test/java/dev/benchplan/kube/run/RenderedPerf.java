package dev.benchplan.kube.run;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.TestFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;

/**
 * A DEPLOY_ROOT produced by the real pipeline: {@code benchplan plan} on the project's example
 * workload and ledger, then {@code benchplan render}, both through the CLI. The plan gates on TTFT
 * p95/p99, ITL p95 and throughput (1500 tokens/sec), so the real AIPerf export fails it.
 *
 * @param deployRoot the DEPLOY_ROOT render wrote into
 * @param plan the plan file
 * @param runId the run-id render chose
 * @param jobName the Job render named
 * @param namespace the namespace render put the objects in
 */
record RenderedPerf(Path deployRoot, Path plan, String runId, String jobName, String namespace) {
  static RenderedPerf create(Path root, String namespace) throws Exception {
    return create(root, namespace, w -> w);
  }

  /**
   * As {@link #create(Path, String)}, with the example workload's text edited by {@code
   * workloadEdit} (the examples are copied under {@code root} first) and extra {@code plan} flags
   * (e.g. --pilot).
   */
  static RenderedPerf create(
      Path root,
      String namespace,
      java.util.function.UnaryOperator<String> workloadEdit,
      String... planFlags)
      throws Exception {
    return create(root, namespace, workloadEdit, java.util.List.of(planFlags), java.util.List.of());
  }

  /** As above, with extra {@code render} flags (e.g. --artifacts-pvc CLAIM). */
  static RenderedPerf create(
      Path root,
      String namespace,
      java.util.function.UnaryOperator<String> workloadEdit,
      java.util.List<String> planFlags,
      java.util.List<String> renderFlags)
      throws Exception {
    return create(root, namespace, workloadEdit, l -> l, planFlags, renderFlags);
  }

  /**
   * As above, with the example ledger's text edited by {@code ledgerEdit} before plan (e.g. its
   * namespace set to the test namespace, so the isolation preflight finds the DGD's pods there).
   */
  static RenderedPerf create(
      Path root,
      String namespace,
      java.util.function.UnaryOperator<String> workloadEdit,
      java.util.function.UnaryOperator<String> ledgerEdit,
      java.util.List<String> planFlags,
      java.util.List<String> renderFlags)
      throws Exception {
    Path examples = Path.of("examples").toAbsolutePath();
    Path copy = root.resolve("examples");
    TestFiles.copyTree(examples, copy);
    examples = copy;
    Path workload = examples.resolve("workload-static.yaml");
    Files.writeString(workload, workloadEdit.apply(Files.readString(workload)));
    Path ledger = examples.resolve("deployment-ledger.yaml");
    Files.writeString(ledger, ledgerEdit.apply(Files.readString(ledger)));
    java.util.List<String> args =
        new java.util.ArrayList<>(
            java.util.List.of(
                "plan",
                "--workload",
                workload.toString(),
                "--ledger",
                examples.resolve("deployment-ledger.yaml").toString(),
                "--question",
                "What throughput does vllm-agg sustain within the support SLOs?",
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                root.resolve("exp").toString(),
                "--format",
                "json"));
    args.addAll(planFlags);
    var plan = CommandHarness.run(args.toArray(String[]::new)).expectOk();
    JsonNode p = Json.JSON.readTree(plan.out());
    Path deployRoot = Files.createDirectories(root.resolve("deploy"));
    java.util.List<String> renderArgs =
        new java.util.ArrayList<>(
            java.util.List.of(
                "render",
                "--plan",
                p.get("plan_path").asString(),
                "--plan-sha256",
                p.get("sha256").asString(),
                "--deploy-root",
                deployRoot.toString(),
                "--namespace",
                namespace,
                "--format",
                "json"));
    renderArgs.addAll(renderFlags);
    var render = CommandHarness.run(renderArgs.toArray(String[]::new)).expectOk();
    JsonNode r = Json.JSON.readTree(render.out());
    return new RenderedPerf(
        deployRoot,
        Path.of(p.get("plan_path").asString()),
        r.get("run_id").asString(),
        r.get("job_name").asString(),
        r.get("namespace").asString());
  }
}
