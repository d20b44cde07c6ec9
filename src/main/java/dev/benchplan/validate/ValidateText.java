package dev.benchplan.validate;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** The human summary of a verdict ({@code --format text}). */
public final class ValidateText {
  private ValidateText() {}

  /** A few lines: verdict, what was measured, each constraint, where the reports are. */
  public static List<String> lines(ValidateVerdict doc) {
    List<String> out = new ArrayList<>();
    out.add(
        "verdict: "
            + doc.verdict()
            + " (exit "
            + doc.exitCode()
            + ")"
            + (doc.failedStep() == null ? "" : " at step " + doc.failedStep()));
    if (doc.reason() != null) {
      out.add("reason: " + doc.reason());
    }
    ValidateVerdict.Target t = doc.target();
    if (t != null) {
      out.add(
          "target: "
              + t.origin()
              + " DGD "
              + t.namespace()
              + "/"
              + t.dgd()
              + ", Service "
              + t.service()
              + ":"
              + t.port()
              + ", model "
              + t.model()
              + " ("
              + t.modelSource()
              + "), "
              + t.workers()
              + " worker(s)");
    }
    ValidateVerdict.Benchmark b = doc.benchmark();
    if (b != null) {
      out.add(
          "load: concurrency "
              + b.concurrency()
              + " ("
              + b.concurrencyBasis()
              + "), "
              + b.requestCount()
              + " requests, ISL/OSL "
              + b.isl()
              + "/"
              + b.osl()
              + (b.aiperfVersion() == null ? "" : ", AIPerf " + b.aiperfVersion()));
    }
    ValidateVerdict.Measured m = doc.measured();
    if (m != null && m.outputTokenThroughputPerGpu() != null) {
      out.add(
          "per GPU: "
              + format(m.outputTokenThroughputPerGpu())
              + " tokens/sec over "
              + m.gpuCount()
              + " GPU(s) ("
              + m.gpuCountSource()
              + ")");
    }
    if (doc.floorScaling() != null) {
      ValidateVerdict.FloorScaling f = doc.floorScaling();
      out.add(
          "throughput floor "
              + format(f.floor())
              + " scaled to "
              + format(f.scaledFloor())
              + " (free/node GPUs "
              + f.freeGpus()
              + "/"
              + f.nodeGpus()
              + " on "
              + f.node()
              + ")");
    }
    for (ValidateVerdict.ConstraintLine c : doc.constraints()) {
      out.add(
          c.name()
              + ": "
              + (c.measured() == null ? "not measured" : format(c.measured()) + " " + c.unit())
              + " ("
              + c.operator()
              + " "
              + format(c.threshold())
              + ", effective "
              + format(c.effectiveThreshold())
              + "): "
              + c.status());
    }
    ValidateVerdict.Repeats rep = doc.repeats();
    if (rep != null) {
      out.add(
          "repeats: "
              + rep.count()
              + ", gated on the median"
              + (rep.unstable()
                  ? ", UNSTABLE: " + String.join("; ", rep.disagreements())
                  : ", stable"));
      for (ValidateVerdict.Repeat r : rep.runs()) {
        out.add(
            "  "
                + r.run()
                + ": "
                + r.verdict()
                + " ("
                + String.join(
                    ", ",
                    r.constraints().stream()
                        .map(
                            c ->
                                c.name()
                                    + " "
                                    + (c.measured() == null
                                        ? "not measured"
                                        : format(c.measured()) + " " + c.unit()))
                        .toList())
                + ")");
      }
    }
    if (doc.findings() != null) {
      for (dev.benchplan.diagnostics.FindingLine f : doc.findings()) {
        out.add("finding: " + f.kind() + " (" + f.severity() + "): " + f.message());
        out.add("  recommendation: " + f.recommendation());
      }
    }
    if (doc.warnings() != null) {
      doc.warnings().forEach(w -> out.add("warning: " + w));
    }
    ValidateVerdict.Reports reports = doc.reports();
    if (reports != null) {
      out.add("reports: " + reports.verdict() + ", " + reports.ctrf() + ", " + reports.junit());
    }
    return out;
  }

  /** Whole numbers as written, others to one decimal. */
  private static String format(BigDecimal d) {
    BigDecimal s = d.stripTrailingZeros();
    if (s.scale() <= 0) {
      return s.toPlainString();
    }
    return d.setScale(1, RoundingMode.HALF_EVEN).toPlainString();
  }
}
