package dev.benchplan.aiperf.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.testing.SharedData;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The native config against AIPerf's own JSON Schema (unknown keys rejected). */
class NativeConfigTest {
  static SchemaValidator schema;

  @BeforeAll
  static void load() {
    schema = SchemaValidator.fromFile(SharedData.require("aiperf/aiperf-config.schema.json"));
  }

  @Test
  @DisplayName(
      "AIPerf's own templates, read with the same check: the numeric ones pass, the others show why")
  void templates() throws Exception {
    for (String ok : List.of("minimal.yaml", "latency_test.yaml", "goodput_slo.yaml")) {
      Path t = SharedData.require("aiperf/templates/" + ok);
      assertThat(schema.validate(Json.YAML.readTree(t.toFile()))).as(ok).isEmpty();
    }
    // AIPerf's pydantic loader accepts "120s" where its JSON Schema wants a number: we write
    // numbers
    Path replay = SharedData.require("aiperf/templates/trace_replay.yaml");
    assertThat(schema.validate(Json.YAML.readTree(replay.toFile())))
        .anySatisfy(p -> assertThat(p.toString()).contains("/benchmark/phases/gracePeriod"));
  }

  @Test
  @DisplayName("every phase type, dataset and bound renders a config the schema accepts")
  void everyShapeValid() {
    Dataset syn = new Dataset.Synthetic(550, 50, 150, 25, 5000);
    Dataset trace = new Dataset.MooncakeTrace("/benchplan/trace/trace.jsonl");
    Phase warm = new Phase(PhaseType.CONCURRENCY, 8, null, 100L, 300, null, null);
    List<AiperfSettings> all =
        List.of(
            ProfileFlagsTest.settings(
                new Phase(PhaseType.CONCURRENCY, 64, null, 1000L, 600, 30, null),
                warm,
                syn,
                Map.of("time_to_first_token", new BigDecimal("200"))),
            ProfileFlagsTest.settings(
                new Phase(PhaseType.POISSON, null, new BigDecimal("2.5"), null, 120, 30, null),
                null,
                syn,
                Map.of()),
            ProfileFlagsTest.settings(
                new Phase(PhaseType.CONSTANT, null, new BigDecimal("10"), 500L, null, null, null),
                warm,
                syn,
                Map.of()),
            ProfileFlagsTest.settings(
                new Phase(PhaseType.FIXED_SCHEDULE, null, null, null, 900, 30, null),
                warm,
                trace,
                Map.of()),
            ProfileFlagsTest.settings(
                new Phase(
                    PhaseType.FIXED_SCHEDULE,
                    null,
                    null,
                    null,
                    900,
                    30,
                    new Phase.ReplayWindow(0, 60000)),
                null,
                trace,
                Map.of("inter_token_latency", new BigDecimal("25"))));
    for (AiperfSettings s : all) {
      ObjectNode config = NativeConfig.render(s);
      assertThat(schema.validate(config)).as(config.toString()).isEmpty();
    }
  }

  @Test
  @DisplayName("the schema check would catch a wrong key (so passing it means something)")
  void schemaCatchesMistakes() {
    ObjectNode config =
        NativeConfig.render(
            ProfileFlagsTest.settings(
                ProfileFlagsTest.CLOSED, null, ProfileFlagsTest.SYN, Map.of()));
    ((ObjectNode) config.at("/benchmark/phases/0")).put("request_count", 5);
    assertThat(schema.validate(config)).isNotEmpty();
  }

  @Test
  @DisplayName("the config says exactly what the settings say")
  void expressesSettings() {
    Phase p = new Phase(PhaseType.CONCURRENCY, 64, null, 1000L, 600, 30, null);
    Phase w = new Phase(PhaseType.CONCURRENCY, 8, null, 100L, 300, null, null);
    JsonNode c =
        NativeConfig.render(
            ProfileFlagsTest.settings(
                p, w, ProfileFlagsTest.SYN, Map.of("time_to_first_token", new BigDecimal("200"))));
    assertThat(c.path("schemaVersion").asString()).isEqualTo("2.0");
    assertThat(c.path("randomSeed").asLong()).isEqualTo(42);
    assertThat(c.at("/benchmark/endpoint/url").asString())
        .isEqualTo("http://svc.ns.svc.cluster.local:8000");
    assertThat(c.at("/benchmark/endpoint/timeout").asInt()).isEqualTo(300);
    assertThat(c.at("/benchmark/endpoint/extra/ignore_eos").asBoolean()).isTrue();
    assertThat(c.at("/benchmark/dataset/entries").asInt()).isEqualTo(700);
    assertThat(c.at("/benchmark/dataset/prompts/isl/stddev").asInt()).isEqualTo(10);
    assertThat(c.at("/benchmark/phases/0/name").asString()).isEqualTo("warmup");
    assertThat(c.at("/benchmark/phases/0/excludeFromResults").asBoolean()).isTrue();
    assertThat(c.at("/benchmark/phases/1/requests").asInt()).isEqualTo(1000);
    assertThat(c.at("/benchmark/phases/1/duration").asInt()).isEqualTo(600);
    assertThat(c.at("/benchmark/phases/1/gracePeriod").asInt()).isEqualTo(30);
    assertThat(c.at("/benchmark/slos/time_to_first_token").decimalValue())
        .isEqualByComparingTo("200");
    assertThat(c.at("/benchmark/artifacts/summary/0").asString()).isEqualTo("json");
    assertThat(c.at("/benchmark/artifacts/records/0").asString()).isEqualTo("jsonl");
  }
}
