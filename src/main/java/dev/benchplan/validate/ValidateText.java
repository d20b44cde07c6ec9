package dev.benchplan.validate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/** The human summary of a verdict document ({@code --format text}). */
public final class ValidateText {
  private ValidateText() {}

  /** A few lines: verdict, what was measured, each constraint, where the reports are. */
  public static List<String> lines(JsonNode doc) {
    List<String> out = new ArrayList<>();
    String verdict = JsonFields.string(doc.path("verdict"));
    out.add("verdict: " + verdict + " (exit " + doc.path("exit_code").asInt() + ")"
        + (doc.path("failed_step").isString() ? " at step " + doc.path("failed_step").stringValue() : ""));
    if (doc.path("reason").isString()) {
      out.add("reason: " + doc.path("reason").stringValue());
    }
    JsonNode t = doc.path("target");
    if (t.isObject()) {
      out.add("target: " + JsonFields.string(t.path("origin")) + " DGD " + JsonFields.string(t.path("namespace"))
          + "/" + JsonFields.string(t.path("dgd")) + ", Service " + JsonFields.string(t.path("service")) + ":"
          + t.path("port").asInt() + ", model " + JsonFields.string(t.path("model")) + " ("
          + JsonFields.string(t.path("model_source")) + "), " + t.path("workers").asInt() + " worker(s)");
    }
    JsonNode b = doc.path("benchmark");
    if (b.isObject()) {
      out.add("load: concurrency " + b.path("concurrency").asInt() + " (" + b.path("concurrency_per_worker").asInt()
          + " x " + b.path("workers").asInt() + "), " + b.path("request_count").asInt() + " requests, ISL/OSL "
          + b.path("isl").asInt() + "/" + b.path("osl").asInt()
          + (b.path("aiperf_version").isString() ? ", AIPerf " + b.path("aiperf_version").stringValue() : ""));
    }
    for (JsonNode c : doc.path("constraints").values()) {
      JsonNode m = c.path("measured");
      out.add(JsonFields.string(c.path("name")) + ": " + (m.isNumber() ? format(m.asDouble()) + " "
          + JsonFields.string(c.path("unit")) : "not measured") + " (" + JsonFields.string(c.path("operator")) + " "
          + format(c.path("threshold").asDouble()) + ", effective " + format(c.path("effective_threshold").asDouble())
          + "): " + JsonFields.string(c.path("status")));
    }
    JsonNode reports = doc.path("reports");
    if (reports.isObject()) {
      out.add("reports: " + JsonFields.string(reports.path("verdict")) + ", "
          + JsonFields.string(reports.path("ctrf")) + ", " + JsonFields.string(reports.path("junit")));
    }
    return out;
  }

  private static String format(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return String.format(Locale.ROOT, "%.1f", d);
  }
}
