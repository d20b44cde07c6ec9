package dev.benchplan.aiperf.config;

import java.util.Objects;

/**
 * The endpoint AIPerf sends to.
 *
 * @param url base URL without a path (in-cluster address of the frontend Service)
 * @param type chat or completions
 * @param path the API path, e.g. {@code /v1/chat/completions}
 * @param streaming whether responses are streamed (TTFT and ITL exist only then)
 * @param timeoutSeconds per-request timeout
 */
public record Endpoint(
    String url, EndpointType type, String path, boolean streaming, int timeoutSeconds) {
  public Endpoint {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("endpoint path must start with '/': " + path);
    }
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException("request timeout must be >= 1 s: " + timeoutSeconds);
    }
  }
}
