package dev.benchplan.aiperf.export;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One entry of AIPerf's {@code error_summary}: an error kind and how many requests hit it.
 *
 * @param code the HTTP or internal error code, when given
 * @param type the error type, when given
 * @param message the error message, when given
 * @param count how many requests failed this way
 */
public record ErrorCount(
    @Nullable Integer code, @Nullable String type, @Nullable String message, long count) {
  public ErrorCount {
    if (count < 0) {
      throw new IllegalArgumentException("error count must not be negative: " + count);
    }
  }

  /** A short human description: {@code "503 ServiceUnavailable: upstream busy"}. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    if (code != null) {
      sb.append(code);
    }
    if (type != null && !type.isEmpty()) {
      sb.append(sb.length() > 0 ? " " : "").append(type);
    }
    if (message != null && !message.isEmpty()) {
      sb.append(sb.length() > 0 ? ": " : "").append(message);
    }
    return sb.length() == 0 ? "unknown error" : sb.toString();
  }

  @Override
  public String toString() {
    return Objects.toString(describe()) + " x" + count;
  }
}
