package dev.benchplan.kube;

import dev.benchplan.error.BenchplanException;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jspecify.annotations.Nullable;

/**
 * The one policy for Kubernetes API failures, for run and validate alike: an object the API server
 * rejects as invalid (400, 422) is invalid input (exit 2); forbidden (403) and unauthorized (401)
 * name the action and give an RBAC or credentials hint (exit 3); not found, conflicts, timeouts,
 * 5xx and an unreachable server are cluster errors (exit 3). Messages are one line: {@code
 * <action>: HTTP <code> <reason>: <server message>[; hint]}.
 */
public final class ApiErrors {
  private ApiErrors() {}

  /** Maps a failure of {@code action} (verb and resource, e.g. "create Job ns/name"). */
  public static BenchplanException map(@Nullable String action, KubernetesClientException e) {
    int code = e.getCode();
    String line = action + ": " + describe(e);
    return switch (code) {
      case 400, 422 -> BenchplanException.invalid(line, e);
      case 401 ->
          BenchplanException.runtime(line + "; check the credentials of the kubeconfig context", e);
      case 403 ->
          BenchplanException.runtime(
              line
                  + "; RBAC: the context's user lacks this permission (grant it with a Role or"
                  + " ClusterRole; check with 'kubectl auth can-i')",
              e);
      default -> BenchplanException.runtime(line, e);
    };
  }

  /** The status code, its meaning and the server's message, on one line. */
  public static String describe(KubernetesClientException e) {
    int code = e.getCode();
    if (code <= 0) {
      return "cannot reach the Kubernetes API server: " + rootMessage(e);
    }
    String msg =
        e.getStatus() != null
                && e.getStatus().getMessage() != null
                && !e.getStatus().getMessage().isBlank()
            ? e.getStatus().getMessage().replace('\n', ' ')
            : rootMessage(e);
    String reason = reason(code);
    return "HTTP " + code + (reason.isEmpty() ? "" : " " + reason) + ": " + msg;
  }

  /** The HTTP status code (0 or less: the server was not reached). */
  public static int code(KubernetesClientException e) {
    return e.getCode();
  }

  /** True for a 404. */
  public static boolean notFound(KubernetesClientException e) {
    return e.getCode() == 404;
  }

  /** True for a 401 or 403. */
  public static boolean forbidden(KubernetesClientException e) {
    return e.getCode() == 403 || e.getCode() == 401;
  }

  private static String reason(int code) {
    return switch (code) {
      case 400 -> "Bad Request (rejected as invalid)";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 408 -> "Request Timeout";
      case 409 -> "Conflict";
      case 422 -> "Unprocessable Entity (rejected as invalid)";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> code >= 500 ? "API server error" : "";
    };
  }

  private static String rootMessage(Throwable t) {
    Throwable cur = t;
    while (cur.getCause() != null && cur.getCause() != cur) {
      cur = cur.getCause();
    }
    String m = cur.getMessage();
    return m == null ? cur.getClass().getSimpleName() : m.replace('\n', ' ');
  }
}
