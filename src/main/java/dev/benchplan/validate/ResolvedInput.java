package dev.benchplan.validate;

import java.util.Objects;

/**
 * One validate input as resolved: its value and where it came from.
 *
 * @param value the value (a string or a number), or null (e.g. no storage class: the cluster's
 *     default)
 * @param source {@code flag}, {@code recipe}, {@code env}, {@code default}, {@code aicr-default},
 *     {@code aicr} (AICR's fixed load), {@code cluster} or {@code dgd}
 * @param origin exactly where: the option, the overlay entry's JSON pointer, the variable, or why
 */
public record ResolvedInput(Object value, String source, String origin) {
  public ResolvedInput {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(origin, "origin");
  }

  /** The value as text, or null. */
  public String text() {
    return value == null ? null : value.toString();
  }
}
