package dev.benchplan.validate;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One validate input as resolved: its value and where it came from.
 *
 * @param value the value (a string or a number), or null (e.g. no storage class: the cluster's
 *     default)
 * @param source {@code flag}, {@code recipe}, {@code env}, {@code default}, {@code aicr-default},
 *     {@code aicr} (AICR's fixed load), {@code cluster} or {@code dgd}
 * @param origin exactly where: the option, the overlay entry's JSON pointer, the variable, or why
 */
public record ResolvedInput(@Nullable Object value, String source, @Nullable String origin) {
  public ResolvedInput {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(origin, "origin");
  }

  /** The value as text, or null. */
  public @Nullable String text() {
    return value == null ? null : value.toString();
  }
}
