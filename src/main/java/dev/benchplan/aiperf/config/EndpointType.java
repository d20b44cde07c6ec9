package dev.benchplan.aiperf.config;

/** The OpenAI-compatible API an AIPerf run targets; the name is AIPerf's own. */
public enum EndpointType {
  chat,
  completions;

  /** Parses the plan's value ({@code chat} or {@code completions}). */
  public static EndpointType of(String value) {
    for (EndpointType t : values()) {
      if (t.name().equals(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown endpoint type '" + value + "'");
  }
}
