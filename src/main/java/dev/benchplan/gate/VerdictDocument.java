package dev.benchplan.gate;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.benchplan.aiperf.export.ErrorCount;
import dev.benchplan.diagnostics.FindingLine;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The verdict document (schemas/verdict.schema.json: {@code verdict.json}, {@code gate --format
 * json}, the {@code verdict} of {@code run --format json}) as typed values; Jackson writes it only
 * at the file and output edges. Built from a {@link Verdict} by {@link #of(Verdict)}; the
 * components are in the document's key order.
 *
 * <p>Numbers are {@code BigInteger}s when integral and {@code BigDecimal}s without trailing zeros
 * otherwise ({@link Verdict.Decimals#number}), so both the canonical file and the printed output
 * show {@code 100}, never {@code 100.0}.
 *
 * @param schemaVersion always {@value Verdict#SCHEMA_VERSION}
 * @param verdict pass, fail, skip or error
 * @param message one line saying why
 * @param constraints one line per gated constraint
 * @param ignoredConstraints constraint names read but not gated, with the reason
 * @param constraintsSource where the constraints came from
 * @param requests request accounting and the error-rate check
 * @param warnings what the verdict rests on that a reader should know
 * @param findings what the diagnostics found
 * @param source the export the verdict was computed from
 * @param perRun the measured runs and the capacity; null (both keys absent) for a verdict on one
 *     export
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record VerdictDocument(
    String schemaVersion,
    String verdict,
    String message,
    List<ConstraintLine> constraints,
    List<String> ignoredConstraints,
    String constraintsSource,
    Requests requests,
    List<String> warnings,
    List<FindingLine> findings,
    VerdictSource source,
    @JsonUnwrapped @Nullable PerRun perRun) {

  /** The document of {@code v}. */
  public static VerdictDocument of(Verdict v) {
    return new VerdictDocument(
        Verdict.SCHEMA_VERSION,
        v.verdict().json(),
        v.message(),
        v.constraints().stream().map(ConstraintLine::of).toList(),
        v.ignored(),
        v.constraintsSource(),
        Requests.of(v.requests()),
        v.warnings(),
        v.findings().stream().map(FindingLine::of).toList(),
        v.source(),
        perRun(v.runs()));
  }

  private static @Nullable PerRun perRun(@Nullable RunVerdicts runs) {
    return runs == null ? null : PerRun.of(runs);
  }

  private static @Nullable Number orNull(@Nullable BigDecimal v) {
    return v == null ? null : Verdict.Decimals.number(v);
  }

  /** One gated constraint; thresholds and the measurement are in {@code unit}. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ConstraintLine(
      String name,
      String metric,
      String stat,
      String operator,
      Number threshold,
      Number tolerance,
      Number effectiveThreshold,
      @Nullable Number measured,
      String unit,
      @Nullable String exportUnit,
      String status,
      String message) {
    static ConstraintLine of(ConstraintResult c) {
      return new ConstraintLine(
          c.name(),
          c.metric(),
          c.stat(),
          c.operator().symbol(),
          Verdict.Decimals.number(c.threshold()),
          Verdict.Decimals.number(c.tolerance()),
          Verdict.Decimals.number(c.effectiveThreshold()),
          orNull(c.measured()),
          c.unit(),
          c.exportUnit(),
          c.status().json(),
          c.message());
    }
  }

  /** Request accounting: totals, the error rate and its check, and the kinds of error. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Requests(
      @Nullable Number total,
      Number errors,
      @Nullable Number errorRate,
      Number maxErrorRate,
      String status,
      List<ErrorLine> errorSummary) {
    static Requests of(RequestSummary r) {
      return new Requests(
          orNull(r.total()),
          Verdict.Decimals.number(r.errors()),
          orNull(r.errorRate()),
          Verdict.Decimals.number(r.maxErrorRate()),
          r.status().json(),
          r.errorSummary().stream().map(ErrorLine::of).toList());
    }
  }

  /** One kind of error AIPerf counted. */
  public record ErrorLine(
      @Nullable Integer code, @Nullable String type, @Nullable String message, long count) {
    static ErrorLine of(ErrorCount e) {
      return new ErrorLine(e.code(), e.type(), e.message(), e.count());
    }
  }

  /**
   * The per-run part of a verdict on several runs (unwrapped into the document: {@code runs} and
   * {@code capacity}, the latter null unless the runs cover more than one load point).
   */
  public record PerRun(List<RunLine> runs, @Nullable Capacity capacity) {
    static PerRun of(RunVerdicts r) {
      RunVerdicts.Capacity c = r.capacity();
      return new PerRun(
          r.runs().stream().map(RunLine::of).toList(), c == null ? null : Capacity.of(c));
    }
  }

  /** One measured run and its own verdict. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RunLine(
      @Nullable String loadPoint,
      @Nullable String parameter,
      @Nullable Integer repetition,
      String directory,
      String verdict,
      String message,
      List<ConstraintLine> constraints,
      Requests requests,
      List<String> warnings,
      VerdictSource source) {
    static RunLine of(RunVerdicts.Entry e) {
      VerdictDocument v = VerdictDocument.of(e.verdict());
      return new RunLine(
          e.loadPoint(),
          e.parameter(),
          e.repetition(),
          e.directory(),
          v.verdict(),
          v.message(),
          v.constraints(),
          v.requests(),
          v.warnings(),
          v.source());
    }
  }

  /** The capacity under the gates. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Capacity(
      @Nullable String loadPoint,
      @Nullable String parameter,
      List<String> loadPoints,
      String message) {
    static Capacity of(RunVerdicts.Capacity c) {
      return new Capacity(c.loadPoint(), c.parameter(), c.pointsTried(), c.message());
    }
  }
}
