package dev.benchplan.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.error.BenchplanException;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiErrorsTest {
  private static KubernetesClientException status(int code, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withMessage(message).build());
  }

  @ParameterizedTest(name = "HTTP {0} -> exit {1}")
  @CsvSource({
    "400, 2, 'create Job a/b: HTTP 400 Bad Request (rejected as invalid): bad'",
    "422, 2, 'create Job a/b: HTTP 422 Unprocessable Entity (rejected as invalid): bad'",
    "401, 3, 'create Job a/b: HTTP 401 Unauthorized: bad; check the credentials of the kubeconfig context'",
    "404, 3, 'create Job a/b: HTTP 404 Not Found: bad'",
    "409, 3, 'create Job a/b: HTTP 409 Conflict: bad'",
    "500, 3, 'create Job a/b: HTTP 500 Internal Server Error: bad'",
    "504, 3, 'create Job a/b: HTTP 504 Gateway Timeout: bad'"
  })
  @DisplayName(
      "one policy for run and validate: invalid objects are exit 2, everything else the cluster's (3)")
  void policy(int code, int exit, String message) {
    BenchplanException e = ApiErrors.map("create Job a/b", status(code, "bad"));
    assertThat(e.exitCode()).isEqualTo(exit);
    assertThat(e).hasMessage(message);
  }

  @Test
  @DisplayName("403 names the verb and resource and gives an RBAC hint (exit 3)")
  void forbidden() {
    BenchplanException e = ApiErrors.map("create Job a/b", status(403, "jobs.batch is forbidden"));
    assertThat(e.exitCode()).isEqualTo(3);
    assertThat(e)
        .hasMessage(
            "create Job a/b: HTTP 403 Forbidden: jobs.batch is forbidden; RBAC: the context's user"
                + " lacks this permission (grant it with a Role or ClusterRole; check with"
                + " 'kubectl auth can-i')");
  }

  @Test
  @DisplayName("an unreachable server is a cluster error (exit 3) naming the root cause")
  void unreachable() {
    BenchplanException e =
        ApiErrors.map(
            "read namespace bench",
            new KubernetesClientException(
                "Operation: [get] failed", new ConnectException("Connection refused")));
    assertThat(e.exitCode()).isEqualTo(3);
    assertThat(e)
        .hasMessage(
            "read namespace bench: cannot reach the Kubernetes API server: Connection refused");
  }
}
