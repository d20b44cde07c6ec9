package dev.benchplan.aiperf.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.export.AiperfInputConfig.Layout;
import dev.benchplan.aiperf.export.AiperfInputConfig.LoadKind;
import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.nio.file.Files;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** input_config in every layout: AIPerf 0.11's phases/datasets, 0.4-0.8's loadgen, 0.1.x's. */
class AiperfInputConfigTest {
  static final String REAL_011 = "aiperf/real-0.11.0-tiny/profile_export_aiperf.json";

  static ObjectNode real011() throws Exception {
    return (ObjectNode) Json.JSON.readTree(Files.readAllBytes(SharedData.require(REAL_011)));
  }

  @Test
  @DisplayName(
      "a real AIPerf 0.11 export: load, requests and warmup from phases[], shape from datasets[]")
  void aiperf011() throws Exception {
    AiperfInputConfig c = AiperfInputConfig.read(real011().get("input_config"));
    assertThat(c.layout()).isEqualTo(Layout.PHASES);
    assertThat(c.load()).isNotNull();
    assertThat(c.load().kind()).isEqualTo(LoadKind.CONCURRENCY);
    assertThat(c.load().label()).isEqualTo("concurrency=2");
    assertThat(c.load().source()).isEqualTo("input_config /phases/1/concurrency");
    assertThat(c.concurrency()).isEqualTo(2);
    assertThat(c.requestRate()).isNull();
    assertThat(c.requestCount()).isEqualTo(20L);
    assertThat(c.warmupRequestCount()).isEqualTo(2L);
    assertThat(c.islMean()).isEqualTo(32.0);
    assertThat(c.oslMean()).isEqualTo(16.0);
    assertThat(c.islStddev()).isEqualTo(0.0);
    assertThat(c.model()).isEqualTo("tiny-test-model");
    assertThat(c.endpointType()).isEqualTo("chat");
    assertThat(c.streaming()).isTrue();
    assertThat(c.tokenizer()).isEqualTo("/opt/tokenizers/tiny-test-model");
    assertThat(c.datasetFile()).isNull();
  }

  @Test
  @DisplayName("a real 0.4-0.8 export (loadgen) reads as before")
  void loadgen() {
    JsonNode ic = ExportVariants.realTree().get("input_config");
    AiperfInputConfig c = AiperfInputConfig.read(ic);
    assertThat(c.layout()).isEqualTo(Layout.LOADGEN);
    assertThat(c.load().label()).isEqualTo("concurrency=1");
    assertThat(c.load().source()).isEqualTo("input_config /loadgen/concurrency");
    assertThat(c.requestCount()).isEqualTo(64L);
    assertThat(c.warmupRequestCount()).isEqualTo(1L);
    assertThat(c.islMean()).isEqualTo(100.0);
    assertThat(c.oslMean()).isEqualTo(200.0);
    assertThat(c.randomSeed()).isEqualTo(100L);
    assertThat(c.model()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(c.streaming()).isTrue();
  }

  @Test
  @DisplayName("0.1.x's records layout keeps input_config at the top: the same values")
  void recordsLayout() {
    ObjectNode records = ExportVariants.asRecordsLayout(ExportVariants.realTree());
    assertThat(AiperfInputConfig.read(records.get("input_config")))
        .isEqualTo(AiperfInputConfig.read(ExportVariants.realTree().get("input_config")));
  }

  @Test
  @DisplayName("a rate phase is a request_rate load point (its concurrency is a cap)")
  void ratePhase() throws Exception {
    ObjectNode ic = (ObjectNode) real011().get("input_config");
    ObjectNode profiling = (ObjectNode) ic.get("phases").get(1);
    profiling.put("type", "poisson").put("rate", 2.5);
    AiperfInputConfig c = AiperfInputConfig.read(ic);
    assertThat(c.load().kind()).isEqualTo(LoadKind.REQUEST_RATE);
    assertThat(c.load().label()).isEqualTo("request_rate=2.5");
    assertThat(c.load().source()).isEqualTo("input_config /phases/1/rate");
    assertThat(c.concurrency()).isEqualTo(2);
  }

  @Test
  @DisplayName("no warmup phase, several datasets, a trace file: absent values stay null")
  void partial() throws Exception {
    ObjectNode ic = (ObjectNode) real011().get("input_config");
    ((ArrayNode) ic.get("phases")).remove(0);
    ArrayNode datasets = (ArrayNode) ic.get("datasets");
    datasets.add(datasets.get(0).deepCopy());
    AiperfInputConfig c = AiperfInputConfig.read(ic);
    assertThat(c.warmupRequestCount()).isNull();
    assertThat(c.load().source()).isEqualTo("input_config /phases/0/concurrency");
    assertThat(c.islMean()).isNull();

    ObjectNode trace = (ObjectNode) real011().get("input_config");
    ArrayNode one = trace.putArray("datasets");
    one.addObject().put("name", "default").put("type", "file").put("path", "/trace/t.jsonl");
    AiperfInputConfig t = AiperfInputConfig.read(trace);
    assertThat(t.datasetFile()).isEqualTo("/trace/t.jsonl");
    assertThat(t.islMean()).isNull();
  }

  @Test
  @DisplayName("no input_config, or an unknown one: layout NONE, nothing recorded")
  void none() {
    assertThat(AiperfInputConfig.read(null)).isEqualTo(AiperfInputConfig.none());
    assertThat(AiperfInputConfig.read(Json.JSON.createObjectNode().put("x", 1)).layout())
        .isEqualTo(Layout.NONE);
    assertThat(AiperfInputConfig.none().load()).isNull();
  }
}
