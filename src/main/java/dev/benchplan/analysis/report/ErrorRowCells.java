package dev.benchplan.analysis.report;

import dev.benchplan.analysis.audit.ErrorRate;
import java.math.BigDecimal;

/**
 * A comparison's error row as its cells, the same in compare's text table, summary.md and
 * report.html.
 *
 * @param metric {@code error_rate (limit 1%)}
 * @param reference the reference side's pooled rate, or n/a
 * @param candidate the candidate side's pooled rate, or n/a
 * @param counts failed/total requests of each side
 * @param verdict within limit, or over limit with the runs excluded
 */
public record ErrorRowCells(
    String metric, String reference, String candidate, String counts, String verdict) {

  /** The cells of one error row. */
  public static ErrorRowCells of(ComparisonDoc.ErrorRow e) {
    return new ErrorRowCells(
        "error_rate (limit " + ErrorRate.percent(e.candidate().limit()) + ")",
        rate(e.reference()),
        rate(e.candidate()),
        ErrorRate.count(e.reference().errors())
            + "/"
            + ErrorRate.count(e.reference().requests())
            + " vs "
            + ErrorRate.count(e.candidate().errors())
            + "/"
            + ErrorRate.count(e.candidate().requests()),
        e.reference().overLimit().isEmpty() && e.candidate().overLimit().isEmpty()
            ? "within limit"
            : "over limit: run(s) excluded");
  }

  private static String rate(ComparisonDoc.ErrorSide s) {
    BigDecimal r = s.rate();
    return r == null ? "n/a" : ErrorRate.percent(r);
  }
}
