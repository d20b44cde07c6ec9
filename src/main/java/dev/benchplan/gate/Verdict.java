package dev.benchplan.gate;

import dev.benchplan.diagnostics.Finding;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The gate's decision and everything it rests on. {@link #document()} is the document
 * schemas/verdict.schema.json describes ({@code verdict.json}, {@code gate --format json}).
 *
 * @param verdict pass, fail, skip or error
 * @param message one line saying why
 * @param constraints one result per gated constraint
 * @param ignored constraint names read but not gated, with the reason
 * @param constraintsSource where the constraints came from
 * @param requests request accounting and the error-rate check
 * @param source the export the verdict was computed from
 * @param warnings what the verdict rests on that a reader should know, e.g. a percentile on too few
 *     requests (they never change the verdict)
 * @param runs the verdict of every measured run and the capacity under the gates, when the verdict
 *     covers an artifact tree of several runs (or a run's tree); null for a single export
 * @param findings what the diagnostics found in the per-request records and AIPerf's log (a
 *     suspected stalled worker never changes the verdict; a client-bound run makes it an error:
 *     {@link GateEvaluator#withFindings})
 */
public record Verdict(
    Status verdict,
    String message,
    List<ConstraintResult> constraints,
    List<String> ignored,
    String constraintsSource,
    RequestSummary requests,
    VerdictSource source,
    List<String> warnings,
    @Nullable RunVerdicts runs,
    List<Finding> findings) {

  /** The verdict document's schema version. */
  public static final String SCHEMA_VERSION = "1";

  /** A verdict on one export (no per-run breakdown, no findings). */
  public Verdict(
      Status verdict,
      String message,
      List<ConstraintResult> constraints,
      List<String> ignored,
      String constraintsSource,
      RequestSummary requests,
      VerdictSource source,
      List<String> warnings) {
    this(
        verdict,
        message,
        constraints,
        ignored,
        constraintsSource,
        requests,
        source,
        warnings,
        null,
        List.of());
  }

  /** This verdict with the per-run breakdown {@code runs}. */
  public Verdict withRuns(RunVerdicts runs) {
    return copy(verdict, message, runs, findings);
  }

  /** This verdict with {@code findings} in place of its own. */
  public Verdict withFindings(List<Finding> findings) {
    return copy(verdict, message, runs, findings);
  }

  /** This verdict decided otherwise: {@code verdict} for the reason {@code message}. */
  public Verdict withDecision(Status verdict, String message) {
    return copy(verdict, message, runs, findings);
  }

  // the one place a verdict is derived from another: what it rests on stays
  private Verdict copy(
      Status verdict, String message, @Nullable RunVerdicts runs, List<Finding> findings) {
    return new Verdict(
        verdict,
        message,
        constraints,
        ignored,
        constraintsSource,
        requests,
        source,
        warnings,
        runs,
        findings);
  }

  public Verdict {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    findings = findings == null ? List.of() : List.copyOf(findings);
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(message, "message");
    constraints = List.copyOf(constraints);
    ignored = List.copyOf(ignored);
    Objects.requireNonNull(constraintsSource, "constraintsSource");
    Objects.requireNonNull(requests, "requests");
    Objects.requireNonNull(source, "source");
    if (verdict == Status.PASS
        && (constraints.isEmpty()
            || constraints.stream().anyMatch(c -> c.status() != Status.PASS))) {
      throw new IllegalArgumentException("a pass needs constraints, all of them met");
    }
  }

  /** The exit code of this verdict: 0 pass/skip, 1 fail, 3 error. */
  public int exitCode() {
    return verdict.exitCode();
  }

  /** The verdict document (schemas/verdict.schema.json), for Jackson to write at the edge. */
  public VerdictDocument document() {
    return VerdictDocument.of(this);
  }

  /** Decimal formatting shared by the verdict and its reports. */
  static final class Decimals {
    private Decimals() {}

    /**
     * A JSON number in plain notation: integral values as integers, others without trailing zeros.
     */
    static Number number(BigDecimal v) {
      BigDecimal s = v.stripTrailingZeros();
      return s.scale() <= 0 ? s.toBigIntegerExact() : s;
    }

    /** A short human form: at most 6 significant digits, plain notation. */
    static String human(@Nullable BigDecimal v) {
      if (v == null) {
        return "n/a";
      }
      BigDecimal r =
          v.abs().compareTo(new BigDecimal("1000000")) >= 0
              ? v.setScale(0, java.math.RoundingMode.HALF_EVEN)
              : v.round(new java.math.MathContext(6));
      return r.stripTrailingZeros().toPlainString();
    }

    /** A fraction as a percentage, e.g. 0.10 -> "10%". */
    static String percent(@Nullable BigDecimal fraction) {
      return fraction == null ? human(null) : human(fraction.movePointRight(2)) + "%";
    }
  }
}
