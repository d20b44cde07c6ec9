package dev.benchplan.diagnostics;

import java.util.Locale;

/** The kinds of finding, each with its severity and the rule file that defines its detector. */
public enum FindingKind {
  /** A separate slow TTFT group, or completions stopping while requests were in flight. */
  SUSPECTED_STALLED_WORKER("warning", "benchmarking/stall-diagnosis.md"),
  /** The load generator could not drive the load it was given: the run measured the client. */
  CLIENT_BOUND("error", "benchmarking/client-bound.md"),
  /** Too few requests (or no load target) to say whether the client kept the load up. */
  CLIENT_LOAD_NOT_JUDGED("info", "benchmarking/client-bound.md");

  private final String severity;
  private final String rule;

  FindingKind(String severity, String rule) {
    this.severity = severity;
    this.rule = rule;
  }

  /**
   * {@code warning} (never changes a verdict), {@code error} (the run is not a measurement) or
   * {@code info}.
   */
  public String severity() {
    return severity;
  }

  public String rule() {
    return rule;
  }

  public String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
