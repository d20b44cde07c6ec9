package dev.benchplan.analysis.series;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** analyze marks the points a plan accepted short, or the limit bounded, as not steady state. */
class SteadyStateMarkTest {
  private static RunEvidence run(ObjectNode plan, String loadPoint) {
    return new RunEvidence(
        null,
        null,
        null,
        null,
        null,
        null,
        new PlanInfo("plan.json", "x", "x", plan, null),
        Map.of(),
        "s",
        loadPoint,
        null,
        null);
  }

  private static ObjectNode plan() {
    ObjectNode plan = Json.JSON.createObjectNode();
    var points = plan.putObject("load_generator").putArray("points");
    points
        .addObject()
        .put("load_point", "concurrency=64")
        .putObject("steady_state")
        .put("status", "meets")
        .put("basis", "1000 measured requests >= the minimum 512");
    points
        .addObject()
        .put("load_point", "concurrency=2048")
        .putObject("steady_state")
        .put("status", "short_accepted")
        .put("basis", "below the steady-state minimum");
    points
        .addObject()
        .put("load_point", "request_rate=2.5")
        .putObject("steady_state")
        .put("status", "time_bounded")
        .put("basis", "the limit wins");
    return plan;
  }

  @Test
  @DisplayName("short_accepted and time_bounded points are not steady state; meets is")
  void marks() {
    ObjectNode plan = plan();
    assertThat(
            SeriesAnalysis.steadyState("concurrency=2048", List.of(run(plan, "concurrency=2048")))
                .orElseThrow())
        .satisfies(ss -> assertThat(ss.steady()).isFalse())
        .satisfies(ss -> assertThat(ss.note()).contains("not steady state"));
    assertThat(
            SeriesAnalysis.steadyState("request_rate=2.50", List.of(run(plan, "request_rate=2.50")))
                .orElseThrow()
                .status())
        .isEqualTo("time_bounded");
    assertThat(
            SeriesAnalysis.steadyState("concurrency=64", List.of(run(plan, "concurrency=64")))
                .orElseThrow()
                .steady())
        .isTrue();
  }

  @Test
  @DisplayName("a plan without load_generator (or a plain AIPerf directory) adds no marker")
  void none() {
    assertThat(
            SeriesAnalysis.steadyState(
                "concurrency=64", List.of(run(Json.JSON.createObjectNode(), "concurrency=64"))))
        .isEmpty();
  }
}
