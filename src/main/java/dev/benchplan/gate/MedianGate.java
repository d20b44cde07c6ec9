package dev.benchplan.gate;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.gate.Verdict.Decimals;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The gate over several measurements of one configuration ({@code validate --repeats N}): every
 * repeat is gated on its own, then each gated metric's MEDIAN across the repeats is gated (an even
 * count takes the mean of the two middle values), and the error rate over all their requests. The
 * exit code follows the median's verdict. Repeats that disagree on a gate (one passes a constraint
 * another fails) make the result unstable: said in the verdict's warnings, never a change of
 * verdict.
 */
public final class MedianGate {
  private MedianGate() {}

  /** One repeat's export and a label for it (e.g. {@code run_0002}). */
  public record Repeat(String label, AiperfExport export) {
    public Repeat {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(export, "export");
    }
  }

  /**
   * The median verdict, each repeat's own verdict, and whether they disagree.
   *
   * @param median the verdict on the medians (its exit code is the gate's)
   * @param repeats each repeat's label and verdict, in order
   * @param unstable repeats disagree on a gate
   * @param disagreements each constraint (or the error-rate check) the repeats disagree on, with
   *     who passed and who failed
   */
  public record Result(
      Verdict median, List<Labeled> repeats, boolean unstable, List<String> disagreements) {
    public Result {
      repeats = List.copyOf(repeats);
      disagreements = List.copyOf(disagreements);
    }
  }

  /** A repeat's verdict with its label. */
  public record Labeled(String label, Verdict verdict) {}

  /** Gates the repeats and their medians. */
  public static Result evaluate(List<Repeat> repeats, ConstraintSet set, GateOptions options) {
    if (repeats.isEmpty()) {
      throw new IllegalArgumentException("no repeat to gate");
    }
    List<Labeled> each = new ArrayList<>();
    for (Repeat r : repeats) {
      each.add(new Labeled(r.label(), GateEvaluator.evaluate(r.export(), set, options)));
    }
    int n = repeats.size();
    List<ConstraintResult> results = new ArrayList<>();
    List<String> disagreements = new ArrayList<>();
    for (int i = 0; i < set.constraints().size(); i++) {
      Constraint c = set.constraints().get(i);
      List<BigDecimal> values = new ArrayList<>();
      List<String> pass = new ArrayList<>();
      List<String> fail = new ArrayList<>();
      List<String> missing = new ArrayList<>();
      ConstraintResult first = each.get(0).verdict().constraints().get(i);
      for (Labeled l : each) {
        ConstraintResult r = l.verdict().constraints().get(i);
        if (r.measured() == null) {
          missing.add(l.label());
        } else {
          values.add(r.measured());
          first = first.measured() == null ? r : first;
        }
        (r.status() == Status.PASS ? pass : r.status() == Status.FAIL ? fail : missing)
            .add(l.label());
      }
      if (!pass.isEmpty() && !fail.isEmpty()) {
        disagreements.add(
            c.name()
                + ": pass in "
                + String.join(", ", pass)
                + "; fail in "
                + String.join(", ", fail));
      }
      BigDecimal tolerance = c.toleranceUnder(options);
      BigDecimal effective = c.effectiveThreshold(tolerance);
      if (!missing.isEmpty()) {
        results.add(
            Judgement.result(
                c,
                tolerance,
                null,
                first.unit(),
                first.exportUnit(),
                Status.ERROR,
                c.name()
                    + ": no median: not measured in "
                    + String.join(", ", new LinkedHashSet<>(missing))));
        continue;
      }
      BigDecimal median = median(values);
      boolean met = c.isMetBy(median, tolerance);
      String rel = Judgement.relation(c, met);
      String message =
          c.name()
              + ": median of "
              + n
              + " repeats, "
              + c.metric()
              + " "
              + c.stat()
              + " "
              + Decimals.human(median)
              + " "
              + first.unit()
              + " "
              + rel
              + " "
              + Decimals.human(effective)
              + " (repeats: "
              + values.stream().map(Decimals::human).collect(Collectors.joining(", "))
              + ")";
      results.add(
          Judgement.result(
              c,
              tolerance,
              median,
              first.unit(),
              first.exportUnit(),
              met ? Status.PASS : Status.FAIL,
              message));
    }
    RequestSummary requests = requests(each, options, !set.isEmpty());
    List<String> reqPass = new ArrayList<>();
    List<String> reqFail = new ArrayList<>();
    for (Labeled l : each) {
      Status s = l.verdict().requests().status();
      (s == Status.FAIL ? reqFail : reqPass).add(l.label());
    }
    if (!reqFail.isEmpty() && !reqPass.isEmpty()) {
      disagreements.add(
          "request-error-rate: within the maximum in "
              + String.join(", ", reqPass)
              + "; above it in "
              + String.join(", ", reqFail));
    }
    List<String> cancelled =
        each.stream().filter(l -> l.verdict().source().wasCancelled()).map(Labeled::label).toList();
    Status status;
    String message;
    if (!cancelled.isEmpty()) {
      status = Status.ERROR;
      message =
          "error: repeat(s) "
              + String.join(", ", cancelled)
              + " were cancelled; their numbers are not a"
              + " complete measurement";
    } else if (set.isEmpty()) {
      status = requests.status() == Status.FAIL ? Status.FAIL : Status.SKIP;
      message =
          status == Status.FAIL
              ? "fail: the request error rate over " + n + " repeats is above the maximum"
              : "skip: no constraints to gate on (" + set.source() + ")";
    } else if (Judgement.decide(results, requests) == Status.ERROR) {
      status = Status.ERROR;
      message =
          "error: "
              + Judgement.messages(results, Status.ERROR)
              + (requests.status() == Status.ERROR ? "; a repeat has no request_count" : "");
    } else if (Judgement.decide(results, requests) == Status.FAIL) {
      status = Status.FAIL;
      message =
          "fail: "
              + Judgement.messages(results, Status.FAIL)
              + (requests.status() == Status.FAIL
                  ? (results.stream().anyMatch(r -> r.status() == Status.FAIL) ? "; " : "")
                      + "request error rate "
                      + Decimals.percent(requests.errorRate())
                      + " over "
                      + n
                      + " repeats is above the maximum "
                      + Decimals.percent(requests.maxErrorRate())
                  : "");
    } else {
      status = Status.PASS;
      message =
          "pass: the median of "
              + n
              + " repeats meets "
              + results.size()
              + " of "
              + results.size()
              + " constraints";
    }
    if (!disagreements.isEmpty()) {
      message += " (unstable: the repeats disagree)";
    }
    List<String> warnings = new ArrayList<>();
    if (!disagreements.isEmpty()) {
      warnings.add(
          "unstable: the "
              + n
              + " repeats disagree on a gate ("
              + String.join("; ", disagreements)
              + "); the verdict follows the median");
    }
    for (Labeled l : each) {
      for (String w : l.verdict().warnings()) {
        Judgement.addWarning(warnings, l.label(), w);
      }
    }
    Verdict v0 = each.get(0).verdict();
    VerdictSource source =
        new VerdictSource(
            "median of "
                + n
                + " repeats: "
                + each.stream()
                    .map(l -> l.verdict().source().path())
                    .collect(Collectors.joining(", ")),
            null,
            v0.source().aiperfVersion(),
            null,
            null,
            !cancelled.isEmpty());
    Verdict median =
        new Verdict(
            status, message, results, set.ignored(), set.source(), requests, source, warnings);
    return new Result(median, each, !disagreements.isEmpty(), disagreements);
  }

  /** The median of values (the mean of the two middle ones for an even count). */
  static BigDecimal median(List<BigDecimal> values) {
    List<BigDecimal> v = values.stream().sorted().toList();
    int n = v.size();
    return n % 2 == 1
        ? v.get(n / 2)
        : v.get(n / 2 - 1).add(v.get(n / 2)).divide(BigDecimal.valueOf(2), MathContext.DECIMAL64);
  }

  private static RequestSummary requests(List<Labeled> each, GateOptions options, boolean gated) {
    BigDecimal total = BigDecimal.ZERO;
    BigDecimal errors = BigDecimal.ZERO;
    boolean unknown = false;
    List<dev.benchplan.aiperf.export.ErrorCount> kinds = new ArrayList<>();
    for (Labeled l : each) {
      RequestSummary r = l.verdict().requests();
      errors = errors.add(r.errors());
      kinds.addAll(r.errorSummary());
      if (r.total() == null) {
        unknown = true;
      } else {
        total = total.add(r.total());
      }
    }
    BigDecimal rate =
        unknown || total.signum() == 0 ? null : errors.divide(total, MathContext.DECIMAL64);
    Status status = Judgement.errorRate(rate, options.maxErrorRate(), gated);
    if (!gated && rate != null && rate.compareTo(options.maxErrorRate()) > 0) {
      status = Status.FAIL; // the error-rate check applies with or without gates
    }
    return new RequestSummary(
        unknown ? null : total, errors, rate, options.maxErrorRate(), status, kinds);
  }
}
