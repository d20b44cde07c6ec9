package dev.benchplan.workload;

import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The user's exact ISL/OSL and traffic controls; every field is null when the user did not say.
 *
 * @param inputTokens input sequence length (tokens)
 * @param outputTokens output sequence length (tokens)
 * @param inputTokensStddev input length standard deviation, null = exact (0)
 * @param outputTokensStddev output length standard deviation, null = exact (0)
 * @param requestRate open-loop load points in requests/s (one or more), or null
 * @param concurrency closed-loop load points, or null
 * @param arrivalPattern poisson or constant, or null
 * @param requestCount measured requests per load point, or null
 * @param durationS measured seconds per load point, or null
 * @param maxConcurrency declared maximum of a powers-of-two concurrency grid, or null
 * @param maxRequestRate declared maximum of a powers-of-two rate grid, or null
 */
public record Traffic(
    @Nullable Integer inputTokens,
    @Nullable Integer outputTokens,
    @Nullable Integer inputTokensStddev,
    @Nullable Integer outputTokensStddev,
    @Nullable List<BigDecimal> requestRate,
    @Nullable List<Integer> concurrency,
    @Nullable String arrivalPattern,
    @Nullable Long requestCount,
    @Nullable Long durationS,
    @Nullable Integer maxConcurrency,
    @Nullable BigDecimal maxRequestRate) {
  public Traffic {
    requestRate = requestRate == null ? null : List.copyOf(requestRate);
    concurrency = concurrency == null ? null : List.copyOf(concurrency);
  }

  /** No traffic section at all. */
  public static Traffic empty() {
    return new Traffic(null, null, null, null, null, null, null, null, null, null, null);
  }

  public boolean hasShape() {
    return inputTokens != null && outputTokens != null;
  }

  public boolean hasConcurrency() {
    return concurrency != null && !concurrency.isEmpty();
  }

  public boolean hasRequestRate() {
    return requestRate != null && !requestRate.isEmpty();
  }

  /** True when the user gave load points or a declared grid maximum. */
  public boolean hasLoadControl() {
    return hasConcurrency() || hasRequestRate() || maxConcurrency != null || maxRequestRate != null;
  }
}
