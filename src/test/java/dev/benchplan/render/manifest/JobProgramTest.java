package dev.benchplan.render.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.benchplan.json.Sha256;
import dev.benchplan.render.JobContract;
import dev.benchplan.testing.SharedData;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the Job's real program with python3 (as mounted from the config ConfigMap) against a
 * /v1/models endpoint on 127.0.0.1 and a stand-in {@code aiperf} on PATH that writes AIPerf's real
 * summary export, and checks the output contract {@code run} parses.
 */
class JobProgramTest {
  static final String MODEL = "Qwen/Qwen3-0.6B";

  @TempDir Path tmp;
  HttpServer server;
  AtomicInteger polls = new AtomicInteger();
  volatile int listAfterPolls;
  AtomicInteger chats = new AtomicInteger();
  volatile int answerAfterChats;
  Path artifacts;
  Path bin;
  Path configDir;
  Path program;

  record Outcome(int exit, String out, String err, double seconds) {}

  @BeforeEach
  void setUp() throws Exception {
    Assumptions.assumeTrue(
        onPath("bash") && onPath("python3"), "skipped: bash and python3 are needed");
    configDir = tmp.resolve("config");
    program = JobProgramFiles.install(configDir);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/v1/models",
        ex -> {
          int n = polls.incrementAndGet();
          String ids =
              n > listAfterPolls ? "{\"id\": \"" + MODEL + "\"}" : "{\"id\": \"other/model\"}";
          byte[] body =
              ("{\"object\": \"list\", \"data\": [" + ids + "]}").getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, body.length);
          try (OutputStream os = ex.getResponseBody()) {
            os.write(body);
          }
        });
    server.createContext(
        "/v1/chat/completions",
        ex -> {
          String request = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          boolean ready =
              chats.incrementAndGet() > answerAfterChats
                  && "POST".equals(ex.getRequestMethod())
                  && request.contains("\"" + MODEL + "\"");
          byte[] body =
              (ready
                      ? "{\"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": \"OK\"}}]}"
                      : "{\"error\": \"no workers yet\"}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(ready ? 200 : 503, body.length);
          try (OutputStream os = ex.getResponseBody()) {
            os.write(body);
          }
        });
    server.start();
    artifacts = tmp.resolve("artifacts/20261130T123456Z-abcd");
    bin = Files.createDirectories(tmp.resolve("bin"));
    // stand-in aiperf: records its arguments, writes the summary AIPerf would write, exits as told
    Path fake = bin.resolve("aiperf");
    Files.writeString(
        fake,
        String.join(
            "\n",
            "#!/usr/bin/env bash",
            "printf '%s\\n' \"$@\" >> \"$FAKE_ARGS_FILE\"",
            // the artifact dir a config names (sequence mode), else the Job's
            "out=$(python3 -c 'import re, sys; m = re.search(r\"^\\s*dir: *\\\"?([^\\\"\\n]+)\", open(sys.argv[1]).read(), re.M) if len(sys.argv) > 1 else None; print(m.group(1) if m else \"\")' \"${3:-}\" 2>/dev/null)",
            "out=\"${out:-$BENCHPLAN_ARTIFACT_DIR}\"",
            "python3 -c 'import os, sys; os.makedirs(sys.argv[1], exist_ok=True)' \"$out\"",
            "if [ -n \"${FAKE_SUMMARY:-}\" ]; then python3 -c 'import shutil, sys; shutil.copyfile(sys.argv[1], sys.argv[2])' \"$FAKE_SUMMARY\" \"$out/profile_export_aiperf.json\"; fi",
            "if [ -n \"${FAKE_TREE:-}\" ]; then python3 -c 'import shutil, sys; shutil.copytree(sys.argv[1], sys.argv[2], dirs_exist_ok=True)' \"$FAKE_TREE\" \"$out\"; fi",
            "echo 'aiperf log line'",
            "exit \"${FAKE_EXIT:-0}\"",
            ""));
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.stop(0);
    }
  }

  private Outcome run(Map<String, String> extraEnv, String... aiperfArgs) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("python3", program.toString()));
    cmd.addAll(List.of(aiperfArgs));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    Map<String, String> env = pb.environment();
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    env.put("BENCHPLAN_ENDPOINT", "http://127.0.0.1:" + server.getAddress().getPort());
    env.put("BENCHPLAN_MODEL", MODEL);
    env.put("BENCHPLAN_MODEL_WAIT_SECONDS", "20");
    env.put("BENCHPLAN_MODEL_POLL_SECONDS", "0.2");
    env.put("BENCHPLAN_ARTIFACT_DIR", artifacts.toString());
    env.put("FAKE_ARGS_FILE", tmp.resolve("args.txt").toString());
    env.putAll(extraEnv);
    Path out = tmp.resolve("stdout");
    Path err = tmp.resolve("stderr");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    long start = System.nanoTime();
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("script finished").isTrue();
    return new Outcome(
        p.exitValue(),
        Files.readString(out),
        Files.readString(err),
        (System.nanoTime() - start) / 1e9);
  }

  @Test
  @DisplayName(
      "waits until the model is listed, runs aiperf with the exact arguments, prints the summary unchanged and the exit line")
  void happyPath() throws Exception {
    Path summary = SharedData.require("aiperf/profile_export_aiperf.json");
    listAfterPolls = 2;
    String hostile = "--model=org/m: v1 # \"q\" 'x'";
    Outcome o =
        run(
            Map.of("FAKE_SUMMARY", summary.toString()),
            "--config",
            "/benchplan/config/aiperf-config.yaml",
            hostile);
    assertThat(o.exit()).as(o.err()).isZero();
    assertThat(polls.get()).isGreaterThanOrEqualTo(3);
    assertThat(Files.readAllLines(tmp.resolve("args.txt")))
        .containsExactly("profile", "--config", "/benchplan/config/aiperf-config.yaml", hostile);
    String out = o.out();
    int begin = out.indexOf(JobContract.SUMMARY_BEGIN + "\n");
    int end = out.indexOf("\n" + JobContract.SUMMARY_END + "\n");
    assertThat(begin).isNotNegative();
    assertThat(end).isGreaterThan(begin);
    String between = out.substring(begin + JobContract.SUMMARY_BEGIN.length() + 1, end + 1);
    assertThat(Sha256.hex(between.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(Sha256.ofFile(summary));
    assertThat(out).startsWith("aiperf log line\n").endsWith("==== benchplan:aiperf-exit:0 ====\n");
    assertThat(o.err()).contains("waiting for 'Qwen/Qwen3-0.6B'", "lists 'Qwen/Qwen3-0.6B'");
  }

  @Test
  @DisplayName(
      "after AIPerf, every file it wrote travels the log as a verified block the decoder restores byte for byte")
  void shipsArtifacts() throws Exception {
    Path tree = SharedData.require("aiperf/sweep-qwen3-0.6b/concurrency2");
    Outcome o = run(Map.of("FAKE_TREE", tree.toString()), "--config", "x");
    assertThat(o.exit()).as(o.err()).isZero();
    assertThat(o.out())
        .contains(dev.benchplan.artifacts.ArtifactChannel.BEGIN)
        .endsWith("==== benchplan:aiperf-exit:0 ====\n");
    dev.benchplan.artifacts.ArtifactManifest m =
        dev.benchplan.artifacts.ArtifactChannel.decode(
            new java.io.BufferedReader(new java.io.StringReader(o.out())),
            tmp.resolve("restored"),
            "stdout");
    assertThat(m.paths())
        .containsExactly(
            "gpu_telemetry_export.jsonl", "profile_export.jsonl", "profile_export_aiperf.json");
    for (String f : m.paths()) {
      assertThat(Sha256.ofFile(tmp.resolve("restored").resolve(f)))
          .isEqualTo(Sha256.ofFile(tree.resolve(f)));
    }
  }

  @Test
  @DisplayName("past the log bound the tree is not shipped, and the log says so")
  void tooLarge() throws Exception {
    Path tree = SharedData.require("aiperf/sweep-qwen3-0.6b/concurrency2");
    Outcome o =
        run(
            Map.of("FAKE_TREE", tree.toString(), "BENCHPLAN_ARTIFACT_LOG_MAX_BYTES", "1000"),
            "--config",
            "x");
    assertThat(o.out())
        .containsPattern("==== benchplan:artifacts:too-large files=3 bytes=7\\d{4} max=1000 ====")
        .doesNotContain(dev.benchplan.artifacts.ArtifactChannel.BEGIN);
  }

  @Test
  @DisplayName(
      "several load points: one config key per point, AIPerf runs once per point in order, each framed, the first failure is the Job's code")
  void sequence() throws Exception {
    for (String d : List.of("concurrency_1", "concurrency_2")) {
      Files.writeString(
          configDir.resolve(JobProgram.runConfigKey(d)),
          "# header\nbenchmark:\n  artifacts:\n    dir: \"" + artifacts + "/" + d + "\"\n");
    }
    Path summary = SharedData.require("aiperf/profile_export_aiperf.json");
    Outcome o =
        run(
            Map.of(
                "FAKE_SUMMARY",
                summary.toString(),
                "BENCHPLAN_CONFIG_DIR",
                configDir.toString(),
                "BENCHPLAN_RUN_DIRS",
                "concurrency_1 concurrency_2"),
            "--config",
            "ignored-in-sequence-mode");
    assertThat(o.exit()).as(o.err()).isZero();
    assertThat(Files.readAllLines(tmp.resolve("args.txt")))
        .containsExactly(
            "profile",
            "--config",
            configDir.resolve("aiperf-config.concurrency_1.yaml").toString(),
            "profile",
            "--config",
            configDir.resolve("aiperf-config.concurrency_2.yaml").toString());
    assertThat(o.out())
        .containsPattern("==== benchplan:aiperf-run:begin concurrency_1 [0-9.,]+ ====\n")
        .containsPattern("==== benchplan:aiperf-run:end concurrency_2 0 [0-9.,]+ ====\n");
    dev.benchplan.artifacts.ArtifactManifest m =
        dev.benchplan.artifacts.ArtifactChannel.decode(
            new java.io.BufferedReader(new java.io.StringReader(o.out())),
            tmp.resolve("restored"),
            "stdout");
    assertThat(m.paths())
        .containsExactly(
            "concurrency_1/profile_export_aiperf.json", "concurrency_2/profile_export_aiperf.json");

    Outcome missing =
        run(
            Map.of(
                "FAKE_SUMMARY",
                summary.toString(),
                "BENCHPLAN_CONFIG_DIR",
                configDir.toString(),
                "BENCHPLAN_RUN_DIRS",
                "concurrency_1 concurrency_3"));
    assertThat(missing.exit()).isEqualTo(JobProgram.EXIT_ARTIFACT_DIR);
    assertThat(missing.err())
        .endsWith(
            "\nbenchplan: "
                + configDir.resolve("aiperf-config.concurrency_3.yaml")
                + " is missing: the ConfigMap holds no config for run concurrency_3\n");
    assertThat(missing.out())
        .containsPattern("==== benchplan:aiperf-run:end concurrency_1 0 [0-9.,]+ ====\n")
        .containsPattern("==== benchplan:aiperf-run:end concurrency_3 73 [0-9.,]+ ====\n");
  }

  @Test
  @DisplayName(
      "AIPerf exiting 0 without writing its summary fails the Job with 66 and names the cause")
  void summaryMissing() throws Exception {
    Outcome o = run(Map.of(), "--config", "x");
    assertThat(o.exit()).isEqualTo(JobProgram.EXIT_NO_SUMMARY);
    assertThat(o.err())
        .endsWith(
            "\nbenchplan: aiperf exited 0 but wrote no profile_export_aiperf.json under "
                + artifacts
                + ": no result to gate (AIPerf 0.11 does this when its export dependencies, e.g."
                + " pyarrow, are missing from the image)\n");
    assertThat(o.out())
        .doesNotContain(JobContract.SUMMARY_BEGIN)
        .endsWith("==== benchplan:aiperf-exit:66 ====\n");
  }

  @Test
  @DisplayName(
      "several load points: a point whose AIPerf exits 0 without a summary is that run's failure, the next still runs")
  void summaryMissingInSequence() throws Exception {
    for (String d : List.of("concurrency_1", "concurrency_2")) {
      Files.writeString(
          configDir.resolve(JobProgram.runConfigKey(d)),
          "benchmark:\n  artifacts:\n    dir: \"" + artifacts + "/" + d + "\"\n");
    }
    // the summary only where the fake writes its tree: concurrency_2 gets one, concurrency_1 none
    Path tree = Files.createDirectories(tmp.resolve("tree"));
    Files.writeString(tree.resolve("profile_export.jsonl"), "{}\n");
    Outcome o =
        run(
            Map.of(
                "FAKE_TREE",
                tree.toString(),
                "BENCHPLAN_CONFIG_DIR",
                configDir.toString(),
                "BENCHPLAN_RUN_DIRS",
                "concurrency_1 concurrency_2"));
    assertThat(o.exit()).isEqualTo(JobProgram.EXIT_NO_SUMMARY);
    assertThat(o.out())
        .containsPattern("==== benchplan:aiperf-run:end concurrency_1 66 [0-9.,]+ ====\n")
        .containsPattern("==== benchplan:aiperf-run:end concurrency_2 66 [0-9.,]+ ====\n")
        .endsWith("==== benchplan:aiperf-exit:66 ====\n");
    assertThat(o.err().lines())
        .contains(
            "benchplan: aiperf exited 0 but wrote no profile_export_aiperf.json under "
                + artifacts
                + "/concurrency_1: no result to gate (AIPerf 0.11 does this when its export"
                + " dependencies, e.g. pyarrow, are missing from the image)");
  }

  @Test
  @DisplayName("a failing AIPerf without a summary still ends with its exit code")
  void aiperfFails() throws Exception {
    Outcome o = run(Map.of("FAKE_EXIT", "3"), "--config", "x");
    assertThat(o.exit()).isEqualTo(3);
    assertThat(o.out())
        .doesNotContain(JobContract.SUMMARY_BEGIN)
        .endsWith("==== benchplan:aiperf-exit:3 ====\n");
  }

  @Test
  @DisplayName(
      "a summary without a final newline is printed unchanged, the end marker on its own line")
  void summaryWithoutNewline() throws Exception {
    Path summary = Files.writeString(tmp.resolve("s.json"), "{\"request_count\": {\"avg\": 5}}");
    Outcome o = run(Map.of("FAKE_SUMMARY", summary.toString()));
    assertThat(o.out())
        .contains(
            JobContract.SUMMARY_BEGIN
                + "\n{\"request_count\": {\"avg\": 5}}\n"
                + JobContract.SUMMARY_END
                + "\n");
  }

  @Test
  @DisplayName("the wait for the model is bounded: it gives up, never runs aiperf, and says why")
  void boundedWait() throws Exception {
    listAfterPolls = Integer.MAX_VALUE;
    Outcome o = run(Map.of("BENCHPLAN_MODEL_WAIT_SECONDS", "2"));
    assertThat(o.exit()).isEqualTo(JobProgram.EXIT_MODEL_NOT_LISTED);
    assertThat(o.seconds()).isLessThan(15);
    assertThat(Files.exists(tmp.resolve("args.txt"))).isFalse();
    assertThat(o.out())
        .isEqualTo(
            "==== benchplan:preflight-failed:model-not-listed ====\n==== benchplan:aiperf-exit:124 ====\n");
    assertThat(o.err()).contains("did not list 'Qwen/Qwen3-0.6B' within 2 s", "other/model");
  }

  @Test
  @DisplayName("a listed model is not enough: the wait lasts until a real chat completion succeeds")
  void waitsForChatCompletion() throws Exception {
    answerAfterChats = 3;
    Outcome o = run(Map.of("FAKE_SUMMARY", summaryFile().toString()));
    assertThat(o.exit()).as(o.err()).isZero();
    assertThat(chats.get()).isEqualTo(4);
    assertThat(o.err()).contains("answered a chat completion for 'Qwen/Qwen3-0.6B'", "HTTPError");
  }

  @Test
  @DisplayName(
      "a frontend that lists the model but never completes a chat fails within the bound, without aiperf")
  void chatNeverAnswers() throws Exception {
    answerAfterChats = Integer.MAX_VALUE;
    Outcome o = run(Map.of("BENCHPLAN_MODEL_WAIT_SECONDS", "2"));
    assertThat(o.exit()).isEqualTo(JobProgram.EXIT_MODEL_NOT_LISTED);
    assertThat(Files.exists(tmp.resolve("args.txt"))).isFalse();
    assertThat(o.err())
        .contains("did not answer a chat completion for 'Qwen/Qwen3-0.6B' within 2 s");
  }

  @Test
  @DisplayName("an unreachable endpoint is also waited for, within the bound")
  void unreachableEndpoint() throws Exception {
    server.stop(0);
    Outcome o = run(Map.of("BENCHPLAN_MODEL_WAIT_SECONDS", "1"));
    assertThat(o.exit()).isEqualTo(124);
    assertThat(o.err()).contains("URLError");
  }

  @Test
  @DisplayName("the trace in the pod must hash to the plan's SHA-256 before AIPerf runs")
  void traceCheck() throws Exception {
    Path trace =
        Files.writeString(
            tmp.resolve("trace.jsonl"),
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5}\n");
    Outcome bad =
        run(
            Map.of(
                "BENCHPLAN_TRACE_PATH",
                trace.toString(),
                "BENCHPLAN_TRACE_SHA256",
                "0".repeat(64)));
    assertThat(bad.exit()).isEqualTo(JobProgram.EXIT_TRACE_MISMATCH);
    assertThat(bad.out()).startsWith("==== benchplan:preflight-failed:trace-sha256 ====");
    assertThat(bad.err())
        .isEqualTo(
            "benchplan: trace "
                + trace
                + " has SHA-256 "
                + Sha256.ofFile(trace)
                + ", the plan recorded "
                + "0".repeat(64)
                + "\n");
    assertThat(Files.exists(tmp.resolve("args.txt"))).isFalse();

    Outcome good =
        run(
            Map.of(
                "BENCHPLAN_TRACE_PATH",
                trace.toString(),
                "BENCHPLAN_TRACE_SHA256",
                Sha256.ofFile(trace),
                "FAKE_SUMMARY",
                summaryFile().toString()));
    assertThat(good.exit()).isZero();
    assertThat(good.err()).contains("matches the plan");
  }

  @Test
  @DisplayName("an image without aiperf fails with 127 and the exit line")
  void noAiperf() throws Exception {
    Files.delete(bin.resolve("aiperf"));
    Outcome o = run(Map.of("PATH", bin + ":/usr/bin:/bin"));
    assertThat(o.exit()).isEqualTo(127);
    assertThat(o.out()).endsWith("==== benchplan:aiperf-exit:127 ====\n");
  }

  /** A small summary for tests about something else than the summary. */
  private Path summaryFile() throws java.io.IOException {
    return Files.writeString(
        tmp.resolve("small-summary.json"), "{\"request_count\": {\"avg\": 5}}\n");
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv("PATH").split(":")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }
}
