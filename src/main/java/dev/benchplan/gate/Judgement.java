package dev.benchplan.gate;

import dev.benchplan.rules.GateTolerance;
import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The judging both gates share, one export ({@link GateEvaluator}) and the median of repeats
 * ({@link MedianGate}): how a constraint result is recorded, how a measurement is said against its
 * threshold, how the error rate is judged, and how the results decide the verdict.
 */
final class Judgement {
  private Judgement() {}

  /**
   * One constraint's result at {@code tolerance}, with the effective threshold the constraint
   * computes; {@code measured} is null when nothing could be read (then the status is an error).
   */
  static ConstraintResult result(
      Constraint c,
      BigDecimal tolerance,
      @Nullable BigDecimal measured,
      String unit,
      @Nullable String exportUnit,
      Status status,
      String message) {
    return new ConstraintResult(
        c.name(),
        c.metric(),
        c.stat(),
        c.operator(),
        c.threshold(),
        tolerance,
        c.effectiveThreshold(tolerance),
        measured,
        unit,
        exportUnit,
        status,
        message);
  }

  /**
   * Adds one run's warning to an overall verdict's: labelled with the run, except the older plan's
   * tolerance note, which holds for every run and is said once.
   */
  static void addWarning(List<String> warnings, String label, String w) {
    if (!w.equals(GateTolerance.LEGACY_NOTE)) {
      warnings.add(label + ": " + w);
    } else if (!warnings.contains(w)) {
      warnings.add(w);
    }
  }

  /** A measurement against the effective threshold: {@code >=}, {@code is below}, … */
  static String relation(Constraint c, boolean met) {
    return c.operator() == Operator.GE ? (met ? ">=" : "is below") : (met ? "<=" : "is above");
  }

  /**
   * The error-rate check: skip when nothing is gated, an error when the rate is unknown, a fail
   * above {@code maxErrorRate} (inclusive boundary passes).
   */
  static Status errorRate(@Nullable BigDecimal rate, BigDecimal maxErrorRate, boolean gated) {
    if (!gated) {
      return Status.SKIP;
    }
    if (rate == null) {
      return Status.ERROR;
    }
    return rate.compareTo(maxErrorRate) > 0 ? Status.FAIL : Status.PASS;
  }

  /**
   * What gated results decide: error outranks fail, fail outranks pass, the error-rate check counts
   * as one more result.
   */
  static Status decide(List<ConstraintResult> results, RequestSummary requests) {
    if (results.stream().anyMatch(r -> r.status() == Status.ERROR)
        || requests.status() == Status.ERROR) {
      return Status.ERROR;
    }
    if (results.stream().anyMatch(r -> r.status() == Status.FAIL)
        || requests.status() == Status.FAIL) {
      return Status.FAIL;
    }
    return Status.PASS;
  }

  /** The messages of the results with status {@code which}, joined by "; ". */
  static String messages(List<ConstraintResult> results, Status which) {
    return results.stream()
        .filter(r -> r.status() == which)
        .map(ConstraintResult::message)
        .collect(Collectors.joining("; "));
  }
}
