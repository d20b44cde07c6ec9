package dev.benchplan.render;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanOrigin;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.render.manifest.PerfManifests;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code DEPLOY_ROOT/benchmark/render-manifest.json} (schema {@code render-manifest.schema.json}):
 * the plan's path (relative to DEPLOY_ROOT, {@code /}) and SHA-256, benchplan's version and commit,
 * the render options as given, the run id, Job name and namespace chosen, the engine rendered
 * ({@code job}: perf.yaml; {@code aiperf-operator}: aiperfjobs.yaml), and the SHA-256 of every file
 * written, and for the Job engine the SHA-256 of the Job program perf.yaml mounts, so {@code
 * benchplan verify DEPLOY_ROOT} can re-render with the same choices and require identical bytes
 * (when the program differs, the root was rendered by another benchplan and only hashes are
 * checked).
 */
public final class RenderManifest {
  /** The manifest's file name, beside the rendered files. */
  public static final String FILE = "render-manifest.json";

  /** Its schema in schemas/. */
  public static final String SCHEMA = "render-manifest.schema.json";

  private RenderManifest() {}

  /**
   * The manifest's canonical bytes for the files about to be written (absolute path -> bytes), with
   * the operator engine's sizing of each point: the plan's totals and their split per worker pod
   * ({@code operator_sizing}; empty, and the key absent, for the plain Job).
   */
  static byte[] of(
      RenderRequest req,
      Path deployRoot,
      VerifiedPlan plan,
      String runId,
      String jobName,
      String namespace,
      String engine,
      Map<Path, byte[]> files,
      java.util.List<OperatorSizing> sizing) {
    ObjectNode m = Json.JSON.createObjectNode();
    m.put("schema_version", "1.0");
    ObjectNode p = m.putObject("plan");
    p.put("path", PlanPaths.relative(deployRoot, plan.path()));
    p.put("sha256", plan.sha256());
    BenchmarkPlan.Tool tool = PlanOrigin.runningTool();
    ObjectNode b = m.putObject("benchplan");
    b.put("version", tool.version());
    b.put("commit", tool.commit());
    ObjectNode o = m.putObject("options");
    o.put("namespace", req.namespace());
    o.put("job_name", req.jobName());
    o.put("image", req.image());
    o.put("artifacts", req.artifacts());
    o.put("trace_source", req.traceSource());
    o.put("load_point", req.loadPoint());
    o.put("model_wait_seconds", req.modelWaitSeconds());
    o.put("ready_request_timeout_seconds", req.readyRequestTimeoutSeconds());
    m.put("run_id", runId);
    m.put("job_name", jobName);
    m.put("namespace", namespace);
    m.put("engine", engine);
    if (AiperfJobContract.JOB_ENGINE.equals(engine)) {
      // what perf.yaml's config ConfigMap mounts: verify re-renders only with the same program
      m.put("job_program_sha256", PerfManifests.programSha256());
    }
    if (!sizing.isEmpty()) {
      ArrayNode points = m.putArray("operator_sizing");
      for (OperatorSizing z : sizing) {
        ObjectNode e = points.addObject();
        e.put("load_point", z.loadPoint());
        e.putObject("total")
            .put("workers", z.totalWorkers())
            .put("cpu_cores", z.totalCpuCores())
            .put("memory_mib", z.totalMemoryMib());
        e.putObject("per_worker_pod")
            .put("workers", z.workersPerPod())
            .put("cpu_cores", z.podCpuCores())
            .put("memory_mib", z.podMemoryMib());
        e.put("worker_pods", z.workerPods());
        e.put("connections_per_worker", z.connectionsPerWorker());
      }
    }
    ArrayNode list = m.putArray("files");
    for (Map.Entry<Path, byte[]> e : files.entrySet()) {
      ObjectNode f = list.addObject();
      f.put("path", PlanPaths.relative(deployRoot, e.getKey()));
      f.put("sha256", Sha256.hex(e.getValue()));
    }
    return CanonicalJson.bytes(m);
  }
}
