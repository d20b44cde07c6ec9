package dev.benchplan.workload;

import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the smoke test measured of its one streamed request ({@code timings} and {@code
 * response.usage} of the smoke artifact): the only request time benchplan knows of a deployment
 * before it is benchmarked.
 *
 * @param ttftMs time to the first content delta
 * @param totalMs time to the end of the stream
 * @param promptTokens prompt tokens the server counted, or null when it sent no usage
 * @param completionTokens completion tokens the server counted, or null when it sent no usage
 */
public record SmokeTiming(
    BigDecimal ttftMs,
    BigDecimal totalMs,
    @Nullable Long promptTokens,
    @Nullable Long completionTokens) {
  public SmokeTiming {
    Objects.requireNonNull(ttftMs, "ttftMs");
    Objects.requireNonNull(totalMs, "totalMs");
    if (ttftMs.signum() < 0 || totalMs.compareTo(ttftMs) < 0) {
      throw new IllegalArgumentException("smoke timings must satisfy 0 <= ttft <= total");
    }
  }
}
