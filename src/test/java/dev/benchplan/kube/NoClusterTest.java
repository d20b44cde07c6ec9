package dev.benchplan.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.run.RunFixtures;
import dev.benchplan.kube.run.RunServices;
import dev.benchplan.kube.validate.ValidateFactory;
import dev.benchplan.run.RunRequest;
import dev.benchplan.validate.ValidateOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 7: run and validate with no loadable kube context and no in-cluster service account
 * stop with exit 2 before any API call, naming what is missing and how to set it.
 */
class NoClusterTest {
  @TempDir Path tmp;
  Path missing;
  String previous;

  @BeforeEach
  void noCluster() {
    Assumptions.assumeFalse(
        Files.isRegularFile(KubeConnection.SERVICE_ACCOUNT_TOKEN)
            && System.getenv("KUBERNETES_SERVICE_HOST") != null,
        "running inside a cluster: a service account exists");
    Assumptions.assumeTrue(System.getenv("KUBERNETES_MASTER") == null, "KUBERNETES_MASTER is set");
    missing = tmp.resolve("no-such-kubeconfig");
    // fabric8 reads this property before $KUBECONFIG, and so does KubeConnection
    previous = System.setProperty("kubeconfig", missing.toString());
  }

  @AfterEach
  void restore() {
    if (previous == null) {
      System.clearProperty("kubeconfig");
    } else {
      System.setProperty("kubeconfig", previous);
    }
  }

  @Test
  @DisplayName(
      "run: exit 2 at once naming the missing kubeconfig, not an API error after the client's timeouts")
  void run() {
    RunFixtures.create(tmp, null, 50, 35);
    assertThatThrownBy(
            () ->
                RunServices.kubernetes()
                    .run(
                        RunRequest.builder(tmp.resolve("deploy"))
                            .timeout(Duration.ofSeconds(30))
                            .scheduleTimeout(Duration.ofSeconds(15))
                            .build(),
                        (phase, elapsed, detail) -> {}))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            KubeConnectionTest.noClusterMessage(
                "KUBECONFIG=" + missing, KubeConnection.SERVICE_ACCOUNT_TOKEN))
        .satisfies(KubeConnectionTest::refusedByFileCheck);
  }

  @Test
  @DisplayName("validate: exit 2 at step connect naming the missing kubeconfig; nothing written")
  void validate() {
    Path reports = tmp.resolve("report");
    ValidateOptions options = ValidateOptions.builder(reports).aiperfVersion("0.4.0").build();
    assertThatThrownBy(
            () ->
                ValidateFactory.service(new PrintWriter(new StringWriter()), "t").execute(options))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            KubeConnectionTest.noClusterMessage(
                "KUBECONFIG=" + missing, KubeConnection.SERVICE_ACCOUNT_TOKEN))
        .satisfies(KubeConnectionTest::refusedByFileCheck);
    assertThat(reports).doesNotExist();
  }
}
