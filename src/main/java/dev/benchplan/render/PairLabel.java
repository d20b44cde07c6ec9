package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.util.regex.Pattern;

/**
 * The AB/BA pair a run belongs to (agent-docs/rules/benchmarking/comparison-uncertainty.md: inside
 * the noise band, decide with paired, interleaved repeats). Given at render time ({@code --pair ID
 * --pair-order AB|BA --pair-arm A|B}), annotated on the Job ({@link JobContract#PAIR}) and recorded
 * by {@code run} in run.json ({@code /pair}), where {@code compare} reads it to pair reference (arm
 * A) and candidate (arm B) runs by id.
 *
 * @param id the pair's id, shared by its two runs
 * @param order {@code AB} (the reference ran first) or {@code BA}
 * @param arm {@code A} (reference) or {@code B} (candidate)
 */
public record PairLabel(String id, String order, String arm) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

  public PairLabel {
    if (id == null || !ID.matcher(id).matches()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--pair"),
          "--pair "
              + id
              + ": expected an id of letters, digits, '.', '_' or '-'"
              + " (at most 63 characters), the same for both runs of a pair");
    }
    if (!"AB".equals(order) && !"BA".equals(order)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--pair-order"),
          "--pair-order " + order + ": expected AB (the reference, arm A, ran" + " first) or BA");
    }
    if (!"A".equals(arm) && !"B".equals(arm)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--pair-arm"),
          "--pair-arm " + arm + ": expected A (reference) or B (candidate)");
    }
  }

  /** The annotation's text: {@code id/order/arm}, e.g. {@code p1/AB/A}. */
  public String annotation() {
    return id + "/" + order + "/" + arm;
  }

  /**
   * Parses {@link #annotation()}; bad text is invalid input naming {@code pointer} (where the text
   * sits in the Job: its annotation).
   */
  public static PairLabel parse(String text, String pointer) {
    ErrorLocation at = ErrorLocation.pointer(null, pointer);
    String[] parts = text.split("/", -1);
    if (parts.length != 3) {
      throw BenchplanException.invalid(at, pointer + ": " + text + ": expected ID/AB|BA/A|B");
    }
    try {
      return new PairLabel(parts[0], parts[1], parts[2]);
    } catch (BenchplanException e) {
      throw BenchplanException.invalid(at, pointer + ": " + e.getMessage(), e);
    }
  }

  /** True when this run ran first in its pair. */
  public boolean first() {
    return order.equals("AB") == arm.equals("A");
  }
}
