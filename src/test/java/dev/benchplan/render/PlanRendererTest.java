package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Sha256;
import dev.benchplan.render.manifest.JobProgram;
import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.testing.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

class PlanRendererTest {
  @TempDir Path tmp;

  /** Every workload source and experiment type, each at every tested AIPerf version. */
  static Stream<Arguments> plans() {
    List<Arguments> all = new ArrayList<>();
    for (String version : PlanFixture.VERSIONS) {
      all.add(Arguments.of("user_static closed loop", version));
      all.add(Arguments.of("user_static open loop poisson", version));
      all.add(Arguments.of("user_static open loop constant, duration bound", version));
      all.add(Arguments.of("recipe_proxy capacity grid", version));
      all.add(Arguments.of("user_trace fixed schedule", version));
      all.add(Arguments.of("user_trace fixed schedule window", version));
      all.add(Arguments.of("user_trace closed loop", version));
    }
    return all.stream();
  }

  private PlanFixture fixture(String kind, Path dir) {
    Path trace = Traces.write(dir.resolve("traces/t.jsonl"), 40);
    return switch (kind) {
      case "user_static closed loop" -> PlanFixture.userStatic();
      case "user_static open loop poisson" -> PlanFixture.userStatic().openLoop("poisson", 2.5);
      case "user_static open loop constant, duration bound" ->
          PlanFixture.userStatic().openLoop("constant", 4.0).requestCount(null).duration(300);
      case "recipe_proxy capacity grid" -> PlanFixture.recipeProxy();
      case "user_trace fixed schedule" -> PlanFixture.userTrace(trace, "traces/t.jsonl");
      case "user_trace fixed schedule window" ->
          PlanFixture.userTrace(trace, trace.toString()).window(1000, 5000, 17);
      case "user_trace closed loop" ->
          PlanFixture.userTrace(trace, "traces/t.jsonl")
              .type("capacity")
              .closedLoop(4)
              .requestCount(40);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  @ParameterizedTest(name = "{0}, AIPerf {1}")
  @MethodSource("plans")
  @DisplayName(
      "every source and experiment type renders valid Kubernetes objects and AIPerf settings")
  void rendersEveryPlanKind(String kind, String version) throws Exception {
    Path planDir = tmp.resolve("plans");
    Files.createDirectories(planDir);
    PlanFixture f = fixture(kind, planDir).aiperf(version);
    if (version.equals("0.1.1")) {
      f.goodput(null);
    } else {
      f.goodput(Map.of("time_to_first_token", 2000.0, "inter_token_latency", 25.0));
    }
    PlanFixture.Written plan = f.write(planDir.resolve("plan.json"));
    Path root = Files.createDirectories(tmp.resolve("deploy"));
    String[] options = kind.contains("grid") ? new String[] {"--load-point", "32"} : new String[0];
    Rendered r = Rendered.render(plan, root, options);

    // files and hashes
    assertThat(r.result().aiperfConfig()).isEqualTo(root.resolve("benchmark/aiperf-config.yaml"));
    assertThat(r.result().perfYaml()).isEqualTo(root.resolve("benchmark/perf.yaml"));
    assertThat(Sha256.ofFile(r.result().aiperfConfig())).isEqualTo(r.result().aiperfConfigSha256());
    assertThat(Sha256.ofFile(r.result().perfYaml())).isEqualTo(r.result().perfYamlSha256());
    assertThat(r.result().runId())
        .isEqualTo("20261130T123456Z-" + r.result().runId().substring(17));

    // strict Kubernetes 1.20 schemas: unknown fields rejected
    r.assertKubernetesValid();
    assertThat(r.configMaps()).isNotEmpty();

    // the ConfigMap carries exactly the aiperf-config.yaml that was written
    JsonNode cm = r.configMaps().get(0);
    assertThat(cm.at("/data/aiperf-config.yaml").asString()).isEqualTo(r.configText());

    boolean nativeConfig = version.equals("0.11.0") || version.equals("0.13.0");
    JsonNode config = r.config();
    JsonNode settings = nativeConfig ? config : config.get("settings");
    assertThat(Rendered.Schemas.aiperf().validate(settings)).as("AIPerf config schema").isEmpty();
    assertThat(r.result().mode()).isEqualTo(nativeConfig ? "config" : "flags");
    List<String> args = new ArrayList<>();
    r.container().path("args").forEach(a -> args.add(a.asString()));
    if (nativeConfig) {
      assertThat(args).containsExactly("--config", "/benchplan/config/aiperf-config.yaml");
      assertThat(r.configText()).startsWith("# AIPerf " + version + " native config");
    } else {
      assertThat(r.configText()).contains("as command-line flags");
      List<String> flags = new ArrayList<>();
      config.get("flags").forEach(a -> flags.add(a.asString()));
      assertThat(args).isEqualTo(flags);
      FlagAssertions.assertFlagsValidFor(args, version);
    }

    // the settings express the plan
    JsonNode b = settings.get("benchmark");
    assertThat(settings.path("randomSeed").asLong()).isEqualTo(42);
    assertThat(b.path("model").asString()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(b.at("/endpoint/url").asString())
        .isEqualTo("http://vllm-agg-frontend.dynamo.svc.cluster.local:8000");
    assertThat(b.at("/endpoint/path").asString()).isEqualTo("/v1/chat/completions");
    assertThat(b.at("/endpoint/streaming").asBoolean()).isTrue();
    assertThat(b.at("/tokenizer/name").asString()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(b.at("/artifacts/dir").asString()).isEqualTo("/artifacts/" + r.result().runId());
    JsonNode phases = b.get("phases");
    assertThat(phases.get(0).path("name").asString()).isEqualTo("warmup");
    assertThat(phases.get(0).path("excludeFromResults").asBoolean()).isTrue();
    assertThat(phases.get(0).path("requests").asInt()).isEqualTo(16);
    JsonNode measured = phases.get(1);
    assertThat(measured.path("name").asString()).isEqualTo("profiling");
    assertThat(measured.path("duration").asInt()).isPositive().isLessThanOrEqualTo(900);
    switch (kind) {
      case "user_static closed loop" -> {
        assertThat(measured.path("type").asString()).isEqualTo("concurrency");
        assertThat(measured.path("concurrency").asInt()).isEqualTo(16);
        assertThat(measured.path("requests").asInt()).isEqualTo(640);
        assertThat(b.at("/dataset/prompts/isl/mean").asInt()).isEqualTo(128);
        assertThat(b.at("/endpoint/extra/ignore_eos").asBoolean()).isTrue();
      }
      case "user_static open loop poisson" -> {
        assertThat(measured.path("type").asString()).isEqualTo("poisson");
        assertThat(measured.path("rate").decimalValue()).isEqualByComparingTo("2.5");
      }
      case "user_static open loop constant, duration bound" -> {
        assertThat(measured.path("type").asString()).isEqualTo("constant");
        assertThat(measured.has("requests")).isFalse();
        assertThat(measured.path("duration").asInt()).isEqualTo(300);
      }
      case "recipe_proxy capacity grid" -> {
        assertThat(measured.path("concurrency").asInt()).isEqualTo(32);
        assertThat(b.at("/dataset/prompts/osl/mean").asInt()).isEqualTo(1024);
        assertThat(r.job().at("/metadata/annotations/benchplan.dev~1load-point").asString())
            .isEqualTo("32");
      }
      case "user_trace fixed schedule", "user_trace fixed schedule window" -> {
        assertThat(measured.path("type").asString()).isEqualTo("fixed_schedule");
        assertThat(b.at("/dataset/format").asString()).isEqualTo("mooncake_trace");
        assertThat(b.at("/dataset/path").asString()).isEqualTo("/benchplan/trace/trace.jsonl");
        if (kind.endsWith("window")) {
          assertThat(measured.path("startOffset").asLong()).isEqualTo(1000);
          assertThat(measured.path("endOffset").asLong()).isEqualTo(5000);
          assertThat(measured.path("autoOffset").asBoolean()).isFalse();
        } else {
          assertThat(measured.path("autoOffset").asBoolean()).isTrue();
        }
        // the trace travels in its own ConfigMap, byte for byte
        JsonNode traceCm = r.configMaps().get(1);
        byte[] content =
            traceCm.at("/data/trace.jsonl").asString().getBytes(StandardCharsets.UTF_8);
        assertThat(Sha256.hex(content))
            .isEqualTo(Sha256.ofFile(tmp.resolve("plans/traces/t.jsonl")));
      }
      case "user_trace closed loop" -> {
        assertThat(measured.path("type").asString()).isEqualTo("concurrency");
        assertThat(b.at("/dataset/type").asString()).isEqualTo("file");
      }
      default -> throw new IllegalStateException(kind);
    }
    if (!version.equals("0.1.1")) {
      assertThat(b.at("/slos/time_to_first_token").asDouble()).isEqualTo(2000.0);
    }
    ContractAssertions.assertPerfYamlContract(r, plan, version);
  }

  @Test
  @DisplayName("a real AIPerf sample trace travels in a ConfigMap and is checked in the pod")
  void realSmallTrace() throws Exception {
    Path trace = SharedData.require("aiperf/precise_schedule.jsonl");
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, trace.toString()).write(tmp.resolve("plan.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("d")));
    JsonNode traceCm = r.configMaps().get(1);
    assertThat(traceCm.at("/data/trace.jsonl").asString()).isEqualTo(Files.readString(trace));
    assertThat(r.job().at("/metadata/annotations/benchplan.dev~1trace-source").asString())
        .isEqualTo("configmap");
    assertThat(envValue(r, "BENCHPLAN_TRACE_SHA256")).isEqualTo(Sha256.ofFile(trace));
    assertThat(envValue(r, "BENCHPLAN_TRACE_PATH")).isEqualTo("/benchplan/trace/trace.jsonl");
    r.assertKubernetesValid();
  }

  @Test
  @DisplayName(
      "a real trace over the ConfigMap budget is mounted from the named PVC, never a host path")
  void realLargeTraceFromPvc() throws Exception {
    Path trace = SharedData.require("mooncake/synthetic_trace.jsonl");
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, trace.toString()).write(tmp.resolve("plan.json"));
    Rendered r =
        Rendered.render(
            plan,
            Files.createDirectories(tmp.resolve("d")),
            "--trace-source",
            "pvc:traces/mooncake/synthetic_trace.jsonl",
            "--artifacts",
            "pvc:bench-results/qwen3");
    assertThat(r.configMaps()).hasSize(1);
    JsonNode pod = r.job().at("/spec/template/spec");
    assertThat(pod.toString()).doesNotContain("hostPath");
    assertThat(volume(pod, "trace").at("/persistentVolumeClaim/claimName").asString())
        .isEqualTo("traces");
    assertThat(volume(pod, "trace").at("/persistentVolumeClaim/readOnly").asBoolean()).isTrue();
    assertThat(envValue(r, "BENCHPLAN_TRACE_PATH"))
        .isEqualTo("/benchplan/trace/mooncake/synthetic_trace.jsonl");
    assertThat(r.config().at("/benchmark/dataset/path").asString())
        .isEqualTo("/benchplan/trace/mooncake/synthetic_trace.jsonl");
    assertThat(volume(pod, "artifacts").at("/persistentVolumeClaim/claimName").asString())
        .isEqualTo("bench-results");
    JsonNode mount = mount(r.container(), "artifacts");
    assertThat(mount.path("subPath").asString()).isEqualTo("qwen3");
    assertThat(mount.path("mountPath").asString()).isEqualTo("/artifacts");
    assertThat(r.job().at("/metadata/annotations/benchplan.dev~1artifacts").asString())
        .isEqualTo("pvc:bench-results/qwen3");
    r.assertKubernetesValid();
  }

  @Test
  @DisplayName(
      "issue 36 item 2: trace and results on one claim render ONE volume for it, mounted twice")
  void traceAndResultsOnOneClaim() throws Exception {
    Path trace = SharedData.require("mooncake/synthetic_trace.jsonl");
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, trace.toString()).write(tmp.resolve("plan.json"));
    Rendered r =
        Rendered.render(
            plan,
            Files.createDirectories(tmp.resolve("d")),
            "--trace-source",
            "pvc:bench-results/traces/synthetic_trace.jsonl",
            // what render --artifacts-pvc bench-results passes on
            "--artifacts",
            "pvc:bench-results");
    JsonNode pod = r.job().at("/spec/template/spec");
    List<String> onClaim = new ArrayList<>();
    for (JsonNode v : pod.path("volumes")) {
      if (v.at("/persistentVolumeClaim/claimName").asString("").equals("bench-results")) {
        onClaim.add(v.path("name").asString());
      }
    }
    assertThat(onClaim).containsExactly("artifacts");
    assertThat(volume(pod, "artifacts").at("/persistentVolumeClaim/readOnly").asBoolean())
        .isFalse();
    List<JsonNode> mounts = new ArrayList<>();
    r.container().path("volumeMounts").forEach(mounts::add);
    assertThat(mounts.stream().filter(m -> m.path("name").asString().equals("trace"))).isEmpty();
    JsonNode traceMount =
        mounts.stream()
            .filter(m -> m.path("mountPath").asString().equals("/benchplan/trace"))
            .findFirst()
            .orElseThrow();
    assertThat(traceMount.path("name").asString()).isEqualTo("artifacts");
    assertThat(traceMount.path("readOnly").asBoolean()).isTrue();
    assertThat(mount(r.container(), "artifacts").path("mountPath").asString())
        .isEqualTo("/artifacts");
    // the pod reads the trace where it read it from a volume of its own
    assertThat(envValue(r, "BENCHPLAN_TRACE_PATH"))
        .isEqualTo("/benchplan/trace/traces/synthetic_trace.jsonl");
    // every mount names a volume of the pod
    List<String> volumeNames = new ArrayList<>();
    pod.path("volumes").forEach(v -> volumeNames.add(v.path("name").asString()));
    assertThat(volumeNames).doesNotHaveDuplicates();
    mounts.forEach(m -> assertThat(volumeNames).contains(m.path("name").asString()));
    r.assertKubernetesValid();
  }

  @Test
  @DisplayName("the plan's secrets are referenced by name only; the HF token is optional")
  void secretsByName() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic()
            .secrets("registry-pull", "hf-token-secret")
            .write(tmp.resolve("plan.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("d")));
    JsonNode hf = null;
    for (JsonNode e : r.container().path("env")) {
      if (e.path("name").asString().equals("HF_TOKEN")) {
        hf = e;
      }
    }
    assertThat(hf).isNotNull();
    assertThat(hf.has("value")).isFalse();
    assertThat(hf.at("/valueFrom/secretKeyRef/name").asString()).isEqualTo("hf-token-secret");
    assertThat(hf.at("/valueFrom/secretKeyRef/key").asString()).isEqualTo("HF_TOKEN");
    assertThat(hf.at("/valueFrom/secretKeyRef/optional").asBoolean()).isTrue();
    assertThat(r.perfText()).doesNotContain("registry-pull");
  }

  @Test
  @DisplayName(
      "a model name and URL holding : # ' \" and a line break come out as the same strings")
  void hostileStringsRoundTrip() throws Exception {
    String model = "org/model: v1 # \"quoted\" 'single'\nsecond line";
    String url = "http://svc.ns.svc.cluster.local:8000";
    PlanFixture.Written plan =
        PlanFixture.userStatic()
            .model(model)
            .endpointUrl(url)
            .aiperf("0.11.0")
            .write(tmp.resolve("plan.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("d")));
    assertThat(r.config().at("/benchmark/model").asString()).isEqualTo(model);
    assertThat(r.config().at("/benchmark/tokenizer/name").asString()).isEqualTo(model);
    assertThat(envValue(r, "BENCHPLAN_MODEL")).isEqualTo(model);
    // the ConfigMap's copy of the config parses to the same model too
    String inCm = r.configMaps().get(0).at("/data/aiperf-config.yaml").asString();
    assertThat(YamlDocuments.read(inCm).get(0).at("/benchmark/model").asString()).isEqualTo(model);
    // and the flags path (no YAML between) keeps the exact argument
    PlanFixture.Written old =
        PlanFixture.userStatic().model(model).aiperf("0.10.0").write(tmp.resolve("old.json"));
    Rendered flags = Rendered.render(old, Files.createDirectories(tmp.resolve("d2")));
    List<String> args = new ArrayList<>();
    flags.container().path("args").forEach(a -> args.add(a.asString()));
    assertThat(args.get(args.indexOf("--model") + 1)).isEqualTo(model);
    r.assertKubernetesValid();
  }

  @Test
  @DisplayName("render --format json prints the paths, hashes, Job, namespace, mode and run id")
  void jsonOutput() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("plan.json"));
    Path root = Files.createDirectories(tmp.resolve("d"));
    var res =
        dev.benchplan.testing.CommandHarness.run(
                "render",
                "--plan",
                plan.path().toString(),
                "--plan-sha256",
                plan.sha256(),
                "--deploy-root",
                root.toString(),
                "--namespace",
                "bench",
                "--format",
                "json")
            .expectOk();
    JsonNode out = dev.benchplan.json.Json.JSON.readTree(res.out());
    assertThat(out.path("aiperf_config").asString())
        .isEqualTo(root.resolve("benchmark/aiperf-config.yaml").toString());
    assertThat(out.path("perf_yaml").asString())
        .isEqualTo(root.resolve("benchmark/perf.yaml").toString());
    assertThat(out.at("/sha256/perf_yaml").asString())
        .isEqualTo(Sha256.ofFile(root.resolve("benchmark/perf.yaml")));
    assertThat(out.at("/sha256/aiperf_config").asString())
        .isEqualTo(Sha256.ofFile(root.resolve("benchmark/aiperf-config.yaml")));
    assertThat(out.path("namespace").asString()).isEqualTo("bench");
    assertThat(out.path("mode").asString()).isEqualTo("config");
    assertThat(out.path("run_id").asString()).matches("\\d{8}T\\d{6}Z-[0-9a-f]{4}");
    assertThat(out.path("job_name").asString())
        .isEqualTo("bp-qwen3-chat-capacity-" + out.path("run_id").asString().toLowerCase());
    assertThat(res.err()).isEmpty();
  }

  @Test
  @DisplayName(
      "the container runs the fixed entrypoint with its markers, a bounded model wait and no unbounded sleep")
  void entrypoint() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("plan.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("d")));
    JsonNode command = r.container().path("command");
    assertThat(command.values().stream().map(JsonNode::asString).toList())
        .containsExactly("python3", "/benchplan/config/" + JobProgram.FILE);
    // the program and the encoder are files of the config ConfigMap, not text in the command
    JsonNode data = r.docs().get(0).path("data");
    assertThat(data.path(JobProgram.FILE).asString()).isEqualTo(JobProgram.text());
    assertThat(data.path(JobProgram.ENCODER_FILE).asString())
        .isEqualTo(dev.benchplan.artifacts.ArtifactChannel.encoderScript());
    assertThat(JobProgram.text())
        .contains("aiperf-summary:begin", "aiperf-summary:end", "aiperf-exit:")
        .contains("/v1/models")
        .doesNotContain("pip install", "apt-get", "curl ", "wget");
    assertThat(envValue(r, "BENCHPLAN_MODEL_WAIT_SECONDS")).isEqualTo("600");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("oddTraces")
  @DisplayName(
      "trace bytes travel in the ConfigMap exactly, whatever their line endings and spacing")
  void oddTraceBytes(String name, String content) throws Exception {
    Path trace = tmp.resolve("odd.jsonl");
    Files.writeString(trace, content, StandardCharsets.UTF_8);
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, "odd.jsonl").write(tmp.resolve("plan.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("d")));
    String travelled = r.configMaps().get(1).at("/data/trace.jsonl").asString();
    assertThat(travelled).isEqualTo(content);
    r.assertKubernetesValid();
  }

  static Stream<Arguments> oddTraces() {
    String row =
        "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"text_input\": \"a: #b 'c' \\\"d\\\"\"}";
    return Stream.of(
        Arguments.of("CRLF line endings", row + "\r\n" + row + "\r\n"),
        Arguments.of("no final newline", row + "\n" + row),
        Arguments.of("trailing spaces and a blank line", row + "   \n\n" + row + "\n"),
        Arguments.of("several final newlines", row + "\n\n\n"),
        Arguments.of(
            "tabs and non-ASCII", row.replace("a: ", "ä€😀 ").replace(": 0,", ":\t0,") + "\n"),
        Arguments.of("leading spaces", "  " + row + "\n"));
  }

  static String envValue(Rendered r, String name) {
    for (JsonNode e : r.container().path("env")) {
      if (e.path("name").asString().equals(name)) {
        return e.path("value").asString();
      }
    }
    return null;
  }

  static JsonNode volume(JsonNode podSpec, String name) {
    for (JsonNode v : podSpec.path("volumes")) {
      if (v.path("name").asString().equals(name)) {
        return v;
      }
    }
    throw new AssertionError("no volume " + name);
  }

  static JsonNode mount(JsonNode container, String name) {
    for (JsonNode v : container.path("volumeMounts")) {
      if (v.path("name").asString().equals(name)) {
        return v;
      }
    }
    throw new AssertionError("no volume mount " + name);
  }
}
