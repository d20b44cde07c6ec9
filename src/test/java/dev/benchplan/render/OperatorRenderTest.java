package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** render for a plan whose load generator is AIPerf's operator: one AIPerfJob per measured run. */
class OperatorRenderTest {
  @TempDir Path tmp;

  /** The plan's load_generator as plan writes it for the operator engine (sizing per point). */
  static PlanFixture operator(PlanFixture f, int... connectionsPerWorker) {
    ObjectNode lg = f.json().putObject("load_generator");
    lg.put("engine", "aiperf-operator")
        .put("requested", "auto")
        .put("reason", "a point needs more than 32 AIPerf workers: one pod cannot drive it");
    ArrayNode points = lg.putArray("points");
    List<Integer> c = new ArrayList<>();
    f.json().at("/experiment/concurrency").forEach(n -> c.add(n.asInt()));
    for (int i = 0; i < c.size(); i++) {
      int workers = (c.get(i) + 99) / 100;
      points
          .addObject()
          .put("load_point", "concurrency=" + c.get(i))
          .put("workers", workers)
          .put("cpu_cores", (int) Math.ceil(0.4 * workers) + 1)
          .put("memory_mib", 2048 + 256 * workers)
          .put("connections_per_worker", connectionsPerWorker[i]);
    }
    return f;
  }

  @Test
  @DisplayName(
      "a 3-point grid x 2 repetitions: six AIPerfJobs, each one run with the plain Job's body (AIPerf's schema holds), sizing, image, timeout, anti-affinity, TTL")
  void gridOfAiperfJobs() throws Exception {
    PlanFixture.Written plan =
        operator(
                PlanFixture.userStatic()
                    .aiperf("0.13.0")
                    .closedLoop(1024, 2048, 4096)
                    .requestCount(40000)
                    .repetitions(2, false),
                100,
                128,
                128)
            .write(tmp.resolve("p.json"));
    Path root = Files.createDirectories(tmp.resolve("deploy"));
    Rendered r = Rendered.render(plan, root);

    assertThat(r.result().perfYaml().getFileName().toString()).isEqualTo(AiperfJobContract.FILE);
    assertThat(root.resolve("benchmark/perf.yaml")).doesNotExist();
    assertThat(r.docs()).hasSize(6);
    List<JsonNode> configs = YamlDocuments.read(r.configText());
    // the plain Job's job for the same points, for the anti-affinity and budget to compare with
    PlanFixture.Written plainPlan =
        PlanFixture.userStatic()
            .aiperf("0.13.0")
            .closedLoop(1024)
            .requestCount(40000)
            .write(tmp.resolve("plain.json"));
    Rendered plain = Rendered.render(plainPlan, Files.createDirectories(tmp.resolve("plain")));
    JsonNode plainAffinity = plain.job().at("/spec/template/spec/affinity");
    long plainDeadline = plain.job().at("/spec/activeDeadlineSeconds").asLong();

    List<String> names = new ArrayList<>();
    // the plan's figures are totals (11, 21, 41 workers); the AIPerfJob gets them per worker pod
    int[] cpw = {94, 98, 100}; // ceil(C / workers): C spread evenly over the workers
    int[] pods = {2, 3, 5}; // ceil(workers / 10)
    String[] dirs = {"concurrency_1024", "concurrency_2048", "concurrency_4096"};
    for (int i = 0; i < 6; i++) {
      JsonNode job = r.docs().get(i);
      int point = i / 2;
      int rep = i % 2 + 1;
      assertThat(job.path("apiVersion").asString()).isEqualTo("aiperf.nvidia.com/v1alpha1");
      assertThat(job.path("kind").asString()).isEqualTo("AIPerfJob");
      names.add(job.at("/metadata/name").asString());
      JsonNode spec = job.path("spec");
      // the body: AIPerf's own config schema accepts it (the 0.11 schema: the body only)
      ObjectNode envelope = Json.JSON.createObjectNode();
      envelope.put("schemaVersion", spec.path("schemaVersion").asString());
      envelope.set("benchmark", spec.path("benchmark"));
      assertThat(Rendered.Schemas.aiperf().validate(envelope)).as("AIPerfJob %d body", i).isEmpty();
      // the same body as the plain config of its point, but for the operator's forms
      ObjectNode expected = (ObjectNode) configs.get(point).path("benchmark").deepCopy();
      ObjectNode ep = expected.withObject("/endpoint");
      ep.putArray("urls").add(ep.remove("url").asString());
      ep.put("waitForModelTimeout", JobBudget.MODEL_WAIT_SECONDS).put("waitForModelMode", "models");
      expected.withObject("/artifacts").put("dir", "/results");
      expected.withObject("/runtime").put("workersPerPod", 10);
      assertThat(spec.path("benchmark")).isEqualTo(expected);
      assertThat(spec.path("randomSeed").asLong())
          .isEqualTo(configs.get(point).path("randomSeed").asLong());
      assertThat(spec.has("multiRun")).as("one run per AIPerfJob").isFalse();
      assertThat(spec.has("sweep")).isFalse();
      assertThat(spec.at("/benchmark/phases").toString())
          .contains("\"concurrency\":" + List.of(1024, 2048, 4096).get(point));
      assertThat(spec.path("connectionsPerWorker").asInt()).isEqualTo(cpw[point]);
      assertThat(spec.path("image").asString())
          .isEqualTo(PlanFixture.DEFAULT_IMAGE_REPO + ":0.13.0");
      assertThat(spec.path("timeoutSeconds").asLong()).isEqualTo(plainDeadline);
      assertThat(spec.path("ttlSecondsAfterFinished").asInt()).isEqualTo(300);
      assertThat(spec.at("/podTemplate/affinity")).isEqualTo(plainAffinity);
      assertThat(spec.at("/benchmark/runtime/workers").asInt())
          .isEqualTo(List.of(11, 21, 41).get(point));
      JsonNode a = job.at("/metadata/annotations");
      assertThat(a.path(AiperfJobContract.SIZING).asString())
          .contains(pods[point] + " worker pod(s) x 10 worker(s)")
          .contains(cpw[point] + " connection(s) per worker")
          .contains("5 CPU and 4608 MiB per pod");
      assertThat(a.path(AiperfJobContract.RUN_DIRECTORY).asString())
          .isEqualTo(dirs[point] + "/repetition_" + rep);
      assertThat(a.path(AiperfJobContract.RUN_REPETITION).asString())
          .isEqualTo(Integer.toString(rep));
      assertThat(a.path(JobContract.PLAN_SHA256).asString()).isEqualTo(plan.sha256());
      assertThat(job.at("/metadata/labels").path(JobContract.RUN_ID).asString())
          .isEqualTo(r.result().runId());
    }
    assertThat(names).doesNotHaveDuplicates().allMatch(KubeNames::isDns1123Label);

    JsonNode manifest =
        Json.JSON.readTree(Files.readString(root.resolve("benchmark/render-manifest.json")));
    assertThat(SchemaValidator.bundled("render-manifest.schema.json").validate(manifest)).isEmpty();
    assertThat(manifest.path("engine").asString()).isEqualTo("aiperf-operator");
    // both recorded: the plan's totals and the split per worker pod
    JsonNode sizing = manifest.path("operator_sizing");
    assertThat(sizing).hasSize(3);
    assertThat(sizing.get(2).toString())
        .isEqualTo(
            "{\"connections_per_worker\":100,\"load_point\":\"concurrency=4096\","
                + "\"per_worker_pod\":{\"cpu_cores\":5,\"memory_mib\":4608,\"workers\":10},"
                + "\"total\":{\"cpu_cores\":18,\"memory_mib\":12544,\"workers\":41},\"worker_pods\":5}");
    assertThat(manifest.toString()).contains("benchmark/aiperfjobs.yaml");
    JsonNode plainManifest =
        Json.JSON.readTree(Files.readString(tmp.resolve("plain/benchmark/render-manifest.json")));
    assertThat(plainManifest.path("engine").asString()).isEqualTo("job");
    assertThat(plainManifest.has("operator_sizing")).isFalse();
  }

  @Test
  @DisplayName(
      "one point, one repetition: one AIPerfJob whose results are the run's aiperf/ tree itself")
  void single() throws Exception {
    PlanFixture.Written plan =
        operator(
                PlanFixture.userStatic().aiperf("0.13.0").closedLoop(4096).requestCount(40000), 128)
            .write(tmp.resolve("p.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("deploy")));
    assertThat(r.docs()).hasSize(1);
    assertThat(
            r.docs()
                .get(0)
                .at("/metadata/annotations")
                .path(AiperfJobContract.RUN_DIRECTORY)
                .asString())
        .isEmpty();
    assertThat(r.docs().get(0).at("/metadata/name").asString())
        .isEqualTo("bp-" + r.result().runId().toLowerCase());
  }

  @Test
  @DisplayName(
      "a plan pinned below AIPerf 0.13 has no operator to run it: exit 2 naming the version, nothing written")
  void oldAiperf() throws Exception {
    PlanFixture.Written plan =
        operator(PlanFixture.userStatic().aiperf("0.11.0").closedLoop(4096), 128)
            .write(tmp.resolve("p.json"));
    Path root = Files.createDirectories(tmp.resolve("deploy"));
    assertThatThrownBy(() -> Rendered.render(plan, root))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            plan.path()
                + " /aiperf/version: AIPerf 0.11.0 has no Kubernetes operator, and "
                + plan.path()
                + " /load_generator/engine is aiperf-operator: expected a plan pinned to AIPerf"
                + " 0.13.0 or later, or the engine job")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    assertThat(Rendered.tree(root)).containsExactly("");
  }

  @Test
  @DisplayName(
      "a job-engine render into the same root removes the AIPerfJobs, so run never runs a stale engine")
  void engineSwitch() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("deploy"));
    Rendered.render(
        operator(PlanFixture.userStatic().aiperf("0.13.0").closedLoop(4096), 128)
            .write(tmp.resolve("p.json")),
        root);
    assertThat(root.resolve("benchmark/aiperfjobs.yaml")).exists();
    Rendered.render(PlanFixture.userStatic().aiperf("0.13.0").write(tmp.resolve("q.json")), root);
    assertThat(root.resolve("benchmark/aiperfjobs.yaml")).doesNotExist();
    assertThat(root.resolve("benchmark/perf.yaml")).exists();
  }

  /** The plan's load_generator for a replay on the operator engine (one fixed-schedule point). */
  static PlanFixture operatorReplay(PlanFixture f) {
    ObjectNode lg = f.json().putObject("load_generator");
    lg.put("engine", "aiperf-operator")
        .put("requested", "aiperf-operator")
        .put("reason", "requested with --engine aiperf-operator");
    lg.putArray("points")
        .addObject()
        .put("load_point", "fixed_schedule")
        .put("workers", 1)
        .put("cpu_cores", 2)
        .put("memory_mib", 2304)
        .put("connections_per_worker", 100);
    return f;
  }

  /** Runs the AIPerfJob's trace-check init container's own command here, on {@code file}. */
  static int runTraceCheck(JsonNode init, Path file, String sha) throws Exception {
    List<String> cmd = new ArrayList<>();
    init.path("command").forEach(n -> cmd.add(n.asString()));
    cmd.set(cmd.size() - 2, file.toString());
    cmd.set(cmd.size() - 1, sha);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }

  @Test
  @DisplayName(
      "a trace replay on the operator engine: the trace's ConfigMap first, mounted in every pod where the"
          + " body's dataset points, its SHA-256 checked by an init container (run here: 0 on the trace, 65 on a changed one)")
  void traceReplay() throws Exception {
    Path trace = dev.benchplan.testing.SharedData.require("aiperf/precise_schedule.jsonl");
    PlanFixture.Written plan =
        operatorReplay(PlanFixture.userTrace(trace, trace.toString()).aiperf("0.13.0"))
            .write(tmp.resolve("p.json"));
    Path root = Files.createDirectories(tmp.resolve("deploy"));
    Rendered r = Rendered.render(plan, root);
    assertThat(r.docs()).hasSize(2);
    JsonNode map = r.docs().get(0);
    JsonNode job = r.docs().get(1);
    String sha = dev.benchplan.json.Sha256.ofFile(trace);
    assertThat(map.path("kind").asString()).isEqualTo("ConfigMap");
    assertThat(map.at("/data/trace.jsonl").asString()).isEqualTo(Files.readString(trace));
    assertThat(map.at("/metadata/annotations").path(JobContract.TRACE_SHA256).asString())
        .isEqualTo(sha);
    assertThat(map.at("/metadata/namespace").asString())
        .isEqualTo(job.at("/metadata/namespace").asString());
    assertThat(job.path("kind").asString()).isEqualTo("AIPerfJob");
    JsonNode pod = job.at("/spec/podTemplate");
    assertThat(pod.at("/volumes/0/configMap/name").asString())
        .isEqualTo(map.at("/metadata/name").asString());
    assertThat(pod.at("/volumeMounts/0/mountPath").asString()).isEqualTo("/benchplan/trace");
    assertThat(pod.at("/volumeMounts/0/readOnly").asBoolean()).isTrue();
    JsonNode init = pod.at("/initContainers/0");
    assertThat(init.path("image").asString()).isEqualTo(job.at("/spec/image").asString());
    assertThat(init.at("/volumeMounts/0")).isEqualTo(pod.at("/volumeMounts/0"));
    List<String> cmd = new ArrayList<>();
    init.path("command").forEach(n -> cmd.add(n.asString()));
    assertThat(cmd.subList(cmd.size() - 2, cmd.size()))
        .containsExactly("/benchplan/trace/trace.jsonl", sha);
    // the body replays the mounted file, and AIPerf's schema holds
    assertThat(job.at("/spec/benchmark").toString())
        .contains("/benchplan/trace/trace.jsonl")
        .contains("fixed_schedule");
    ObjectNode envelope = Json.JSON.createObjectNode();
    envelope.put("schemaVersion", job.at("/spec/schemaVersion").asString());
    envelope.set("benchmark", job.at("/spec/benchmark"));
    assertThat(Rendered.Schemas.aiperf().validate(envelope)).isEmpty();
    assertThat(job.at("/metadata/annotations").path(JobContract.TRACE_SOURCE).asString())
        .isEqualTo("configmap");
    // the init container's own check, run here
    assertThat(runTraceCheck(init, trace, sha)).isZero();
    Path changed = tmp.resolve("changed.jsonl");
    Files.writeString(changed, Files.readString(trace) + "\n");
    assertThat(runTraceCheck(init, changed, sha)).isEqualTo(65);
  }

  @Test
  @DisplayName(
      "a trace replay from a PVC on the operator engine: no ConfigMap, the claim mounted read-only in every pod")
  void traceReplayFromPvc() throws Exception {
    Path trace = dev.benchplan.testing.SharedData.require("aiperf/precise_schedule.jsonl");
    PlanFixture.Written plan =
        operatorReplay(PlanFixture.userTrace(trace, trace.toString()).aiperf("0.13.0"))
            .write(tmp.resolve("p.json"));
    Rendered r =
        Rendered.render(
            plan,
            Files.createDirectories(tmp.resolve("deploy")),
            "--trace-source",
            "pvc:traces/aiperf/precise_schedule.jsonl");
    assertThat(r.docs()).hasSize(1);
    JsonNode pod = r.docs().get(0).at("/spec/podTemplate");
    assertThat(pod.at("/volumes/0/persistentVolumeClaim/claimName").asString()).isEqualTo("traces");
    assertThat(pod.at("/volumes/0/persistentVolumeClaim/readOnly").asBoolean()).isTrue();
    List<String> cmd = new ArrayList<>();
    pod.at("/initContainers/0/command").forEach(n -> cmd.add(n.asString()));
    assertThat(cmd.get(cmd.size() - 2)).isEqualTo("/benchplan/trace/aiperf/precise_schedule.jsonl");
  }
}
