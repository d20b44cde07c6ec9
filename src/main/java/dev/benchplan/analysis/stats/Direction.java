package dev.benchplan.analysis.stats;

/** Whether a larger value of a metric is better or worse. */
public enum Direction {
  HIGHER_IS_BETTER("higher"),
  LOWER_IS_BETTER("lower");

  private final String json;

  Direction(String json) {
    this.json = json;
  }

  /** {@code higher} or {@code lower} (which way is better). */
  public String json() {
    return json;
  }

  /** +1 when larger is better, -1 when smaller is better. */
  public int sign() {
    return this == HIGHER_IS_BETTER ? 1 : -1;
  }
}
