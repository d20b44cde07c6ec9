package dev.benchplan.kube.run;

import dev.benchplan.error.BenchplanException;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Turns Kubernetes API failures into one-line errors with the exit code the run contract gives. */
final class ApiErrors {
  private ApiErrors() {}

  /**
   * Maps an API failure during {@code action} (e.g. "create Job ns/name"): 401/403 forbidden,
   * 404, 409 conflict, 5xx and unreachable servers are cluster errors (exit 3); 422 (the manifest
   * was rejected as invalid) is invalid input (exit 2).
   */
  static BenchplanException map(String action, KubernetesClientException e) {
    int code = e.getCode();
    String detail = detail(e);
    return switch (code) {
      case 401 -> BenchplanException.runtime("unauthorized (401): " + action + ": " + detail
          + "; check the kubeconfig credentials of the context", e);
      case 403 -> BenchplanException.runtime("forbidden (403): " + action + ": " + detail
          + "; the context's user lacks this permission (RBAC)", e);
      case 404 -> BenchplanException.runtime("not found (404): " + action + ": " + detail, e);
      case 409 -> BenchplanException.runtime("conflict (409): " + action + ": " + detail, e);
      case 422 -> BenchplanException.invalid("rejected as invalid by the API server (422): " + action + ": " + detail, e);
      case 0 -> BenchplanException.runtime("cannot reach the Kubernetes API server: " + action + ": " + rootMessage(e), e);
      default -> BenchplanException.runtime(
          (code >= 500 ? "API server error (" + code + "): " : "API error (" + code + "): ") + action + ": " + detail, e);
    };
  }

  /** True for a 404. */
  static boolean notFound(KubernetesClientException e) {
    return e.getCode() == 404;
  }

  /** True for a 401 or 403. */
  static boolean forbidden(KubernetesClientException e) {
    return e.getCode() == 403 || e.getCode() == 401;
  }

  static String detail(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null && !e.getStatus().getMessage().isBlank()) {
      return e.getStatus().getMessage();
    }
    return rootMessage(e);
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
