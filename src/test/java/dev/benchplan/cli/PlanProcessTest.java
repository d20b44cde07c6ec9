package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code benchplan plan} as separate JVM processes: the environment (SOURCE_DATE_EPOCH) and true
 * concurrency between processes, which in-process tests cannot show.
 */
class PlanProcessTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
  @TempDir Path tmp;

  private Process start(Path expRoot, Path log) throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.benchplan.cli.Main",
                "plan",
                "--workload",
                EXAMPLES.resolve("workload-static.yaml").toString(),
                "--ledger",
                EXAMPLES.resolve("deployment-ledger.yaml").toString(),
                "--question",
                "What throughput does vllm-agg sustain within the support SLOs?",
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                expRoot.toString(),
                "--format",
                "json"));
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("SOURCE_DATE_EPOCH", "1780000000");
    pb.environment().remove("BENCHPLAN_AIPERF_INDEX_URL");
    return pb.start();
  }

  private static int await(Process p) throws InterruptedException {
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("process finished").isTrue();
    return p.exitValue();
  }

  private static List<Path> plans(Path expRoot) throws IOException {
    try (Stream<Path> s = Files.list(expRoot.resolve("inputs/benchmark-plans"))) {
      return s.toList();
    }
  }

  @Test
  @DisplayName(
      "two concurrent plan processes for one series: exactly one file; identical inputs"
          + " under SOURCE_DATE_EPOCH give byte-identical plans")
  void concurrentProcessesAndReproducibility() throws Exception {
    Path shared = tmp.resolve("shared");
    Process a = start(shared, tmp.resolve("a.log"));
    Process b = start(shared, tmp.resolve("b.log"));
    int ca = await(a);
    int cb = await(b);
    String logs = Files.readString(tmp.resolve("a.log")) + Files.readString(tmp.resolve("b.log"));
    assertThat(List.of(ca, cb)).as(logs).containsExactlyInAnyOrder(0, 2);
    assertThat(logs).contains("SERIES_EXISTS");
    assertThat(plans(shared)).hasSize(1);

    Path other = tmp.resolve("other");
    assertThat(await(start(other, tmp.resolve("c.log"))))
        .as(Files.readString(tmp.resolve("c.log")))
        .isZero();
    Path first = plans(shared).get(0);
    Path second = plans(other).get(0);
    assertThat(second.getFileName()).isEqualTo(first.getFileName());
    assertThat(Files.readAllBytes(second)).isEqualTo(Files.readAllBytes(first));
    String plan = Files.readString(first, StandardCharsets.UTF_8);
    // 1780000000 s = 2026-05-28T20:26:40Z: created_at and the series ID's date come from it
    assertThat(plan).contains("\"created_at\": \"2026-05-28T20:26:40Z\"");
    assertThat(first.getFileName().toString()).startsWith("support-chat-20260528-");
  }
}
