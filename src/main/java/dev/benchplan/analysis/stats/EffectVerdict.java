package dev.benchplan.analysis.stats;

/** The verdict on one metric of a candidate against its reference. */
public enum EffectVerdict {
  /** The interval lies on the better side of zero and the effect reaches the MDE. */
  IMPROVED,
  /** The interval lies on the worse side of zero and the effect reaches the MDE. */
  REGRESSED,
  /** The whole interval lies inside plus/minus the MDE. */
  NO_CHANGE,
  /** Anything else: overlap is not "no difference". */
  INCONCLUSIVE;

  /** The JSON name. */
  public String json() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
