package dev.benchplan.plan;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.ExpectedErrors;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.MetricCatalog;
import dev.benchplan.workload.Slo;
import dev.benchplan.workload.UserWorkload;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a trace replay can be known to do before it runs, from the one scan of the rows it sends
 * ({@link TraceFacts#replayed}): rows over the served context fail, so the run's error rate is at
 * least their share; a run that must exceed its error-rate limit is not planned
 * (benchmarking/expected-errors.md). A replay whose timestamps go backwards is refused as well
 * (benchmarking/measurement-mode.md).
 */
final class TraceReplayChecks {
  /** The workload field that justifies an error-rate limit above the run's default. */
  static final String RATIONALE_POINTER = "/objectives/error_rate_max_rationale";

  private TraceReplayChecks() {}

  /**
   * The error-rate limit the run will use (the workload's {@code error_rate} objective, else the
   * default gate and run apply), recorded; a limit above the default needs the workload's
   * rationale.
   */
  static BigDecimal errorRateLimit(UserWorkload w, RuleLog log) {
    BigDecimal dflt = ExpectedErrors.DEFAULT_LIMIT;
    Slo slo =
        w.slos().stream()
            .filter(s -> s.metric().equals(MetricCatalog.ERROR_RATE) && s.operator().equals("<="))
            .findFirst()
            .orElse(null);
    if (slo == null) {
      return dflt;
    }
    BigDecimal limit = slo.threshold();
    if (limit.compareTo(dflt) <= 0) {
      return limit;
    }
    JsonNode rationale = w.document().tree().at(RATIONALE_POINTER);
    if (!rationale.isString() || rationale.asString().isBlank()) {
      log.block(
          BlockerCode.ERROR_RATE_RATIONALE_MISSING,
          "user workload "
              + w.document().at(slo.pointer())
              + ": an error-rate limit of "
              + percent(limit)
              + " is above the run's default "
              + percent(dflt)
              + "; say why failed requests are"
              + " acceptable in objectives.error_rate_max_rationale (recorded in the plan)");
      return limit;
    }
    log.decide(
        RuleFile.EXPECTED_ERRORS,
        "objectives.error_rate_max = "
            + limit.toPlainString()
            + " (the run's error-rate limit, raised from "
            + dflt.toPlainString()
            + ")",
        "the workload's rationale at " + RATIONALE_POINTER + ": " + rationale.asString().strip());
    return limit;
  }

  /**
   * The checks of a trace replay: timestamps in order, rows over the context (warned), and the
   * error rate they force compared with the run's limit (blocked when it must be exceeded).
   *
   * @param maxContext the served max_context_length, or null when the ledger does not say
   */
  static void check(
      TraceFacts f,
      @Nullable TraceWindow window,
      @Nullable Long maxContext,
      BigDecimal limit,
      RuleLog log) {
    if (f.nonMonotonicRows() > 0) {
      log.block(
          BlockerCode.TRACE_TIMESTAMPS_BACKWARDS,
          "trace "
              + f.path()
              + ": "
              + f.nonMonotonicRows()
              + " rows have a timestamp smaller than the row before; a"
              + " fixed-schedule replay sends rows by timestamp, so what it replays would differ"
              + " from the file the plan characterises (order, windows, prefix reuse). Sort the rows"
              + " by timestamp into a new trace and plan that, e.g. jq -c -s 'sort_by(.timestamp)[]'"
              + " TRACE > SORTED.jsonl");
    }
    TraceFacts.Replay r = f.replayed(window);
    String whole =
        f.window() == null
            ? ""
            : "; the whole trace has " + f.rowsOverContext() + " of " + f.rows();
    RuleFile rule = RuleFile.EXPECTED_ERRORS;
    if (r.rowsOverContext() == null || r.rows() == 0) {
      log.decide(
          rule,
          "workload.trace expected errors: unknown",
          maxContext == null
              ? "the deployment ledger gives no max_context_length, so no row is known to fail"
              : "no row is replayed");
      return;
    }
    long failing = r.rowsOverContext();
    BigDecimal predicted =
        BigDecimal.valueOf(failing).divide(BigDecimal.valueOf(r.rows()), 6, RoundingMode.HALF_EVEN);
    String figure =
        failing
            + " of "
            + r.rows()
            + " rows "
            + (f.window() == null ? "of " : "in ")
            + r.label()
            + " ("
            + percent(predicted)
            + ") exceed the served max_context_length "
            + maxContext
            + " (first at lines "
            + r.firstOverContextLines()
            + whole
            + ")";
    if (failing == 0) {
      log.decide(
          rule,
          "workload.trace expected errors: 0 of " + r.rows() + " rows",
          "every row of "
              + r.label()
              + " fits the served max_context_length "
              + maxContext
              + whole);
      return;
    }
    if (predicted.compareTo(limit) > 0) {
      BigDecimal needed =
          BigDecimal.valueOf(failing).divide(BigDecimal.valueOf(r.rows()), 4, RoundingMode.CEILING);
      log.block(
          BlockerCode.TRACE_ERROR_RATE_EXCEEDS_LIMIT,
          "trace "
              + f.path()
              + ": "
              + figure
              + "; the server rejects them, so the run's error rate is at least "
              + percent(predicted)
              + ", above the run's error-rate limit "
              + percent(limit)
              + ": the run would certainly fail. Fixes: (1) a --trace-window whose rows fit"
              + " (`benchplan trace inspect TRACE --window START_MS:END_MS --max-context-length "
              + maxContext
              + "` counts them); (2) your own filtered trace as a new workload, e.g."
              + " jq -c 'select(.input_length + (.output_length // 0) <= "
              + maxContext
              + ")' TRACE > FILTERED.jsonl (benchplan windows a trace but never filters it);"
              + " (3) objectives.error_rate_max >= "
              + needed.toPlainString()
              + " with"
              + " objectives.error_rate_max_rationale saying why these failures are acceptable");
      return;
    }
    log.warn(
        rule,
        "trace "
            + f.path()
            + ": "
            + figure
            + "; they are replayed unchanged, never"
            + " removed, and will fail: an expected error rate of "
            + percent(predicted)
            + " of the run's "
            + percent(limit)
            + " limit (listed in workload.trace.context"
            + (f.window() == null ? "" : " and workload.trace.window.context")
            + ")");
    log.decide(
        rule,
        "workload.trace expected errors: "
            + failing
            + " of "
            + r.rows()
            + " rows ("
            + percent(predicted)
            + ")",
        "rows over the served context fail; within the run's"
            + " error-rate limit "
            + percent(limit));
  }

  /** 0.056708 -> "5.67%". */
  static String percent(BigDecimal fraction) {
    return fraction
            .movePointRight(2)
            .setScale(2, RoundingMode.HALF_EVEN)
            .stripTrailingZeros()
            .toPlainString()
        + "%";
  }
}
