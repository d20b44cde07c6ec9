package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.benchplan.json.Sha256;
import dev.benchplan.render.PlanRenderer;
import dev.benchplan.render.RenderRequest;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15 items 2-4 and issue 20 item 6 at the plan: numbers out of range, the run-length estimate
 * against the 30-minute limit, secrets in free texts, per-point warmup.
 */
class PlanNumbersTest {
  @TempDir Path tmp;
  PlanFixture.Inputs fx;
  final PlanService service = new PlanService();

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
  }

  private PlanResult plan(
      String name, String workload, Consumer<PlanOptions.Builder> opts, Question q) {
    PlanOptions.Builder b = fx.options();
    opts.accept(b);
    return service.plan(
        fx.request(
            fx.workload(name, workload),
            b.build(),
            q,
            PlanFixture.Inputs.NO_TRACES,
            PlanFixture.Inputs.OFFLINE));
  }

  private List<Blocker> blockers(
      String name, String workload, Consumer<PlanOptions.Builder> opts, Question q) {
    Throwable t = catchThrowable(() -> plan(name, workload, opts, q));
    assertThat(t)
        .as(
            "expected blockers (exit 2), got "
                + t
                + (t == null
                    ? ""
                    : " at "
                        + java.util.Arrays.toString(java.util.Arrays.copyOf(t.getStackTrace(), 8))))
        .isInstanceOf(PlanBlockedException.class);
    assertThat(planFiles()).as("a blocked plan writes nothing").isEmpty();
    return ((PlanBlockedException) t).blockers();
  }

  private List<Blocker> blockers(String workloadYaml) {
    return blockers("w.yaml", workloadYaml, b -> {}, PlanFixture.Inputs.question());
  }

  private List<Path> planFiles() {
    Path dir = fx.expRoot.resolve("inputs/benchmark-plans");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String traffic(String traffic) {
    return """
        profile: {name: numbers, type: chat}
        traffic: %s
        """
        .formatted(traffic);
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName("numbers out of range in the workload: exit 2 naming the line, pointer and range")
  @CsvSource(
      delimiter = '|',
      value = {
        "{input_tokens: 99999999999999999999999, output_tokens: 10, concurrency: [1]}"
            + "|/traffic/input_tokens|an integer 1..10000000",
        "{input_tokens: 10, output_tokens: 10, concurrency: [2147483648]}"
            + "|/traffic/concurrency/0|an integer 1..100000",
        "{input_tokens: 10, output_tokens: 10, max_concurrency: 4294967296}"
            + "|/traffic/max_concurrency|an integer 1..100000",
        "{input_tokens: 10, output_tokens: 10, concurrency: [1], request_count: 9223372036854775807}"
            + "|/traffic/request_count|an integer 1..10000000",
        "{input_tokens: 10, output_tokens: 10, concurrency: [1], duration_s: 1.0e+300}"
            + "|/traffic/duration_s|an integer 1..86400",
        "{input_tokens: 10, output_tokens: 10, request_rate: [0.0001]}"
            + "|/traffic/request_rate/0|a number >= 0.001 and <= 100000",
        "{input_tokens: 10, output_tokens: 10, request_rate: 1.0e+400}"
            + "|/traffic/request_rate|a number >= 0.001 and <= 100000",
        "{input_tokens: 10, output_tokens: 10, concurrency: [1], input_tokens_stddev: 10000001}"
            + "|/traffic/input_tokens_stddev|an integer 0..10000000",
      })
  void trafficOutOfRange(String trafficYaml, String pointer, String range) {
    List<Blocker> b = blockers(traffic(trafficYaml));
    assertThat(b).extracting(Blocker::code).containsExactly("WORKLOAD_SCHEMA");
    assertThat(b.get(0).message())
        .contains("w.yaml:2 " + pointer + ":")
        .contains("out of range")
        .contains("expected " + range);
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName("YAML infinities and NaN in numeric fields: exit 2 naming the pointer and range")
  @CsvSource(
      delimiter = '|',
      value = {
        "{input_tokens: .inf, output_tokens: 10, concurrency: [1]}|/traffic/input_tokens",
        "{input_tokens: 10, output_tokens: 10, request_rate: [.nan]}|/traffic/request_rate/0",
        "{input_tokens: 10, output_tokens: 10, request_rate: -.inf}|/traffic/request_rate",
      })
  void notFinite(String trafficYaml, String pointer) {
    List<Blocker> b = blockers(traffic(trafficYaml));
    assertThat(b).extracting(Blocker::code).containsExactly("WORKLOAD_SCHEMA");
    assertThat(b.get(0).message())
        .contains(pointer + ":")
        .contains("not a finite number")
        .contains("expected ");
  }

  @Test
  @DisplayName("hardware gpu_count 99999999999 and an objective of 1e308 are refused, not accepted")
  void hardwareAndObjectives() {
    List<Blocker> b =
        blockers(
            """
        profile: {name: numbers, type: chat}
        hardware: [{gpu_type: H100, gpu_count: 99999999999}]
        traffic: {input_tokens: 10, output_tokens: 10, concurrency: [1]}
        objectives:
          output_tput_per_gpu_min: 1.0e+308
          ttft_ms_p95_max: 1.0e+10
          custom_slos: [{metric: time_to_first_token, stat: p99, max: 1.0e+300}]
        """);
    assertThat(b).extracting(Blocker::code).containsOnly("WORKLOAD_SCHEMA");
    assertThat(b)
        .extracting(Blocker::message)
        .anySatisfy(
            m -> assertThat(m).contains("/hardware/0/gpu_count").contains("an integer 1..100000"))
        .anySatisfy(
            m ->
                assertThat(m)
                    .contains("/objectives/output_tput_per_gpu_min")
                    .contains("<= 10000000"))
        .anySatisfy(
            m -> assertThat(m).contains("/objectives/ttft_ms_p95_max").contains("<= 3600000"))
        .anySatisfy(m -> assertThat(m).contains("/objectives/custom_slos/0/max"));
  }

  @Test
  @DisplayName("a whole number written 60.0 in JSON is the integer 60, never silently dropped")
  void wholeDecimal() throws IOException {
    PlanResult r =
        plan(
            "w.json",
            """
        {"profile": {"name": "numbers", "type": "chat"},
         "traffic": {"input_tokens": 100.0, "output_tokens": 1e1, "concurrency": [4.0],
                     "duration_s": 60.0}}
        """,
            b -> {},
            PlanFixture.Inputs.question());
    JsonNode plan = PlanJson.parse(Files.readAllBytes(r.planPath()));
    assertThat(plan.at("/experiment/duration_s").asInt()).isEqualTo(60);
    assertThat(plan.at("/workload/synthetic/isl").asInt()).isEqualTo(100);
    assertThat(plan.at("/workload/synthetic/osl").asInt()).isEqualTo(10);
  }

  @Test
  @DisplayName("ledger gpu_count 3000000000 and max_context_length 99999999999: exit 2 naming them")
  void ledgerOutOfRange() throws IOException {
    String ledger =
        Files.readString(fx.ledger)
            .replace("gpu_count: 2", "gpu_count: 3000000000")
            .replace("max_context_length: 40960", "max_context_length: 99999999999");
    Files.writeString(fx.ledger, ledger);
    List<Blocker> b = blockers(PlanFixture.Inputs.STATIC_WORKLOAD);
    assertThat(b).extracting(Blocker::code).containsOnly("LEDGER_SCHEMA");
    assertThat(b)
        .extracting(Blocker::message)
        .anySatisfy(
            m ->
                assertThat(m)
                    .contains("/gpus/0/gpu_count")
                    .contains("3000000000")
                    .contains("an integer 1..100000"))
        .anySatisfy(
            m ->
                assertThat(m)
                    .contains("/max_context_length")
                    .contains("99999999999")
                    .contains("an integer 1..10000000"));
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName("numeric options out of range: OPTION_OUT_OF_RANGE naming the option and range")
  @CsvSource(
      delimiter = '|',
      value = {
        "max-concurrency 2147483647|--max-concurrency 2147483647|an integer 1..100000",
        "max-concurrency 0|--max-concurrency 0|an integer 1..100000",
        "max-request-rate 1e999|--max-request-rate 1E+999|a number >= 0.001",
        "warmup -1|--warmup-requests -1|an integer 0..1000000",
        "seed 2^32|--seed 4294967296|an integer 0..4294967295",
      })
  void optionsOutOfRange(String name, String shown, String range) {
    Consumer<PlanOptions.Builder> o =
        switch (name) {
          case "max-concurrency 2147483647" -> b -> b.maxConcurrency(Integer.MAX_VALUE);
          case "max-concurrency 0" -> b -> b.maxConcurrency(0);
          case "max-request-rate 1e999" -> b -> b.maxRequestRate(new java.math.BigDecimal("1e999"));
          case "warmup -1" -> b -> b.warmupRequests(-1);
          default -> b -> b.seed(4294967296L);
        };
    List<Blocker> b =
        blockers("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD, o, PlanFixture.Inputs.question());
    assertThat(b).extracting(Blocker::code).contains("OPTION_OUT_OF_RANGE");
    assertThat(b)
        .filteredOn(x -> x.code().equals("OPTION_OUT_OF_RANGE"))
        .singleElement()
        .satisfies(x -> assertThat(x.message()).contains(shown).contains(range));
  }

  @Test
  @DisplayName(
      "1,000,000 requests at concurrency 1 cannot fit in 30 minutes: the measurement-limit"
          + " blocker with the estimate and its basis")
  void requestCountPastTheLimit() {
    List<Blocker> b =
        blockers(
            traffic(
                "{input_tokens: 512, output_tokens: 128, concurrency: [1, 8], request_count: 1000000}"));
    assertThat(b).extracting(Blocker::code).containsExactly("MEASUREMENT_LIMIT_EXCEEDED");
    // the example smoke request: TTFT 48.915 ms, (131.772 - 48.915) / 15 ms per token
    // -> 48.915 + 5.5238 x 127 = 750.4 ms per request x 1,000,000 at concurrency 1
    assertThat(b.get(0).message())
        .contains("/traffic/request_count: 1000000")
        .contains("concurrency 1")
        .contains("750")
        .contains("1800 s measurement limit")
        .contains("TTFT 48.92 ms")
        .contains("traffic.duration_s");
  }

  @Test
  @DisplayName(
      "a count that fits records the estimate and its basis; with the user's duration_s a"
          + " count past it is a warning, since the user allowed a duration control")
  void estimateRecorded() throws IOException {
    PlanResult ok =
        plan(
            "a.yaml",
            traffic(
                "{input_tokens: 512, output_tokens: 128, concurrency: [16], request_count: 1000}"),
            b -> {},
            PlanFixture.Inputs.question());
    JsonNode plan = PlanJson.parse(Files.readAllBytes(ok.planPath()));
    JsonNode est = plan.at("/experiment/run_estimate");
    // 63 requests per slot x 750.4 ms = 47.28 s
    assertThat(est.get("seconds").decimalValue())
        .isBetween(new java.math.BigDecimal("47"), new java.math.BigDecimal("48"));
    assertThat(est.get("load_point").asString()).isEqualTo("16");
    assertThat(est.get("basis").asString())
        .contains("smoke request")
        .contains("63 requests per" + " slot");
    assertThat(ok.warnings()).noneMatch(w -> w.contains("duration_s"));

    PlanResult cut =
        plan(
            "b.yaml",
            traffic(
                "{input_tokens: 512, output_tokens: 128,"
                    + " concurrency: [1], request_count: 100000, duration_s: 600}"),
            b -> {},
            PlanFixture.Inputs.question());
    assertThat(cut.warnings())
        .anySatisfy(
            w ->
                assertThat(w)
                    .contains("traffic.duration_s 600 s")
                    .contains("ends that point first"));
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName(
      "a Hugging Face token in a free text: exit 2 naming the option, value never shown,"
          + " nothing written")
  @CsvSource({"question", "target-region", "reference", "repeat-rationale", "series-id"})
  void secretInFreeText(String where) {
    String token = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123";
    Question base = PlanFixture.Inputs.question();
    Question q =
        switch (where) {
          case "question" ->
              new Question(
                  "How fast? " + token, base.intent(), base.targetRegion(), base.references());
          case "target-region" ->
              new Question(base.text(), base.intent(), "8 users " + token, base.references());
          case "reference" -> new Question(base.text(), Intent.comparison, null, List.of(token));
          default -> base;
        };
    Consumer<PlanOptions.Builder> o =
        switch (where) {
          case "repeat-rationale" -> b -> b.repeatRationale("because " + token);
          case "series-id" -> b -> b.seriesId("sk-" + "abcdefghijklmnopqrstuvwxyz012345");
          default -> b -> {};
        };
    List<Blocker> b = blockers("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD, o, q);
    assertThat(b).extracting(Blocker::code).contains("PLAN_TEXT_SECRET");
    assertThat(b)
        .filteredOn(x -> x.code().equals("PLAN_TEXT_SECRET"))
        .singleElement()
        .satisfies(
            x ->
                assertThat(x.message())
                    .startsWith("--" + where)
                    .doesNotContain(token)
                    .contains("value not shown"));
  }

  @Test
  @DisplayName(
      "issue 20 item 6: a grid 1, 4, 16, 64 warms up 1, 4, 16 and 64, and each rendered"
          + " point carries its own warmup")
  void perPointWarmup() throws IOException {
    PlanResult r =
        plan(
            "g.yaml",
            traffic(
                "{input_tokens: 128, output_tokens: 32, concurrency: [1, 4, 16, 64], request_count: 1000}"),
            b -> {},
            PlanFixture.Inputs.question());
    JsonNode plan = PlanJson.parse(Files.readAllBytes(r.planPath()));
    assertThat(plan.at("/experiment/warmup_requests_per_point").toString())
        .isEqualTo("[1,4,16,64]");
    assertThat(plan.at("/experiment/warmup_requests").asInt()).isEqualTo(64);
    // the audit looks a run's warmup up by its load point: each point's own, not the largest
    BenchmarkPlan.Experiment typed = PlanJson.read(plan, BenchmarkPlan.class).experiment();
    assertThat(List.of(1, 4, 16, 64).stream().map(c -> typed.warmupAtLoad(c, null)).toList())
        .containsExactly(1, 4, 16, 64);
    assertThat(typed.warmupAtLoad(8, null))
        .as("not a point of the plan: its one value")
        .isEqualTo(64);
    Path deploy = Files.createDirectories(tmp.resolve("deploy-root"));
    for (int c : new int[] {1, 4, 16, 64}) {
      var out =
          PlanRenderer.render(
              RenderRequest.builder(r.planPath(), r.sha256(), deploy)
                  .loadPoint(Integer.toString(c))
                  .runId(PlanFixture.Inputs.CLOCK, new Random(c))
                  .build());
      String config = Files.readString(out.aiperfConfig(), StandardCharsets.UTF_8);
      JsonNode doc = dev.benchplan.json.Json.YAML.readTree(config);
      JsonNode warmup = null;
      for (JsonNode phase : doc.findValues("phases").get(0)) {
        if (phase.path("name").asString().equals("warmup")) {
          warmup = phase;
        }
      }
      assertThat(warmup).as("warmup phase of point " + c + " in\n" + config).isNotNull();
      assertThat(warmup.get("requests").asInt()).as("warmup requests of point " + c).isEqualTo(c);
      assertThat(warmup.get("concurrency").asInt()).isEqualTo(c);
    }
    assertThat(Sha256.ofFile(r.planPath())).isEqualTo(r.sha256());
  }

  static Clock clock() {
    return Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);
  }
}
