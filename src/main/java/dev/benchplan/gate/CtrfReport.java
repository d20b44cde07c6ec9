package dev.benchplan.gate;

import dev.benchplan.gate.Verdict.Decimals;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A verdict as a CTRF report (Common Test Report Format, as AICR writes its check results): one
 * test per constraint plus one for the request error rate; a verdict without constraints is one
 * test named {@value #GATE_TEST}. A verdict over several measured runs (a grid, repetitions) has
 * one test per run and constraint, named {@code <parameter>=<point>/repetition=<n>/<constraint>}
 * (stable across runs of the same plan), plus {@value #GATE_TEST} when the overall verdict is worse
 * than every run's (e.g. a planned run missing from the tree). CTRF has no "error" status: errors
 * are {@code failed} with {@code rawStatus: "error"}.
 */
public final class CtrfReport {
  /** The single test of a verdict that has no constraints. */
  public static final String GATE_TEST = "benchplan-gate";

  /** The test of the request error rate. */
  public static final String ERROR_RATE_TEST = "request-error-rate";

  private CtrfReport() {}

  /** One CTRF test, before JSON. */
  record Test(String name, Status status, long durationMs, String message) {
    String ctrfStatus() {
      return switch (status) {
        case PASS -> "passed";
        case FAIL, ERROR -> "failed";
        case SKIP -> "skipped";
      };
    }
  }

  /** The tests a verdict is reported as (shared with the JUnit report). */
  static List<Test> tests(Verdict v, ReportTiming timing) {
    if (v.runs() != null
        && !v.runs().runs().isEmpty()
        && (v.runs().runs().size() > 1
            || v.runs().runs().get(0).loadPoint() != null
            || v.runs().runs().get(0).repetition() != null)) {
      List<Test> tests = new ArrayList<>();
      Status worst = Status.PASS;
      for (RunVerdicts.Entry run : v.runs().runs()) {
        String prefix = runName(run) + "/";
        for (Test t : single(run.verdict(), new ReportTiming(timing.start(), timing.start()))) {
          tests.add(
              new Test(
                  prefix + t.name(), t.status(), t.durationMs(), run.label() + ": " + t.message()));
          worst = rank(t.status()) > rank(worst) ? t.status() : worst;
        }
      }
      if (rank(v.verdict()) > rank(worst)) {
        tests.add(new Test(GATE_TEST, v.verdict(), timing.durationMillis(), v.message()));
      }
      return tests;
    }
    return single(v, timing);
  }

  /** {@code concurrency=16/repetition=2}: a run's stable name (repetition 1 when measured once). */
  static String runName(RunVerdicts.Entry run) {
    String point =
        run.loadPoint() == null
            ? "run=" + (run.directory().isEmpty() ? "." : run.directory())
            : (run.parameter() == null ? "load_point" : run.parameter()) + "=" + run.loadPoint();
    return point + "/repetition=" + (run.repetition() == null ? 1 : run.repetition());
  }

  private static int rank(Status s) {
    return switch (s) {
      case SKIP -> 0;
      case PASS -> 1;
      case FAIL -> 2;
      case ERROR -> 3;
    };
  }

  private static List<Test> single(Verdict v, ReportTiming timing) {
    List<Test> tests = new ArrayList<>();
    if (v.constraints().isEmpty()) {
      tests.add(new Test(GATE_TEST, v.verdict(), timing.durationMillis(), v.message()));
      return tests;
    }
    for (ConstraintResult c : v.constraints()) {
      tests.add(new Test(c.name(), c.status(), 0, c.message()));
    }
    RequestSummary r = v.requests();
    if (r.status() != Status.SKIP) {
      String message =
          r.errorRate() == null
              ? "request error rate unknown: "
                  + (v.verdict() == Status.ERROR ? v.message() : "no request_count")
              : "request error rate "
                  + Decimals.percent(r.errorRate())
                  + " ("
                  + Decimals.human(r.errors())
                  + " of "
                  + Decimals.human(r.total())
                  + "), max "
                  + Decimals.percent(r.maxErrorRate());
      tests.add(new Test(ERROR_RATE_TEST, r.status(), 0, message));
    }
    return tests;
  }

  /** The CTRF document. */
  public static ObjectNode toJson(Verdict v, ReportTiming timing) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode root = f.objectNode();
    root.put("reportFormat", "CTRF");
    root.put("specVersion", "0.0.0");
    root.put("generatedBy", "benchplan");
    root.put(
        "timestamp", timing.stop().truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString());
    ObjectNode results = root.putObject("results");
    ObjectNode tool = results.putObject("tool");
    tool.put("name", "benchplan");
    tool.put("version", ToolVersion.get());
    List<Test> tests = tests(v, timing);
    ObjectNode summary = results.putObject("summary");
    summary.put("tests", tests.size());
    summary.put("passed", tests.stream().filter(t -> t.ctrfStatus().equals("passed")).count());
    summary.put("failed", tests.stream().filter(t -> t.ctrfStatus().equals("failed")).count());
    summary.put("skipped", tests.stream().filter(t -> t.ctrfStatus().equals("skipped")).count());
    summary.put("pending", 0);
    summary.put("other", 0);
    summary.put("start", timing.start().toEpochMilli());
    summary.put("stop", timing.stop().toEpochMilli());
    ArrayNode arr = results.putArray("tests");
    for (Test t : tests) {
      ObjectNode o = arr.addObject();
      o.put("name", t.name());
      o.put("status", t.ctrfStatus());
      o.put("duration", t.durationMs());
      o.put("message", t.message());
      o.put("rawStatus", t.status().json());
    }
    ObjectNode extra = results.putObject("extra");
    extra.put("verdict", v.verdict().json());
    extra.put("message", v.message());
    extra.put("source", v.source().path());
    extra.put("source_sha256", v.source().sha256());
    ArrayNode warnings = extra.putArray("warnings");
    v.warnings().forEach(warnings::add);
    return root;
  }
}
