package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** When the cluster tier skips and when it fails (unit tier: no environment needed). */
class KubeTestEnvExtensionTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "BENCHPLAN_KUBE_TEST_ENV=0 and nothing running: no start attempt, the reason names the state dir")
  void optOutDoesNotStart() {
    var handle =
        KubeTestEnvExtension.ClusterHandle.obtain(
            tmp.resolve("state"), Map.of("BENCHPLAN_KUBE_TEST_ENV", "0"), tmp);
    assertThat(handle.cluster).isNull();
    assertThat(handle.problem)
        .isEqualTo("BENCHPLAN_KUBE_TEST_ENV=0 and no environment runs in " + tmp.resolve("state"));
  }

  @Test
  @DisplayName("no script above the working directory: the reason says so")
  void noScript() {
    var handle = KubeTestEnvExtension.ClusterHandle.obtain(tmp.resolve("state"), Map.of(), tmp);
    assertThat(handle.problem)
        .isEqualTo("no executable scripts/kube-test-env.sh in " + tmp + " or above");
  }

  @Test
  @DisplayName(
      "without an environment the class is skipped locally but fails with BENCHPLAN_KUBE_TEST_ENV=1 or CI=true")
  void skipOrFail() {
    var handle = KubeTestEnvExtension.ClusterHandle.obtain(tmp.resolve("state"), Map.of(), tmp);
    String noEnvironment =
        "no Kubernetes test environment: no executable scripts/kube-test-env.sh in "
            + tmp
            + " or above (start one with scripts/kube-test-env.sh up)";
    assertThatThrownBy(() -> KubeTestEnvExtension.requireUsable(handle, Map.of()))
        .isInstanceOf(TestAbortedException.class)
        .hasMessage("skipped: " + noEnvironment);
    assertThatThrownBy(
            () ->
                KubeTestEnvExtension.requireUsable(handle, Map.of("BENCHPLAN_KUBE_TEST_ENV", "1")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("BENCHPLAN_KUBE_TEST_ENV=1 or CI=true, but " + noEnvironment);
    assertThatThrownBy(() -> KubeTestEnvExtension.requireUsable(handle, Map.of("CI", "true")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("BENCHPLAN_KUBE_TEST_ENV=1 or CI=true, but " + noEnvironment);
  }

  @Test
  @DisplayName("namespace names are DNS-1123 labels derived from the class name")
  void uniqueNames() {
    String name = KubeTestContext.uniqueName("RunCommandClusterIT");
    assertThat(name).matches("run-command-cluster-it-[0-9a-f]{5}");
    assertThat(KubeTestContext.uniqueName("X".repeat(80))).matches("x{40}-[0-9a-f]{5}");
  }
}
