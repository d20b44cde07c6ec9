package dev.benchplan.analysis.series;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** analyze marks the points a plan accepted short, or the limit bounded, as not steady state. */
class SteadyStateMarkTest {
  private static RunEvidence run(BenchmarkPlan plan, String loadPoint) {
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
        null,
        null,
        List.of());
  }

  /** The committed example grid plan, read by the one plan reader. */
  private static BenchmarkPlan committed() throws Exception {
    try (Stream<Path> s = Files.list(Path.of("experiments/inputs/benchmark-plans"))) {
      Path p = s.sorted().findFirst().orElseThrow();
      return PlanFile.parse(Files.readAllBytes(p), p.toString());
    }
  }

  private static BenchmarkPlan.PointSizing point(String loadPoint, String status, String basis) {
    return new BenchmarkPlan.PointSizing(
        loadPoint, 1, 2, 2304, null, new BenchmarkPlan.SteadyState(status, null, null, basis));
  }

  private static BenchmarkPlan plan() throws Exception {
    return committed().toBuilder()
        .loadGenerator(
            new BenchmarkPlan.LoadGenerator(
                BenchmarkPlan.LoadGenerator.JOB,
                "auto",
                "one pod carries the load",
                List.of(
                    point("concurrency=64", "meets", "1000 measured requests >= the minimum 512"),
                    point("concurrency=2048", "short_accepted", "below the steady-state minimum"),
                    point("request_rate=2.5", "time_bounded", "the limit wins"))))
        .build();
  }

  @Test
  @DisplayName("short_accepted and time_bounded points are not steady state; meets is")
  void marks() throws Exception {
    BenchmarkPlan plan = plan();
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
  void none() throws Exception {
    BenchmarkPlan old = committed().toBuilder().loadGenerator(null).build();
    assertThat(SeriesAnalysis.steadyState("concurrency=64", List.of(run(old, "concurrency=64"))))
        .isEmpty();
  }
}
