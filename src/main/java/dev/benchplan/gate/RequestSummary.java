package dev.benchplan.gate;

import dev.benchplan.aiperf.export.ErrorCount;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Request accounting from the export and the error-rate check.
 *
 * @param total successful plus failed requests; null when the export does not say
 * @param errors failed requests
 * @param errorRate errors / total; null when total is unknown or zero
 * @param maxErrorRate the largest acceptable error rate
 * @param status pass, fail (rate above the maximum), error (no request count) or skip (not gated)
 * @param errorSummary AIPerf's error kinds and counts
 */
public record RequestSummary(
    @Nullable BigDecimal total,
    BigDecimal errors,
    @Nullable BigDecimal errorRate,
    BigDecimal maxErrorRate,
    Status status,
    List<ErrorCount> errorSummary) {

  public RequestSummary {
    Objects.requireNonNull(errors, "errors");
    Objects.requireNonNull(maxErrorRate, "maxErrorRate");
    Objects.requireNonNull(status, "status");
    errorSummary = List.copyOf(errorSummary);
  }
}
