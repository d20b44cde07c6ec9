package dev.benchplan.kube.validate;

import dev.benchplan.error.BenchplanException;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Turns Kubernetes client failures into one-line cluster errors (exit 3). */
final class ApiErrors {
  private ApiErrors() {}

  /** {@code <what> failed: HTTP 403 Forbidden: <server message>}. */
  static BenchplanException of(String what, KubernetesClientException e) {
    return BenchplanException.runtime(what + " failed: " + describe(e), e);
  }

  /** The status code, its meaning and the server's message, on one line. */
  static String describe(KubernetesClientException e) {
    int code = e.getCode();
    String msg = e.getStatus() != null && e.getStatus().getMessage() != null
        ? e.getStatus().getMessage()
        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    msg = msg.replace('\n', ' ');
    if (code <= 0) {
      Throwable cause = e.getCause();
      return "no answer from the API server: " + msg
          + (cause != null && cause.getMessage() != null ? " (" + cause.getMessage().replace('\n', ' ') + ")" : "");
    }
    return "HTTP " + code + " " + reason(code) + ": " + msg;
  }

  static boolean notFound(KubernetesClientException e) {
    return e.getCode() == 404;
  }

  private static String reason(int code) {
    return switch (code) {
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 409 -> "Conflict";
      case 422 -> "Unprocessable Entity (rejected by validation)";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      default -> "";
    };
  }
}
