package dev.benchplan.analysis.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The load points whose gated change is undecided, each with its largest change, in the order a
 * repeat decision names them: the largest unresolved change first (ties in {@link LoadPointOrder}).
 * One accumulator for compare and analyze, so every decision names them the same way
 * (agent-docs/rules/benchmarking/comparison-uncertainty.md).
 */
public final class UnresolvedPoints {
  private final Map<String, Double> largest = new LinkedHashMap<>();

  /** Records a gated change (percent; not finite counts as 0) left undecided at a load point. */
  public void add(String loadPoint, double changePct) {
    largest.merge(loadPoint, Double.isFinite(changePct) ? changePct : 0.0, UnresolvedPoints::wider);
  }

  private static double wider(double a, double b) {
    return Math.abs(b) > Math.abs(a) ? b : a;
  }

  public boolean isEmpty() {
    return largest.isEmpty();
  }

  /** The load points, the largest unresolved change first. */
  public List<String> ordered() {
    return entries().stream().map(Map.Entry::getKey).toList();
  }

  private List<Map.Entry<String, Double>> entries() {
    List<Map.Entry<String, Double>> out = new ArrayList<>(largest.entrySet());
    out.sort(
        Comparator.comparingDouble((Map.Entry<String, Double> e) -> -Math.abs(e.getValue()))
            .thenComparing(Map.Entry::getKey, LoadPointOrder.NUMERIC));
    return out;
  }

  /**
   * The load point with the largest unresolved change: where the pilot goes first; null if none.
   */
  public @Nullable String first() {
    List<String> o = ordered();
    return o.isEmpty() ? null : o.get(0);
  }

  /** e.g. {@code concurrency=16 (-7.0%), concurrency=64 (+5.0%)}. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Double> e : entries()) {
      parts.add(String.format(Locale.ROOT, "%s (%+.1f%%)", e.getKey(), e.getValue()));
    }
    return String.join(", ", parts);
  }
}
