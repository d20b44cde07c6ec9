package dev.benchplan.gate;

import java.util.List;
import java.util.Objects;

/**
 * The constraints a gate evaluates, where they came from, and the entries it read but does not gate
 * on (e.g. AICR's {@code inference-model} setting, or another check's constraints).
 *
 * @param constraints what is gated (empty: the verdict is {@code skip})
 * @param ignored names read but not gated, each with the reason
 * @param source a description of the source: an overlay path, a plan path, or {@code flags}
 */
public record ConstraintSet(List<Constraint> constraints, List<String> ignored, String source) {
  public ConstraintSet {
    constraints = List.copyOf(constraints);
    ignored = List.copyOf(ignored);
    Objects.requireNonNull(source, "source");
  }

  /** No constraints at all (the gate skips). */
  public static ConstraintSet none(String source) {
    return new ConstraintSet(List.of(), List.of(), source);
  }

  public boolean isEmpty() {
    return constraints.isEmpty();
  }
}
