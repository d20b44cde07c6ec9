package dev.benchplan.analysis.compare;

import dev.benchplan.analysis.audit.ErrorRate;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.plan.BenchmarkPlan;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Errors as a metric of their own: per load point and side, the failed and total requests of every
 * run given (valid or not), the pooled rate, the limit ({@link ErrorRate}) and the runs over it.
 */
public final class ErrorRows {
  private ErrorRows() {}

  /**
   * One side at one load point.
   *
   * @param runs the runs counted
   * @param requests successful plus failed requests, or null when a run does not say
   * @param errors failed requests
   * @param rate errors / requests, or null when unknown
   * @param limit the error-rate limit (the plan's, else 1%)
   * @param overLimit the runs over the limit (invalid under the audit)
   */
  public record Side(
      int runs,
      @Nullable BigDecimal requests,
      BigDecimal errors,
      @Nullable BigDecimal rate,
      BigDecimal limit,
      List<String> overLimit) {
    public Side {
      overLimit = List.copyOf(overLimit);
    }
  }

  /** The error figures of {@code runs} (one side, one load point). */
  public static Side side(List<RunEvidence> runs) {
    BigDecimal requests = BigDecimal.ZERO;
    boolean known = true;
    BigDecimal errors = BigDecimal.ZERO;
    BigDecimal limit = null;
    List<String> over = new ArrayList<>();
    for (RunEvidence r : runs) {
      BenchmarkPlan plan = r.plan() == null ? null : r.plan().plan();
      BigDecimal l = ErrorRate.limit(plan == null ? null : plan.objectives().gates());
      limit = limit == null || l.compareTo(limit) < 0 ? l : limit;
      if (r.export() == null) {
        known = false;
        continue;
      }
      ErrorRate s = ErrorRate.of(r.export(), l);
      errors = errors.add(s.errors());
      if (s.total() == null) {
        known = false;
      } else {
        requests = requests.add(s.total());
      }
      if (s.over()) {
        over.add(r.source().label());
      }
    }
    BigDecimal total = known ? requests : null;
    BigDecimal rate =
        total == null || total.signum() == 0 ? null : errors.divide(total, MathContext.DECIMAL64);
    return new Side(
        runs.size(), total, errors, rate, limit == null ? ErrorRate.limit(null) : limit, over);
  }
}
