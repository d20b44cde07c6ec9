package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.run.RunRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decisions both engines and {@code run --from-log} share before touching the cluster. */
class RunStartTest {
  @TempDir Path tmp;

  @Test
  @DisplayName("namespace: --namespace, else the rendered one, else the context's, else default")
  void namespace() {
    RunRequest given = RunRequest.builder(tmp).namespace("given").build();
    RunRequest none = RunRequest.builder(tmp).build();
    assertThat(RunStart.namespace(given, "rendered", "context")).isEqualTo("given");
    assertThat(RunStart.namespace(none, "rendered", "context")).isEqualTo("rendered");
    assertThat(RunStart.namespace(none, null, "context")).isEqualTo("context");
    assertThat(RunStart.namespace(none, null, null)).isEqualTo("default");
  }

  @Test
  @DisplayName("bound: --timeout, else the object's deadline plus the margin, else the default")
  void bound() {
    Duration margin = Duration.ofSeconds(60);
    RunRequest timed = RunRequest.builder(tmp).timeout(Duration.ofMinutes(2)).build();
    RunRequest none = RunRequest.builder(tmp).build();
    assertThat(RunStart.bound(timed, 600L, margin)).isEqualTo(Duration.ofMinutes(2));
    assertThat(RunStart.bound(none, 600L, margin)).isEqualTo(Duration.ofSeconds(660));
    assertThat(RunStart.bound(none, 0L, margin)).isEqualTo(KubeRunService.DEFAULT_RUN_BOUND);
    assertThat(RunStart.bound(none, null, margin)).isEqualTo(KubeRunService.DEFAULT_RUN_BOUND);
  }

  @Test
  @DisplayName(
      "a run-id already collected: exit 2 in one wording for every engine, unless --replace")
  void collected() throws Exception {
    RunRequest request = RunRequest.builder(tmp).build();
    Files.createDirectories(request.runsDir().resolve("20261205T090000Z-a1b2"));
    assertThatThrownBy(() -> RunStart.directory(request, "20261205T090000Z-a1b2"))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            request.runsDir().resolve("20261205T090000Z-a1b2")
                + ": run 20261205T090000Z-a1b2 was already collected: re-render for a new run-id,"
                + " or use --replace (the earlier directory is kept under a new name)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    assertThat(
            RunStart.directory(
                    RunRequest.builder(tmp).replace(true).build(), "20261205T090000Z-a1b2")
                .exists())
        .isTrue();
    assertThat(RunStart.directory(request, "20261205T090001Z-c3d4").exists()).isFalse();
  }
}
