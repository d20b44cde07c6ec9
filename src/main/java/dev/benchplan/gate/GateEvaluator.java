package dev.benchplan.gate;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.MetricSummary;
import dev.benchplan.aiperf.export.MetricUnit;
import dev.benchplan.diagnostics.Finding;
import dev.benchplan.diagnostics.FindingKind;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.gate.Verdict.Decimals;
import dev.benchplan.rules.PercentileSamples;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Applies constraints to an AIPerf export and decides pass, fail, skip or error.
 *
 * <p>Rules: no constraint: skip. A cancelled run, a gated metric or statistic that is absent, or an
 * export without a request count: error (never a pass). A metric whose unit benchplan does not
 * know, or whose unit cannot be compared with the constraint's: invalid input (exit 2). Otherwise
 * each constraint passes when the measurement meets its threshold after tolerance (inclusive
 * boundary), and the share of failed requests must not exceed the maximum error rate. Error
 * outranks fail, fail outranks pass.
 */
public final class GateEvaluator {
  private GateEvaluator() {}

  /** Evaluates an export against constraints. */
  public static Verdict evaluate(AiperfExport export, ConstraintSet set, GateOptions options) {
    List<ConstraintResult> results = new ArrayList<>();
    for (Constraint c : set.constraints()) {
      results.add(evaluate(export, c, c.toleranceUnder(options)));
    }
    RequestSummary requests = requests(export, options, !set.isEmpty());
    VerdictSource source = VerdictSource.of(export);

    Status status;
    String message;
    if (export.wasCancelled()) {
      status = Status.ERROR;
      message =
          "error: the AIPerf run was cancelled (was_cancelled: true in "
              + export.path()
              + "); its numbers are not a complete measurement";
    } else if (set.isEmpty() && requests(export, options, true).status() == Status.FAIL) {
      // the error-rate check applies with or without gates: such a run is not valid evidence
      requests = requests(export, options, true);
      status = Status.FAIL;
      message =
          "fail: "
              + problems(results, requests, Status.FAIL)
              + " — the error-rate check"
              + " applies even with no constraints: a run above the limit is not valid evidence";
    } else if (set.isEmpty()) {
      status = Status.SKIP;
      message = "skip: no constraints to gate on (" + set.source() + ")";
    } else {
      status = Judgement.decide(results, requests);
      message =
          status != Status.PASS
              ? status.json() + ": " + problems(results, requests, status)
              : "pass: "
                  + results.size()
                  + " of "
                  + results.size()
                  + " constraints met; "
                  + Decimals.human(requests.errors())
                  + " of "
                  + Decimals.human(requests.total())
                  + " requests failed (max "
                  + Decimals.percent(options.maxErrorRate())
                  + ")";
    }
    return new Verdict(
        status,
        message,
        results,
        set.ignored(),
        set.source(),
        requests,
        source,
        withToleranceNotes(set, sampleWarnings(export, results)));
  }

  /**
   * {@code warnings} and, once each, what the constraints' tolerances need said (an older plan's
   * gates are judged with 10%, as they were run).
   */
  static List<String> withToleranceNotes(ConstraintSet set, List<String> warnings) {
    List<String> out = new ArrayList<>(warnings);
    set.constraints().stream()
        .map(Constraint::toleranceNote)
        .filter(java.util.Objects::nonNull)
        .distinct()
        .forEach(out::add);
    return out;
  }

  /**
   * The percentile sample rule (concurrency-grid.md, {@link PercentileSamples}, the same rule
   * {@code plan} enforces): a measured percentile on fewer than 100 requests, or with fewer than 10
   * beyond it, is a warning giving the count. Nothing to say when the count is unknown.
   */
  static List<String> sampleWarnings(AiperfExport export, List<ConstraintResult> results) {
    Optional<BigDecimal> count = export.requestCount();
    List<String> out = new ArrayList<>();
    if (count.isEmpty()) {
      return out;
    }
    long n = count.get().setScale(0, java.math.RoundingMode.FLOOR).longValue();
    for (ConstraintResult r : results) {
      if (r.measured() == null) {
        continue;
      }
      PercentileSamples.assess(r.stat(), n)
          .filter(a -> a.level() != PercentileSamples.Level.OK)
          .ifPresent(a -> out.add(a.warning("constraint " + r.name())));
    }
    return out;
  }

  /**
   * The verdict with the diagnostics' findings. A suspected stalled worker (or any other warning)
   * leaves it as it is. A client-bound run is not a measurement of the deployment: the verdict
   * becomes an error naming the load generator and the fix (exit 3), never a gate failure; its
   * constraint results are kept for the record.
   */
  public static Verdict withFindings(Verdict v, List<Finding> findings) {
    if (findings.isEmpty()) {
      return v;
    }
    List<Finding> all = new ArrayList<>(v.findings());
    all.addAll(findings);
    Optional<Finding> bound =
        findings.stream().filter(f -> f.kind() == FindingKind.CLIENT_BOUND).findFirst();
    if (bound.isEmpty()) {
      return v.withFindings(all);
    }
    Finding f = bound.get();
    String message =
        "error: "
            + (f.run() == null ? "" : f.run() + ": ")
            + f.message()
            + ". Fix: "
            + f.recommendation()
            + " ("
            + "agent-docs/rules/"
            + f.rule()
            + ")"
            + (v.verdict() == Status.ERROR ? "; also " + v.message() : "");
    return v.withFindings(all).withDecision(Status.ERROR, message);
  }

  /**
   * An error verdict for a run that produced no usable export (AIPerf failed, no summary in the
   * log, Job failed): every constraint is an error carrying {@code reason}; a run with no
   * constraints is still an error, because the run itself failed.
   */
  public static Verdict runFailed(
      @Nullable String reason, ConstraintSet set, GateOptions options, VerdictSource source) {
    List<ConstraintResult> results = new ArrayList<>();
    for (Constraint c : set.constraints()) {
      MetricUnit unit = c.unit();
      results.add(
          Judgement.result(
              c,
              c.toleranceUnder(options),
              null,
              unit == null ? "(unit of " + c.metric() + ")" : unit.text(),
              null,
              Status.ERROR,
              c.name() + ": not measured: " + firstLine(reason)));
    }
    RequestSummary requests =
        new RequestSummary(
            null, BigDecimal.ZERO, null, options.maxErrorRate(), Status.ERROR, List.of());
    return new Verdict(
        Status.ERROR,
        "error: " + reason,
        results,
        set.ignored(),
        set.source(),
        requests,
        source,
        withToleranceNotes(set, List.of()));
  }

  private static ConstraintResult evaluate(
      AiperfExport export, Constraint c, BigDecimal tolerance) {
    BigDecimal effective = c.effectiveThreshold(tolerance);
    Optional<MetricSummary> metric = export.metric(c.metric());
    if (metric.isEmpty()) {
      export
          .notMetric(c.metric())
          .ifPresent(
              found -> {
                throw BenchplanException.invalid(
                    ErrorLocation.pointer(export.path(), "").child(c.metric()),
                    export.path()
                        + ": "
                        + found
                        + ": expected a metric object"
                        + " {\"unit\": ..., \""
                        + c.stat()
                        + "\": <number>} for constraint "
                        + c.name());
              });
      String why =
          c.metric().equals("time_to_first_token") || c.metric().equals("inter_token_latency")
              ? " (AIPerf reports it only for streaming runs)"
              : "";
      return missing(c, tolerance, null, c.metric() + " is absent from the export" + why);
    }
    MetricSummary m = metric.get();
    MetricUnit exportUnit =
        m.parsedUnit()
            .orElseThrow(
                () ->
                    BenchplanException.invalid(
                        ErrorLocation.pointer(export.path(), m.pointer() + "/unit"),
                        export.path()
                            + ": "
                            + m.pointer()
                            + "/unit: unknown unit '"
                            + m.unit()
                            + "' for "
                            + c.metric()
                            + ": expected a duration (ns, us, ms, s) or a rate (tokens/sec, requests/sec); not guessing"));
    MetricUnit unit = c.unit() == null ? MetricUnit.canonical(exportUnit.dimension()) : c.unit();
    if (!exportUnit.compatibleWith(unit)) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(export.path(), m.pointer() + "/unit"),
          export.path()
              + ": "
              + m.pointer()
              + "/unit: "
              + c.metric()
              + " is in '"
              + m.unit()
              + "', which cannot be compared with constraint "
              + c.name()
              + " in '"
              + unit.text()
              + "' ("
              + c.origin()
              + ")");
    }
    Optional<BigDecimal> raw = m.stat(c.stat());
    if (raw.isEmpty()) {
      return missing(
          c,
          tolerance,
          m.unit(),
          c.metric()
              + "."
              + c.stat()
              + " is absent or null in the export ("
              + m.pointer()
              + "/"
              + c.stat()
              + ")");
    }
    BigDecimal measured = exportUnit.convert(raw.get(), unit);
    boolean met = c.isMetBy(measured, tolerance);
    String rel = Judgement.relation(c, met);
    String slack =
        tolerance.signum() == 0
            ? "no tolerance"
            : Decimals.human(c.threshold())
                + " "
                + (c.operator() == Operator.GE ? "-" : "+")
                + Decimals.percent(tolerance);
    String message =
        c.name()
            + ": "
            + c.metric()
            + " "
            + c.stat()
            + " "
            + Decimals.human(measured)
            + " "
            + unit.text()
            + " "
            + rel
            + " "
            + Decimals.human(effective)
            + " ("
            + slack
            + ")";
    return Judgement.result(
        c, tolerance, measured, unit.text(), m.unit(), met ? Status.PASS : Status.FAIL, message);
  }

  private static ConstraintResult missing(
      Constraint c, BigDecimal tolerance, @Nullable String exportUnit, String why) {
    String unit =
        c.unit() != null
            ? c.unit().text()
            : Optional.ofNullable(exportUnit)
                .flatMap(MetricUnit::parse)
                .map(u -> u.dimension().canonical())
                .orElse("(unit of " + c.metric() + ")");
    return Judgement.result(
        c, tolerance, null, unit, exportUnit, Status.ERROR, c.name() + ": " + why);
  }

  private static RequestSummary requests(AiperfExport export, GateOptions options, boolean gated) {
    BigDecimal errors = export.errorRequestCount();
    Optional<BigDecimal> ok = export.requestCount();
    BigDecimal total = ok.map(n -> n.add(errors)).orElse(errors.signum() > 0 ? errors : null);
    BigDecimal rate =
        total == null || total.signum() == 0 ? null : errors.divide(total, MathContext.DECIMAL64);
    return new RequestSummary(
        total,
        errors,
        rate,
        options.maxErrorRate(),
        Judgement.errorRate(rate, options.maxErrorRate(), gated),
        export.errorSummary());
  }

  private static String problems(
      List<ConstraintResult> results, RequestSummary requests, Status which) {
    List<String> out = new ArrayList<>();
    if (results.stream().anyMatch(r -> r.status() == which)) {
      out.add(Judgement.messages(results, which));
    }
    if (requests.status() == which) {
      out.add(
          which == Status.ERROR
              ? "the export has no request_count: the error rate cannot be computed"
              : "request error rate "
                  + Decimals.percent(requests.errorRate())
                  + " ("
                  + Decimals.human(requests.errors())
                  + " of "
                  + Decimals.human(requests.total())
                  + " requests failed) is above the maximum "
                  + Decimals.percent(requests.maxErrorRate())
                  + errorKinds(requests));
    }
    return String.join("; ", out);
  }

  private static String errorKinds(RequestSummary requests) {
    if (requests.errorSummary().isEmpty()) {
      return "";
    }
    return " ["
        + requests.errorSummary().stream()
            .limit(3)
            .map(Object::toString)
            .collect(Collectors.joining(", "))
        + "]";
  }

  private static String firstLine(@Nullable String s) {
    if (s == null) {
      return "no reason given";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
