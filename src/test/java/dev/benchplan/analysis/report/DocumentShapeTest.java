package dev.benchplan.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The records keep the documents' shapes where a key is absent rather than null (goodput, Pareto,
 * steady state, the noise floor's pilot, the comparison's noise floor source): the schemas and the
 * bytes of earlier documents depend on it.
 */
class DocumentShapeTest {
  private static List<String> keys(Object doc) {
    JsonNode tree = Json.JSON.valueToTree(doc);
    return new ArrayList<>(tree.propertyNames());
  }

  @Test
  @DisplayName("goodput: a note without per-request SLOs, the counts (nulls kept) with them")
  void goodput() {
    assertThat(keys(new SeriesDoc.Goodput(null, "no per-request latency SLO", null)))
        .containsExactly("aiperf_goodput", "note");
    JsonNode counted =
        Json.JSON.valueToTree(
            new SeriesDoc.Goodput(
                BigDecimal.ONE, null, new SeriesDoc.Counted(3, 4, null, null, "rule")));
    assertThat(new ArrayList<>(counted.propertyNames()))
        .containsExactly(
            "aiperf_goodput",
            "good_requests",
            "requests",
            "good_fraction",
            "goodput_requests_per_sec",
            "rule");
    assertThat(counted.get("good_fraction").isNull()).isTrue();
  }

  @Test
  @DisplayName("pareto: grid alone for one load point; the frontiers, a null best point kept")
  void pareto() {
    assertThat(keys(new SeriesDoc.Pareto(false, null))).containsExactly("grid");
    JsonNode grid =
        Json.JSON.valueToTree(
            new SeriesDoc.Pareto(
                true,
                new SeriesDoc.Frontiers(
                    "output_token_throughput.avg", List.of(), List.of(), null)));
    assertThat(new ArrayList<>(grid.propertyNames()))
        .containsExactly(
            "grid",
            "throughput_metric",
            "throughput_vs_ttft_p99",
            "throughput_vs_interactivity",
            "highest_slo_feasible_point");
    assertThat(grid.get("highest_slo_feasible_point").isNull()).isTrue();
  }

  @Test
  @DisplayName("a load point without a planned steady state has no steady_state key")
  void steadyState() {
    SeriesDoc.Goodput g = new SeriesDoc.Goodput(null, "n", null);
    assertThat(
            keys(new SeriesDoc.LoadPoint("concurrency=1", 1, Map.of(), List.of(), null, g, null)))
        .containsExactly(
            "load_point", "runs", "metrics", "slo_evaluation", "slo_feasible", "goodput");
    assertThat(
            keys(
                new SeriesDoc.LoadPoint(
                    "concurrency=1",
                    1,
                    Map.of(),
                    List.of(),
                    true,
                    g,
                    new SeriesDoc.SteadyState("meets", true, "basis"))))
        .endsWith("steady_state");
  }

  @Test
  @DisplayName("the noise floor names a pilot only when one measured it; a null source is kept")
  void noiseFloor() {
    assertThat(
            keys(new SeriesDoc.NoiseFloorBlock(null, null, Map.of(), "no noise floor", Map.of())))
        .containsExactly("source", "metrics", "note", "load_points");
    assertThat(
            keys(
                new SeriesDoc.NoiseFloorBlock(
                    "s", new SeriesDoc.PilotSource("p", "a", 3, null), Map.of(), "n", Map.of())))
        .containsExactly("source", "pilot", "metrics", "note", "load_points");
  }

  @Test
  @DisplayName("comparison: noise_floor is null and noise_floor_source absent without a floor")
  void comparisonFloor() {
    ComparisonDoc c =
        new ComparisonDoc(
            "1",
            "comparison",
            null,
            null,
            new ComparisonDoc.Eligibility(true, Map.of(), List.of()),
            List.of(),
            List.of(),
            false,
            new ComparisonDoc.Method("i", BigDecimal.ONE, "m", "r"),
            null,
            null,
            List.of(),
            List.of(),
            List.of(),
            new ComparisonDoc.RepeatDecision("not_needed", "r"),
            "inconclusive",
            "regressed",
            0,
            "no gated metric regressed");
    List<String> keys = keys(c);
    assertThat(keys).contains("noise_floor").doesNotContain("noise_floor_source");
    assertThat(keys)
        .containsExactly(
            "schema_version",
            "kind",
            "question",
            "plan",
            "eligibility",
            "reference",
            "candidate",
            "paired",
            "method",
            "noise_floor",
            "metrics",
            "errors",
            "excluded",
            "repeat_decision",
            "verdict",
            "fail_on",
            "exit_code",
            "exit_reason");
  }
}
