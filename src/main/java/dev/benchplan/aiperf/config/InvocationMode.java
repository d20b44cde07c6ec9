package dev.benchplan.aiperf.config;

/** How the Job hands the settings to {@code aiperf profile}. */
public enum InvocationMode {
  /** {@code aiperf profile --config aiperf-config.yaml} (native schemaVersion "2.0" config). */
  CONFIG("config"),
  /** {@code aiperf profile --model ... --url ...}; aiperf-config.yaml is for review only. */
  FLAGS("flags");

  private final String label;

  InvocationMode(String label) {
    this.label = label;
  }

  /** The name printed in render's output ({@code config} or {@code flags}). */
  public String label() {
    return label;
  }
}
