package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.progress.RunProgress;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.testing.Coreutils;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code run --from-log}: a pod log as the Job program prints it (the real summary, the real
 * encoder's artifact block of a real AIPerf sweep, the exit line) becomes the run directory {@code
 * run} writes, through the same collection and finisher; a cut or tampered log is exit 2 and writes
 * nothing. The real engine's own logs are recovered in RealEngineIT.
 */
class LogRecoveryTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-05T09:00:00Z"), ZoneOffset.UTC);
  private static final RunProgress QUIET = (phase, elapsed, detail) -> {};

  @TempDir Path tmp;
  private RunFixture f;
  private String log;

  @BeforeEach
  void fixture() throws Exception {
    f = RunFixture.create(tmp, "bench", 50, 35);
    String block = artifactBlock(tmp);
    String plain = RunFixture.logWithRealSummary(0);
    int exit = plain.lastIndexOf("==== benchplan:aiperf-exit:");
    log = plain.substring(0, exit) + block + plain.substring(exit);
  }

  /** The real encoder's block for the real sweep (python3 as in the AIPerf image). */
  private static String artifactBlock(Path tmp) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        new ProcessBuilder("python3", "-c", "pass").start().waitFor() == 0,
        "python3 is needed for the encoder");
    Path tree = dev.benchplan.testing.SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path script =
        Files.writeString(
            tmp.resolve("ship.py"), dev.benchplan.artifacts.ArtifactChannel.encoderScript());
    Process p = new ProcessBuilder("python3", script.toString(), tree.toString()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    return out;
  }

  private Path savedLog() {
    return tmp.resolve("saved-pod.log");
  }

  private String noEndMarkerMessage() {
    return savedLog()
        + ": no end marker (the Job's last line '==== benchplan:aiperf-exit:<code> ===='): the log"
        + " is cut, or was saved before the Job ended; nothing written";
  }

  private RunOutcome recover(String text, boolean replace) throws Exception {
    Path file = Files.writeString(savedLog(), text, StandardCharsets.UTF_8);
    return LogRecovery.recover(
        RunRequest.builder(f.deployRoot).timeout(Duration.ofSeconds(30)).replace(replace).build(),
        file,
        CLOCK,
        QUIET);
  }

  @Test
  @DisplayName(
      "a whole saved log: the verified run directory run writes, pod and node null, not eligible (ISOLATION_UNVERIFIED)")
  void recovered() throws Exception {
    RunOutcome o = recover(log, false);
    assertThat(o.runDir()).isEqualTo(f.runDir());
    assertThat(o.exitCode()).as(o.verdict().message()).isEqualTo(o.verdict().exitCode());
    assertThat(o.cleanup()).singleElement().asString().startsWith("nothing in the cluster");
    JsonNode run = Json.JSON.readTree(Files.readAllBytes(f.runDir().resolve("run.json")));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    assertThat(run.get("pod").isNull()).isTrue();
    assertThat(run.at("/isolation/client/node").isNull()).isTrue();
    assertThat(run.at("/isolation/verified").asBoolean()).isFalse();
    assertThat(run.at("/times/pod_scheduled_at").isNull()).isTrue();
    assertThat(run.get("eligible").asBoolean()).isFalse();
    assertThat(run.get("ineligible_reasons").toString())
        .contains("ISOLATION_UNVERIFIED: recovered from the saved pod log");
    assertThat(run.get("verdict").asString()).isEqualTo(o.verdict().verdict().json());
    // the same files run writes, the tree verified by coreutils
    for (String name :
        List.of(
            "pod.log",
            "profile_export_aiperf.json",
            "artifacts.sha256",
            "verdict.json",
            "ctrf-report.json",
            "junit.xml")) {
      assertThat(f.runDir().resolve(name)).isRegularFile();
    }
    assertThat(Files.readString(f.runDir().resolve("pod.log"))).isEqualTo(log);
    String out = Coreutils.sha256sumCheck(f.runDir());
    assertThat(out).contains("aiperf/concurrency4/profile_export.jsonl: OK");
  }

  @Test
  @DisplayName(
      "a log without the Job's exit line (cut, or saved while running): exit 2, nothing written")
  void noEndMarker() {
    String cut = log.substring(0, log.lastIndexOf("==== benchplan:aiperf-exit:"));
    assertRefused(cut, noEndMarkerMessage());
  }

  @Test
  @DisplayName("a log cut inside its artifact block: exit 2 naming the cut, nothing written")
  void cutInBlock() {
    String cut =
        log.substring(0, log.indexOf("\nC 5 ") + 1)
            + log.substring(log.lastIndexOf("==== benchplan:aiperf-exit:"));
    assertRefused(
        cut,
        "saved pod log "
            + savedLog()
            + ": unexpected line inside the artifact block after chunk 4: '==== benchplan:aiperf-exit:0"
            + " ===='; nothing written");
  }

  @Test
  @DisplayName("a chunk whose bytes were changed: exit 2 naming the chunk, nothing written")
  void tampered() {
    int at = log.indexOf("\nC 3 ") + 1;
    // 10 characters into the chunk's base64 ('C 3 ', the SHA-256 and a space come first)
    int data = at + 4 + 64 + 1 + 10;
    char c = log.charAt(data);
    String tampered = log.substring(0, data) + (c == 'A' ? 'B' : 'A') + log.substring(data + 1);
    String[] chunk = tampered.substring(at, tampered.indexOf('\n', at)).split(" ");
    assertRefused(
        tampered,
        "saved pod log "
            + savedLog()
            + ": artifact chunk 3 has SHA-256 "
            + Sha256.hex(Base64.getDecoder().decode(chunk[3]))
            + ", its line says "
            + chunk[2]
            + " (corrupted in transit); nothing written");
  }

  @Test
  @DisplayName("an existing run directory is kept unless --replace (exit 2)")
  void existing() throws Exception {
    recover(log, false);
    assertThatThrownBy(() -> recover(log, false))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            f.runDir()
                + ": run "
                + RunFixture.RUN_ID
                + " was already collected: re-render for a new run-id, or use --replace (the"
                + " earlier directory is kept under a new name)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    RunOutcome again = recover(log, true);
    assertThat(again.runDir()).isEqualTo(f.runDir());
    // the log is looked at first: an empty one on an already-collected root names the log
    assertThatThrownBy(() -> recover("", false))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(noEndMarkerMessage())
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
  }

  private void assertRefused(String text, String message) {
    assertThatThrownBy(() -> recover(text, false))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    Path runs = f.runDir().getParent();
    if (Files.exists(runs)) {
      try (Stream<Path> s = Files.list(runs)) {
        assertThat(s.toList()).as("nothing written").isEmpty();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }
}
