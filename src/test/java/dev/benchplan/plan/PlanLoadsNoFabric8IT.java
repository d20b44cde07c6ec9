package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.Launcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code plan} from the shaded jar with {@code -verbose:class}: planning never talks to a
 * cluster, so it must not load a single fabric8 class (JVM start time).
 */
class PlanLoadsNoFabric8IT {
  @TempDir Path dir;

  @Test
  @DisplayName("plan (with a trace) from the shaded jar loads no io.fabric8 class")
  void noFabric8() throws IOException, InterruptedException {
    Path jar = Launcher.requireJar();
    Path examples = Paths.get("examples").toAbsolutePath();
    Path out = dir.resolve("stdout.txt");
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-verbose:class",
                "-jar",
                jar.toString(),
                "plan",
                "--workload",
                examples.resolve("workload-trace.yaml").toString(),
                "--ledger",
                examples.resolve("deployment-ledger.yaml").toString(),
                "--question",
                "Does the replay keep TTFT p95 under 2 s?",
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                dir.resolve("exp").toString(),
                "--format",
                "json")
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished in time").isTrue();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("exit code; output:%n%s", lines).isZero();
    assertThat(lines).anyMatch(l -> l.contains("dev.benchplan.plan.PlanService"));
    assertThat(lines).anyMatch(l -> l.contains("dev.benchplan.trace.TraceScanner"));
    assertThat(lines).anyMatch(l -> l.contains("\"workload_source\" : \"user_trace\""));
    assertThat(lines).filteredOn(l -> l.contains("io.fabric8")).isEmpty();
  }
}
