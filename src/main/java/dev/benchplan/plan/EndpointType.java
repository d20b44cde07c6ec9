package dev.benchplan.plan;

/** The OpenAI-compatible API the benchmark calls. */
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
}
