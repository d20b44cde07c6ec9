package dev.benchplan.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeConnectionTest {
  @TempDir Path tmp;

  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      clusters:
      - name: c
        cluster:
          server: https://127.0.0.1:1
      users:
      - name: u
        user:
          token: t
      contexts:
      - name: ctx
        context:
          cluster: c
          user: u
      %s
      """;

  @Test
  @DisplayName(
      "KUBECONFIG naming a missing file and no service account: exit 2 at once, naming both and the fix")
  void missingKubeconfig() {
    Path missing = tmp.resolve("nowhere/config");
    Path token = tmp.resolve("no-token");
    assertThatThrownBy(
            () -> KubeConnection.open(null, Map.of("KUBECONFIG", missing.toString()), tmp, token))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            "no Kubernetes cluster configured: KUBECONFIG="
                + missing
                + " does not exist and there is"
                + " no in-cluster service account ("
                + token
                + "); set KUBECONFIG to a kubeconfig file (or create"
                + " ~/.kube/config), then choose a context with --context or 'kubectl config use-context'")
        .satisfies(KubeConnectionTest::refusedByFileCheck);
  }

  /**
   * Refused by {@link KubeConnection#check} (files and environment only), before fabric8 loaded a
   * config or built a client: so no API call, no connect timeout and no retry could be waited out.
   * Asserted on the mechanism (where the refusal was thrown, and that no other failure lies
   * beneath), not on a wall time; the time it takes is measured by
   * benchmarks/scripts/bench-no-cluster.sh.
   */
  static void refusedByFileCheck(Throwable e) {
    // a caller may restate the refusal (validate names its step): only benchplan's own exceptions
    // may stand between, and the innermost is the check's
    Throwable root = e;
    while (root.getCause() != null) {
      assertThat(root.getCause()).isInstanceOf(BenchplanException.class);
      root = root.getCause();
    }
    List<StackTraceElement> frames = List.of(root.getStackTrace());
    assertThat(frames)
        .as("the refusal is thrown by KubeConnection.check")
        .anySatisfy(
            f -> {
              assertThat(f.getClassName()).isEqualTo(KubeConnection.class.getName());
              assertThat(f.getMethodName()).isEqualTo("check");
            });
    assertThat(frames)
        .as("no fabric8 code (config loading, client, request) is beneath the refusal")
        .noneSatisfy(f -> assertThat(f.getClassName()).startsWith("io.fabric8."));
  }

  /**
   * The whole error when no cluster is configured: {@code kubeconfig} names the file looked for.
   */
  static String noClusterMessage(String kubeconfig, Path token) {
    return "no Kubernetes cluster configured: "
        + kubeconfig
        + " does not exist and there is no in-cluster service account ("
        + token
        + "); set KUBECONFIG to a kubeconfig file (or create ~/.kube/config), then choose a"
        + " context with --context or 'kubectl config use-context'";
  }

  @Test
  @DisplayName("no KUBECONFIG and no ~/.kube/config: the message names ~/.kube/config")
  void noDefaultKubeconfig() {
    assertThatThrownBy(() -> KubeConnection.check(null, Map.of(), tmp, tmp.resolve("no-token")))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            noClusterMessage(
                "~/.kube/config (" + tmp.resolve(".kube/config") + ")", tmp.resolve("no-token")))
        .extracting(e -> ((BenchplanException) e).location())
        .as("the kubeconfig file the error concerns")
        .isEqualTo(ErrorLocation.file(tmp.resolve(".kube/config")));
  }

  @Test
  @DisplayName("a kubeconfig without current-context and no --context: exit 2 naming the fix")
  void noCurrentContext() throws Exception {
    Path kc = Files.writeString(tmp.resolve("config"), KUBECONFIG.formatted(""));
    assertThatThrownBy(
            () ->
                KubeConnection.check(
                    null, Map.of("KUBECONFIG", kc.toString()), tmp, tmp.resolve("x")))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            "no Kubernetes context selected: KUBECONFIG="
                + kc
                + " sets no current-context; pass"
                + " --context NAME or run 'kubectl config use-context NAME'")
        .extracting(e -> ((BenchplanException) e).location())
        .as("the kubeconfig's current-context")
        .isEqualTo(ErrorLocation.file(kc).withField("current-context"));
    // naming the context is enough
    assertThatCode(
            () ->
                KubeConnection.check(
                    "ctx", Map.of("KUBECONFIG", kc.toString()), tmp, tmp.resolve("x")))
        .doesNotThrowAnyException();
  }

  @Test
  @DisplayName("an in-cluster service account is a cluster even without a kubeconfig")
  void inCluster() throws Exception {
    Path token = Files.writeString(tmp.resolve("token"), "t");
    assertThatCode(
            () ->
                KubeConnection.check(
                    null,
                    Map.of(
                        "KUBECONFIG",
                        tmp.resolve("missing").toString(),
                        "KUBERNETES_SERVICE_HOST",
                        "10.0.0.1"),
                    tmp,
                    token))
        .doesNotThrowAnyException();
    // the host variable without the token is not a service account
    assertThatThrownBy(
            () ->
                KubeConnection.check(
                    null,
                    Map.of(
                        "KUBECONFIG",
                        tmp.resolve("missing").toString(),
                        "KUBERNETES_SERVICE_HOST",
                        "10.0.0.1"),
                    tmp,
                    tmp.resolve("missing-token")))
        .isInstanceOf(BenchplanException.class);
  }

  @Test
  @DisplayName("a kubeconfig with a current context passes the check")
  void currentContext() throws Exception {
    Path kc =
        Files.writeString(tmp.resolve("config"), KUBECONFIG.formatted("current-context: ctx"));
    assertThatCode(
            () ->
                KubeConnection.check(
                    null, Map.of("KUBECONFIG", kc.toString()), tmp, tmp.resolve("x")))
        .doesNotThrowAnyException();
  }

  @Test
  @DisplayName(
      "the entry point run and validate use honours fabric8's 'kubeconfig' property: a missing file is exit 2")
  void entryPointMissingKubeconfig() {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Files.isRegularFile(KubeConnection.SERVICE_ACCOUNT_TOKEN)
            && System.getenv("KUBERNETES_SERVICE_HOST") != null,
        "running inside a cluster: a service account exists");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        System.getenv("KUBERNETES_MASTER") == null, "KUBERNETES_MASTER set");
    Path missing = tmp.resolve("missing-kubeconfig");
    String previous = System.setProperty("kubeconfig", missing.toString());
    try {
      assertThatThrownBy(() -> KubeConnection.open(null))
          .isInstanceOf(BenchplanException.class)
          .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
          .hasMessage(
              noClusterMessage("KUBECONFIG=" + missing, KubeConnection.SERVICE_ACCOUNT_TOKEN))
          .satisfies(KubeConnectionTest::refusedByFileCheck);
    } finally {
      if (previous == null) {
        System.clearProperty("kubeconfig");
      } else {
        System.setProperty("kubeconfig", previous);
      }
    }
  }
}
