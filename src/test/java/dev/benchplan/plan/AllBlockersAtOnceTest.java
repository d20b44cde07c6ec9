package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * plan.md promises every problem at once (issue 36, item 4): a request with N independent faults
 * gets N blockers in one call, and nothing is written.
 */
class AllBlockersAtOnceTest {
  @TempDir Path tmp;
  PlanFixture.Inputs fx;

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
  }

  private PlanResult plan(Path workload, PlanOptions options) {
    return new PlanService().plan(fx.request(workload, options));
  }

  @Test
  @DisplayName(
      "a stale smoke artifact and an existing series: both blockers in one call, the series'"
          + " plan untouched")
  void staleSmokeAndExistingSeries() throws Exception {
    Path w = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    PlanResult first = plan(w, fx.options().build());
    byte[] before = Files.readAllBytes(first.planPath());
    // the artifact is 1 h 45 min old at the fixture's clock: past a 1 h limit
    PlanBlockedException e =
        catchThrowableOfType(
            PlanBlockedException.class, () -> plan(w, fx.options().smokeMaxAgeS(3600L).build()));
    assertThat(e.blockers())
        .extracting(Blocker::code)
        .containsExactlyInAnyOrder("SMOKE_STALE", "SERIES_EXISTS");
    assertThat(Files.readAllBytes(first.planPath())).isEqualTo(before);
  }

  @Test
  @DisplayName(
      "a stale smoke artifact alone still blocks (independent is not optional), nothing written")
  void staleSmokeAloneBlocks() {
    Path w = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    PlanBlockedException e =
        catchThrowableOfType(
            PlanBlockedException.class, () -> plan(w, fx.options().smokeMaxAgeS(3600L).build()));
    assertThat(e.blockers()).extracting(Blocker::code).containsExactly("SMOKE_STALE");
    assertThat(fx.expRoot.resolve("inputs/benchmark-plans")).doesNotExist();
  }

  private java.util.List<String> codes(Path workload, PlanOptions options) {
    return codes(workload, options, PlanFixture.Inputs.question());
  }

  private java.util.List<String> codes(Path workload, PlanOptions options, Question q) {
    PlanBlockedException e =
        catchThrowableOfType(
            PlanBlockedException.class,
            () ->
                new PlanService()
                    .plan(
                        fx.request(
                            workload,
                            options,
                            q,
                            new dev.benchplan.workload.ScannerTraceInspector(),
                            PlanFixture.Inputs.OFFLINE)));
    assertThat(e).as("refused").isNotNull();
    return e.blockers().stream().map(Blocker::code).toList();
  }

  @Test
  @DisplayName(
      "an option out of range stops planning, yet the same call reports the stale smoke"
          + " artifact, the --series-id already taken and the unresolved AIPerf version")
  void outOfRangeWithThreeIndependent() throws Exception {
    Path w = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    plan(w, fx.options().seriesId("taken").build());
    assertThat(
            codes(
                w,
                fx.options()
                    .seriesId("taken")
                    .seed(8_589_934_592L)
                    .smokeMaxAgeS(3600L)
                    .aiperf(dev.benchplan.aiperf.version.VersionRequest.none())
                    .build()))
        .containsExactlyInAnyOrder(
            "OPTION_OUT_OF_RANGE", "SMOKE_STALE", "SERIES_EXISTS", "AIPERF_VERSION_UNRESOLVED");
  }

  @Test
  @DisplayName(
      "a missing question, a repeat decision file that is not there and a stale smoke artifact:"
          + " three blockers in one call")
  void questionRepeatDecisionSmoke() {
    Path w = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    Question blank = new Question(" ", Intent.characterization, null, java.util.List.of());
    java.util.List<String> codes =
        codes(
            w,
            fx.options()
                .smokeMaxAgeS(3600L)
                .repeatDecision(
                    new RepeatDecisionRequest(tmp.resolve("absent.json"), "0".repeat(64)))
                .build(),
            blank);
    assertThat(codes).contains("QUESTION_MISSING", "SMOKE_STALE");
    assertThat(codes).anyMatch(c -> c.startsWith("REPEAT_DECISION_"));
    assertThat(codes).hasSize(3);
  }

  @Test
  @DisplayName(
      "an invalid workload: the ledger's stale smoke artifact and the unresolved AIPerf version"
          + " too, but nothing that needs the workload")
  void invalidWorkloadWithIndependent() {
    Path w =
        fx.workload(
            "w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD.replace("type: chat", "type: chatbot"));
    assertThat(
            codes(
                w,
                fx.options()
                    .smokeMaxAgeS(3600L)
                    .aiperf(dev.benchplan.aiperf.version.VersionRequest.none())
                    .build()))
        .containsExactlyInAnyOrder("WORKLOAD_SCHEMA", "SMOKE_STALE", "AIPERF_VERSION_UNRESOLVED");
  }

  @Test
  @DisplayName(
      "a named trace that is not there stops source selection; the error-rate limit without its"
          + " rationale and the unresolved AIPerf version are reported with it")
  void traceMissingWithIndependent() {
    Path w =
        fx.workload(
            "w.yaml",
            PlanFixture.Inputs.STATIC_WORKLOAD.replace(
                "objectives:\n", "objectives:\n  error_rate_max: 0.05\n"));
    assertThat(
            codes(
                w,
                fx.options()
                    .trace(tmp.resolve("absent.jsonl"))
                    .aiperf(dev.benchplan.aiperf.version.VersionRequest.none())
                    .build()))
        .contains("ERROR_RATE_RATIONALE_MISSING", "AIPERF_VERSION_UNRESOLVED")
        .anyMatch(c -> c.startsWith("TRACE_"))
        .hasSize(3);
  }

  @Test
  @DisplayName("a valid request still plans and records its decisions in the usual order")
  void validRequestUnchanged() {
    Path w = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    PlanResult r = plan(w, fx.options().build());
    java.util.List<String> rules =
        r.plan().rulesApplied().stream().map(d -> d.rule()).distinct().toList();
    // the tool version is decided after the experiment, as before
    assertThat(rules.indexOf("benchmarking/tool-version.md"))
        .isGreaterThan(rules.indexOf("benchmarking/concurrency-grid.md"));
  }
}
