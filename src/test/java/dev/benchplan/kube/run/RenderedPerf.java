package dev.benchplan.kube.run;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
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
    Path examples = Path.of("examples").toAbsolutePath();
    var plan = CommandHarness.run("plan", "--workload", examples.resolve("workload-static.yaml").toString(),
        "--ledger", examples.resolve("deployment-ledger.yaml").toString(),
        "--question", "What throughput does vllm-agg sustain within the support SLOs?",
        "--aiperf-version", "0.13.0", "--exp-root", root.resolve("exp").toString(), "--format", "json").expectOk();
    JsonNode p = Json.JSON.readTree(plan.out());
    Path deployRoot = Files.createDirectories(root.resolve("deploy"));
    var render = CommandHarness.run("render", "--plan", p.get("plan_path").asString(),
        "--plan-sha256", p.get("sha256").asString(), "--deploy-root", deployRoot.toString(),
        "--namespace", namespace, "--format", "json").expectOk();
    JsonNode r = Json.JSON.readTree(render.out());
    return new RenderedPerf(deployRoot, Path.of(p.get("plan_path").asString()), r.get("run_id").asString(),
        r.get("job_name").asString(), r.get("namespace").asString());
  }
}
