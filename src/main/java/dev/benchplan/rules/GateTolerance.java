package dev.benchplan.rules;

import java.math.BigDecimal;

/**
 * How much slack a gate's threshold gets (agent-docs/rules/execution/user-workload.md): a user's
 * own objective is kept exactly unless the workload says otherwise, AICR's constraints keep AICR's
 * 10%, and a plan written before gates recorded their tolerance is judged as it was run (10%).
 */
public final class GateTolerance {
  /** The tolerance of a gate from the user's objectives when the workload names none: none. */
  public static final BigDecimal OBJECTIVE_DEFAULT = BigDecimal.ZERO;

  /** AICR's tolerance (overlays, {@code gate}'s flags, {@code validate}): 10%. */
  public static final BigDecimal AICR_DEFAULT = new BigDecimal("0.10");

  /** What a plan gate without a recorded tolerance (an older plan) was run with: AICR's 10%. */
  public static final BigDecimal LEGACY_PLAN = AICR_DEFAULT;

  /** Said in a verdict whose plan gate recorded no tolerance. */
  public static final String LEGACY_NOTE =
      "the plan records no tolerance (written before gates recorded one): 10% applied, as it was"
          + " run";

  private GateTolerance() {}

  /** True for a tolerance in [0, 1). */
  public static boolean inRange(BigDecimal t) {
    return t.signum() >= 0 && t.compareTo(BigDecimal.ONE) < 0;
  }

  /**
   * The threshold after tolerance: a floor ({@code floor} true) is lowered to {@code (1 - t) x
   * threshold}, a ceiling raised to {@code (1 + t) x threshold} (AICR's rule). Exact decimals.
   */
  public static BigDecimal effective(boolean floor, BigDecimal threshold, BigDecimal t) {
    return threshold.multiply(floor ? BigDecimal.ONE.subtract(t) : BigDecimal.ONE.add(t));
  }
}
