package dev.benchplan.aiperf.config;

/** How a phase issues requests; {@link #configName()} is the native config's {@code type}. */
public enum PhaseType {
  /** Closed loop: a new request as soon as one of {@code concurrency} slots frees. */
  CONCURRENCY("concurrency"),
  /** Open loop: Poisson arrivals at {@code rate} requests/s. */
  POISSON("poisson"),
  /** Open loop: evenly spaced arrivals at {@code rate} requests/s. */
  CONSTANT("constant"),
  /** Trace replay: each request at its recorded timestamp. */
  FIXED_SCHEDULE("fixed_schedule");

  private final String configName;

  PhaseType(String configName) {
    this.configName = configName;
  }

  /** The value of {@code type} in the native config. */
  public String configName() {
    return configName;
  }

  /** True for the open-loop types driven by a request rate. */
  public boolean isRate() {
    return this == POISSON || this == CONSTANT;
  }
}
