package dev.benchplan.aiperf.config;

/**
 * The OpenAI-compatible API a benchmark calls; the name is AIPerf's own and the plan's {@code
 * /endpoint/type}.
 */
public enum EndpointType {
  chat("/v1/chat/completions"),
  completions("/v1/completions");

  private final String path;

  EndpointType(String path) {
    this.path = path;
  }

  /** The request path on the frontend. */
  public String path() {
    return path;
  }

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
