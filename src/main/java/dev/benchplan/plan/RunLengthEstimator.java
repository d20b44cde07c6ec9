package dev.benchplan.plan;

import dev.benchplan.workload.SmokeEvidence;
import dev.benchplan.workload.SmokeTiming;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The one estimate of how long a measured run takes, from what benchplan knows before it runs: the
 * smoke test's measured request (time to first token, time per output token) and the planned
 * ISL/OSL. Every figure is a lower bound: a longer prompt never prefills faster than the smoke
 * test's, a concurrent request never decodes faster than a lone one, and the planner uses the bound
 * only to refuse runs that certainly cannot fit (agent-docs/rules/benchmarking/
 * measurement-limit.md).
 */
public final class RunLengthEstimator {
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private RunLengthEstimator() {}

  /**
   * The least time one request of the planned shape takes, and how it was derived.
   *
   * @param ms milliseconds per request (lower bound)
   * @param basis the measurements and the arithmetic, in one sentence
   */
  public record RequestTime(BigDecimal ms, String basis) {}

  /**
   * The least time of one request with {@code osl} output tokens, from the smoke artifact's
   * measured request; empty when the evidence has no timings (e.g. in-cluster readiness).
   */
  // the basis names the plan's field, not the artifact's path: a path given absolute to plan would
  // put the checkout's location into rules_applied (issue 14)
  public static Optional<RequestTime> requestTime(@Nullable SmokeEvidence smoke, int isl, int osl) {
    if (!(smoke instanceof SmokeEvidence.Artifact a) || a.timing() == null) {
      return Optional.empty();
    }
    SmokeTiming t = a.timing();
    Long completion = t.completionTokens();
    if (completion == null || completion < 2) {
      return Optional.of(
          new RequestTime(
              t.totalMs(),
              "the smoke request (deployment.smoke_test) took "
                  + plain(t.totalMs())
                  + " ms in all; without its token count it is not scaled to OSL "
                  + osl));
    }
    BigDecimal perToken =
        t.totalMs()
            .subtract(t.ttftMs())
            .divide(BigDecimal.valueOf(completion - 1), MathContext.DECIMAL64);
    BigDecimal ms = t.ttftMs().add(perToken.multiply(BigDecimal.valueOf(osl - 1L)));
    return Optional.of(
        new RequestTime(
            ms,
            "smoke request (deployment.smoke_test): TTFT "
                + plain(t.ttftMs())
                + " ms (a "
                + isl
                + "-token prompt prefills no faster) + "
                + plain(perToken)
                + " ms per output token (over its "
                + completion
                + " tokens) x "
                + (osl - 1L)
                + " more tokens = "
                + plain(ms)
                + " ms per request at least"));
  }

  /**
   * The least seconds a closed-loop point takes: each of {@code concurrency} slots sends its share
   * of {@code requests} one after another.
   */
  public static BigDecimal closedLoopSeconds(long requests, int concurrency, RequestTime t) {
    long waves = (requests + concurrency - 1) / concurrency;
    return t.ms().multiply(BigDecimal.valueOf(waves)).divide(THOUSAND, 3, RoundingMode.CEILING);
  }

  /** The seconds an open-loop point needs just to send {@code requests} at {@code rate} req/s. */
  public static BigDecimal openLoopSeconds(long requests, BigDecimal rate) {
    return BigDecimal.valueOf(requests).divide(rate, 0, RoundingMode.CEILING);
  }

  static String plain(BigDecimal v) {
    return v.round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }
}
