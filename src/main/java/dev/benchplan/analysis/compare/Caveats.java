package dev.benchplan.analysis.compare;

import dev.benchplan.aiperf.export.AiperfInputConfig;
import dev.benchplan.analysis.audit.AuditCheck;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.stats.BootstrapPercentiles;
import dev.benchplan.diagnostics.Finding;
import dev.benchplan.diagnostics.FindingKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What qualifies a verdict row (issue 31, item 5), shown next to it in text, JSON, summary.md and
 * report.html rather than in side files: whether a percentile can be compared at all (the project's
 * estimability rule, {@code n x min(p, 1-p) >= 10} measured requests per run: p99 needs 1,000), a
 * steady state shorter than 8 x C measured requests, a warmup below C requests, the audit's
 * client-bound and time-slice findings, and a suspected stalled worker in a run (named).
 */
public final class Caveats {
  private static final Pattern PERCENTILE = Pattern.compile("p(\\d+(?:\\.\\d+)?)");
  private static final Pattern CONCURRENCY = Pattern.compile("concurrency=(\\d+(?:\\.0+)?)");

  private Caveats() {}

  /**
   * Why a percentile cannot be compared on these runs, or null when it can (or is not a
   * percentile): every run on both sides needs {@code n x min(p, 1-p) >= 10} measured requests.
   */
  public static @Nullable String notEstimable(
      MetricSpec spec, List<RunEvidence> reference, List<RunEvidence> candidate) {
    Matcher m = PERCENTILE.matcher(spec.stat());
    if (!m.matches()) {
      return null;
    }
    double p = Double.parseDouble(m.group(1));
    long minimum = BootstrapPercentiles.minimumSamples(p);
    long fewest = Long.MAX_VALUE;
    for (List<RunEvidence> side : List.of(reference, candidate)) {
      for (RunEvidence r : side) {
        long n = measured(r);
        fewest = n < 0 ? fewest : Math.min(fewest, n);
      }
    }
    if (fewest == Long.MAX_VALUE || fewest >= minimum) {
      return null;
    }
    return "not_estimable: "
        + spec.stat()
        + " needs "
        + String.format(Locale.ROOT, "%,d", minimum)
        + " measured requests per run (n x min(p, 1-p) >= 10); a run here has "
        + String.format(Locale.ROOT, "%,d", fewest)
        + ": no improved/regressed/no_change on it";
  }

  /** The caveats of a load point, from the runs of both sides there. */
  public static List<String> loadPoint(
      String loadPoint, List<RunEvidence> reference, List<RunEvidence> candidate) {
    List<String> out = new ArrayList<>();
    Matcher m = CONCURRENCY.matcher(loadPoint);
    List<RunEvidence> all = new ArrayList<>(reference);
    all.addAll(candidate);
    if (m.matches()) {
      long c = (long) Double.parseDouble(m.group(1));
      long fewest = all.stream().mapToLong(Caveats::measured).filter(n -> n >= 0).min().orElse(-1);
      if (fewest >= 0 && fewest < 8 * c) {
        out.add(
            "steady_state_short: "
                + fewest
                + " measured requests in a run, fewer than 8 x C = "
                + 8 * c
                + " (benchmarking/steady-state.md)");
      }
      long warmup = Long.MAX_VALUE;
      for (RunEvidence r : all) {
        Long w = AiperfInputConfig.read(r.inputConfig()).warmupRequestCount();
        warmup = w == null ? warmup : Math.min(warmup, w);
      }
      if (warmup != Long.MAX_VALUE && warmup < c) {
        out.add(
            "warmup_below_c: "
                + warmup
                + " warmup request(s) in a run, fewer than C = "
                + c
                + " (the measured phase starts before every slot is busy)");
      }
    }
    String bound = checkStatus(all, "client_bound");
    if (bound != null) {
      out.add(bound);
    }
    stalls("reference", reference, out);
    stalls("candidate", candidate, out);
    String copied = checkStatus(all, "provenance");
    if (copied != null && copied.startsWith("provenance_warn")) {
      out.add(copied);
    }
    String slices = checkStatus(all, "time_slices");
    if (slices != null && slices.startsWith("time_slices_warn")) {
      out.add(slices);
    }
    return List.copyOf(out);
  }

  /**
   * A suspected stalled worker in a run (benchmarking/stall-diagnosis.md), naming the side and run:
   * the verdict stands, but it rests on a run that may not describe the deployment.
   */
  private static void stalls(String side, List<RunEvidence> runs, List<String> out) {
    for (RunEvidence r : runs) {
      for (Finding f : r.findings()) {
        if (f.kind() == FindingKind.SUSPECTED_STALLED_WORKER) {
          out.add(
              "stall_found: "
                  + side
                  + " run "
                  + r.source().label()
                  + (f.run() == null ? "" : " (" + f.run() + ")")
                  + ": "
                  + f.message()
                  + " ("
                  + f.rule()
                  + ")");
        }
      }
    }
  }

  /** The worst status of an audit check over the runs, as a caveat; null when all passed. */
  private static @Nullable String checkStatus(List<RunEvidence> runs, String id) {
    String worst = null;
    String detail = null;
    for (RunEvidence r : runs) {
      for (AuditCheck c : r.audit().checks()) {
        if (!c.id().equals(id) || c.status().equals("pass")) {
          continue;
        }
        if (worst == null || rank(c.status()) > rank(worst)) {
          worst = c.status();
          detail = c.detail();
        }
      }
    }
    if (worst == null) {
      return null;
    }
    String label =
        id.equals("client_bound")
            ? (worst.equals("not_checked") ? "client_bound_not_judged" : "client_bound")
            : id + "_" + worst;
    return label + ": " + (detail == null ? worst : detail);
  }

  private static int rank(String status) {
    return switch (status) {
      case "fail" -> 3;
      case "warn" -> 2;
      default -> 1;
    };
  }

  /** Measured (successful, profiling-phase) requests of a run: its records, else its summary. */
  static long measured(RunEvidence r) {
    if (r.scan() != null && r.export() != null) {
      long summary = r.export().requestCount().map(java.math.BigDecimal::longValue).orElse(-1L);
      // records trimmed below the summary's count describe only those present
      return summary >= 0 ? Math.max(summary, r.scan().successes()) : r.scan().successes();
    }
    if (r.scan() != null) {
      return r.scan().successes();
    }
    return r.export() == null
        ? -1
        : r.export().requestCount().map(java.math.BigDecimal::longValue).orElse(-1L);
  }
}
