package dev.benchplan.validate;

import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a validate verdict as {@code verdict.json}, {@code ctrf-report.json} (one test named
 * {@code inference-perf}, as AICR reports its check) and {@code junit.xml}, all three or none.
 */
public final class ValidateReports {
  /** The CTRF/JUnit test name (AICR's check name). */
  public static final String TEST_NAME = "inference-perf";
  /** File names. */
  public static final String VERDICT = "verdict.json";
  public static final String CTRF = "ctrf-report.json";
  public static final String JUNIT = "junit.xml";

  private ValidateReports() {}

  /** Writes the three reports into {@code dir}; returns their paths by name. */
  public static Map<String, Path> write(Path dir, ObjectNode verdict, String toolVersion) {
    Map<String, Path> paths = new LinkedHashMap<>();
    paths.put("verdict", dir.resolve(VERDICT));
    paths.put("ctrf", dir.resolve(CTRF));
    paths.put("junit", dir.resolve(JUNIT));
    ObjectNode reports = verdict.putObject("reports");
    paths.forEach((k, v) -> reports.put(k, v.toAbsolutePath().toString()));
    Map<Path, byte[]> files = new LinkedHashMap<>();
    files.put(paths.get("verdict"), (Json.JSON.writeValueAsString(verdict) + "\n").getBytes(StandardCharsets.UTF_8));
    files.put(paths.get("ctrf"), (Json.JSON.writeValueAsString(ctrf(verdict, toolVersion)) + "\n")
        .getBytes(StandardCharsets.UTF_8));
    files.put(paths.get("junit"), junit(verdict).getBytes(StandardCharsets.UTF_8));
    AtomicFiles.writeAll(files);
    return paths;
  }

  /** The CTRF document: one test, {@code inference-perf}. */
  public static ObjectNode ctrf(JsonNode verdict, String toolVersion) {
    long start = millis(verdict.path("started_at"));
    long stop = millis(verdict.path("finished_at"));
    String status = ctrfStatus(JsonFields.string(verdict.path("verdict")));
    ObjectNode root = Json.JSON.createObjectNode();
    ObjectNode results = root.putObject("results");
    ObjectNode tool = results.putObject("tool");
    tool.put("name", "benchplan");
    if (toolVersion != null) {
      tool.put("version", toolVersion);
    }
    ObjectNode summary = results.putObject("summary");
    summary.put("tests", 1);
    summary.put("passed", status.equals("passed") ? 1 : 0);
    summary.put("failed", status.equals("failed") ? 1 : 0);
    summary.put("skipped", status.equals("skipped") ? 1 : 0);
    summary.put("pending", 0);
    summary.put("other", 0);
    summary.put("start", start);
    summary.put("stop", stop);
    ArrayNode tests = results.putArray("tests");
    ObjectNode test = tests.addObject();
    test.put("name", TEST_NAME);
    test.put("status", status);
    test.put("duration", Math.max(0, stop - start));
    test.put("message", message(verdict));
    ArrayNode stdout = test.putArray("stdout");
    for (JsonNode step : verdict.path("steps").values()) {
      stdout.add(JsonFields.string(step.path("step")) + ": " + JsonFields.string(step.path("status"))
          + " in " + step.path("elapsed_s").asDouble() + "s"
          + (step.path("detail").isString() ? " (" + step.path("detail").stringValue() + ")" : ""));
    }
    ObjectNode extra = test.putObject("extra");
    extra.put("verdict", JsonFields.string(verdict.path("verdict")));
    if (verdict.path("failed_step").isString()) {
      extra.put("failed_step", verdict.path("failed_step").stringValue());
    }
    if (verdict.path("target").isObject()) {
      extra.set("target", verdict.path("target").deepCopy());
    }
    return root;
  }

  /** The JUnit XML document: one test case, {@code inference-perf}. */
  public static String junit(JsonNode verdict) {
    String v = JsonFields.string(verdict.path("verdict"));
    long start = millis(verdict.path("started_at"));
    long stop = millis(verdict.path("finished_at"));
    String time = String.format(Locale.ROOT, "%.3f", Math.max(0, stop - start) / 1000.0);
    String message = message(verdict);
    int failures = "fail".equals(v) ? 1 : 0;
    int errors = "error".equals(v) ? 1 : 0;
    int skipped = "skip".equals(v) ? 1 : 0;
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append("<testsuites name=\"benchplan validate\" tests=\"1\" failures=\"").append(failures)
        .append("\" errors=\"").append(errors).append("\" skipped=\"").append(skipped)
        .append("\" time=\"").append(time).append("\">\n");
    sb.append("  <testsuite name=\"benchplan.validate\" tests=\"1\" failures=\"").append(failures)
        .append("\" errors=\"").append(errors).append("\" skipped=\"").append(skipped)
        .append("\" time=\"").append(time).append("\" timestamp=\"")
        .append(xml(JsonFields.string(verdict.path("started_at")))).append("\">\n");
    sb.append("    <testcase classname=\"benchplan.validate\" name=\"").append(TEST_NAME)
        .append("\" time=\"").append(time).append("\">\n");
    switch (v == null ? "" : v) {
      case "fail" -> sb.append("      <failure type=\"gate\" message=\"").append(xml(message)).append("\">")
          .append(xml(message)).append("</failure>\n");
      case "error" -> sb.append("      <error type=\"").append(xml(failedStep(verdict))).append("\" message=\"")
          .append(xml(message)).append("\">").append(xml(message)).append("</error>\n");
      case "skip" -> sb.append("      <skipped message=\"").append(xml(message)).append("\"/>\n");
      default -> { }
    }
    sb.append("      <system-out>").append(xml(message)).append("</system-out>\n");
    sb.append("    </testcase>\n  </testsuite>\n</testsuites>\n");
    return sb.toString();
  }

  /** The one-line message: measured throughput and TTFT p99 against their constraints. */
  public static String message(JsonNode verdict) {
    String v = JsonFields.string(verdict.path("verdict"));
    String reason = JsonFields.string(verdict.path("reason"));
    StringBuilder sb = new StringBuilder();
    JsonNode m = verdict.path("measured");
    sb.append("output token throughput ").append(number(m.path("output_token_throughput"), "tokens/sec"))
        .append(", TTFT p99 ").append(number(m.path("time_to_first_token_p99"), "ms"));
    for (JsonNode c : verdict.path("constraints").values()) {
      sb.append("; ").append(JsonFields.string(c.path("name"))).append(' ')
          .append(JsonFields.string(c.path("operator"))).append(' ')
          .append(plain(c.path("threshold").asDouble()))
          .append(" (effective ").append(plain(c.path("effective_threshold").asDouble())).append("): ")
          .append(JsonFields.string(c.path("status")));
    }
    JsonNode t = verdict.path("target");
    if (t.isObject()) {
      sb.append("; measured ").append(JsonFields.string(t.path("namespace"))).append('/')
          .append(JsonFields.string(t.path("dgd"))).append(" Service ")
          .append(JsonFields.string(t.path("service"))).append(':').append(t.path("port").asInt())
          .append(" model ").append(JsonFields.string(t.path("model")));
    }
    String prefix = switch (v == null ? "" : v) {
      case "pass" -> "pass: ";
      case "fail" -> "fail: ";
      case "skip" -> "skip: " + reason + "; ";
      default -> "error at step " + failedStep(verdict) + ": " + reason + "; ";
    };
    if ("skip".equals(v) && !m.isObject()) {
      return "skip: " + reason;
    }
    return prefix + sb;
  }

  private static String failedStep(JsonNode verdict) {
    String s = JsonFields.string(verdict.path("failed_step"));
    return s == null ? "unknown" : s;
  }

  private static String number(JsonNode n, String unit) {
    return n.isNumber() ? plain(n.asDouble()) + " " + unit : "not measured";
  }

  private static String plain(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return String.format(Locale.ROOT, "%.1f", d);
  }

  private static String ctrfStatus(String verdict) {
    return switch (verdict == null ? "" : verdict) {
      case "pass" -> "passed";
      case "skip" -> "skipped";
      default -> "failed";
    };
  }

  private static long millis(JsonNode iso) {
    String s = JsonFields.string(iso);
    return s == null ? 0 : Instant.parse(s).toEpochMilli();
  }

  private static String xml(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&apos;");
        default -> {
          // characters XML 1.0 cannot carry are replaced, never dropped silently
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
            sb.append('?');
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.toString();
  }
}
