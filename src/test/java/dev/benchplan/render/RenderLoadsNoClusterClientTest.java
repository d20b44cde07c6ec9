package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** render never talks to a cluster, so a whole render in a fresh JVM loads no fabric8 class. */
class RenderLoadsNoClusterClientTest {
  @TempDir Path tmp;

  @Test
  @DisplayName("a render in a fresh JVM loads no io.fabric8 class")
  void noFabric8() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("plan.json"));
    Path root = Files.createDirectories(tmp.resolve("d"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder pb =
        new ProcessBuilder(
            List.of(
                java.toString(),
                "-verbose:class",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.benchplan.cli.Main",
                "render",
                "--plan",
                plan.path().toString(),
                "--plan-sha256",
                plan.sha256(),
                "--deploy-root",
                root.toString()));
    Path log = tmp.resolve("classes.log");
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String out = Files.readString(log);
    assertThat(p.exitValue())
        .as(out.lines().filter(l -> !l.startsWith("[")).toList().toString())
        .isZero();
    assertThat(out).contains("dev.benchplan.render.PlanRenderer");
    assertThat(out.lines().filter(l -> l.contains("io.fabric8")).toList()).isEmpty();
    assertThat(Files.exists(root.resolve("benchmark/perf.yaml"))).isTrue();
  }
}
