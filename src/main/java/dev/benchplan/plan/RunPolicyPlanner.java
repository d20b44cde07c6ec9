package dev.benchplan.plan;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Repetitions (agent-docs/rules/benchmarking/comparison-uncertainty.md): one measured run by
 * default; more only with a recorded rationale; the pre-authorized noise-floor pilot (n = 3) once
 * per series, as repetitions of one unchanged configuration.
 */
final class RunPolicyPlanner {
  static final int PILOT_RUNS = 3;
  static final int MAX_REPETITIONS = dev.benchplan.workload.InputRanges.MAX_REPETITIONS;

  private RunPolicyPlanner() {}

  static Optional<BenchmarkPlan.RunPolicy> plan(
      PlanOptions o, String seriesLabel, int loadPoints, RuleLog log) {
    return plan(o, seriesLabel, loadPoints, null, log);
  }

  /**
   * The run policy; {@code decision}, a verified {@code necessary} repeat decision ({@code
   * --repeat-decision}), stands in for {@code --pilot} and is recorded as the pilot's source.
   */
  static Optional<BenchmarkPlan.RunPolicy> plan(
      PlanOptions o,
      String seriesLabel,
      int loadPoints,
      RepeatDecisionFile.@Nullable Approved decision,
      RuleLog log) {
    RuleFile rule = RuleFile.COMPARISON_UNCERTAINTY;
    String rationale =
        o.repeatRationale() == null || o.repeatRationale().isBlank()
            ? null
            : o.repeatRationale().trim();
    if (o.pilot() || decision != null) {
      boolean ok = true;
      if (o.repetitions() != null && o.repetitions() != PILOT_RUNS) {
        log.block(
            BlockerCode.PILOT_CONFLICT,
            "--pilot runs exactly "
                + PILOT_RUNS
                + " repetitions;"
                + " --repetitions "
                + o.repetitions()
                + " contradicts it");
        ok = false;
      }
      if (loadPoints != 1) {
        log.block(
            BlockerCode.PILOT_CONFLICT,
            "--pilot repeats one unchanged configuration; this plan"
                + " has "
                + loadPoints
                + " load points");
        ok = false;
      }
      if (o.reuse() != null) {
        log.block(
            BlockerCode.PILOT_ONCE_PER_SERIES,
            (o.pilot() ? "--pilot" : "--repeat-decision")
                + " with --reuse-plan: the noise-floor pilot is decided once, when a series is created;"
                + " a reused series keeps its repetition policy");
        ok = false;
      }
      if (decision != null && decision.repetitions() != PILOT_RUNS) {
        log.block(
            BlockerCode.PILOT_CONFLICT,
            "--repeat-decision approves "
                + decision.repetitions()
                + " repetitions; the noise-floor pilot runs exactly "
                + PILOT_RUNS);
        ok = false;
      }
      if (!ok) {
        return Optional.empty();
      }
      if (decision == null) {
        String text =
            "series noise-floor pilot for series "
                + seriesLabel
                + ": n = "
                + PILOT_RUNS
                + " runs of one unchanged configuration, pre-authorized once per series"
                + (rationale == null ? "" : "; " + rationale);
        log.decide(rule, "run_policy.repetitions = 3 (repeat_decision necessary)", text);
        return Optional.of(new BenchmarkPlan.RunPolicy(PILOT_RUNS, "necessary", text, true));
      }
      String path = PlanPaths.relative(o.expRoot(), decision.file());
      String text =
          "series noise-floor pilot for series "
              + decision.seriesId()
              + ": n = "
              + PILOT_RUNS
              + " runs of one unchanged configuration"
              + (decision.loadPoint() == null ? "" : " at " + decision.loadPoint())
              + ", pre-authorized by the repeat decision "
              + path
              + " (sha256 "
              + decision.sha256()
              + "): "
              + decision.rationale()
              + (rationale == null ? "" : "; " + rationale);
      log.decide(
          rule, "run_policy.repetitions = 3 (repeat_decision necessary, from " + path + ")", text);
      return Optional.of(
          new BenchmarkPlan.RunPolicy(
              PILOT_RUNS,
              "necessary",
              text,
              true,
              new BenchmarkPlan.DecisionSource(
                  path,
                  decision.sha256(),
                  decision.seriesId(),
                  java.util.Objects.requireNonNullElse(decision.planSha256(), ""),
                  decision.analysisSha256(),
                  decision.loadPoint() == null ? "" : decision.loadPoint())));
    }
    int n = o.repetitions() == null ? 1 : o.repetitions();
    if (n < 1 || n > MAX_REPETITIONS) {
      log.block(
          BlockerCode.REPETITIONS_OUT_OF_RANGE,
          "--repetitions " + n + ": expected 1.." + MAX_REPETITIONS);
      return Optional.empty();
    }
    if (n > 1 && rationale == null) {
      log.block(
          BlockerCode.REPEAT_WITHOUT_RATIONALE,
          "--repetitions "
              + n
              + " without"
              + " --repeat-rationale: one measured run is the default; more runs need a recorded"
              + " reason why another run is necessary for a consequential decision and worth its GPU"
              + " cost (not merely to get confidence intervals)");
      return Optional.empty();
    }
    if (n == 1) {
      if (rationale != null) {
        log.warn(rule, "--repeat-rationale is ignored with one repetition");
      }
      log.decide(
          rule,
          "run_policy.repetitions = 1 (repeat_decision default)",
          "one measured run"
              + " per candidate by default; OOMs, error storms and wide SLO misses are valid at n = 1");
      return Optional.of(new BenchmarkPlan.RunPolicy(1, "default", null, false));
    }
    // n > 1 here, and more than one run without a rationale was blocked above
    log.decide(
        rule,
        "run_policy.repetitions = " + n + " (repeat_decision approved)",
        Objects.requireNonNull(rationale, "rationale"));
    return Optional.of(new BenchmarkPlan.RunPolicy(n, "approved", rationale, false));
  }
}
