package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.PlanFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * {@code --format json} on the error paths of every command: exactly one {@code {"error": {...}}}
 * document on stdout valid against schemas/error.schema.json, the same one-line message on stderr,
 * the documented exit code, and no parser or JVM internals in the message.
 */
class ErrorOutputTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();

  /** Words that name internals, never the user's terms. */
  static final List<String> INTERNALS =
      List.of(
          "JsonToken",
          "FAIL_ON",
          "Exception",
          "tools.jackson",
          "java.",
          "unknown found",
          "START_OBJECT",
          "CTRL-CHAR",
          "bound as");

  @TempDir Path dir;
  Path binary;
  Path trailing;
  Path array;
  Path wrongType;
  Path infYaml;
  Path malformedYaml;
  Path regularFile;

  @BeforeEach
  void inputs() throws IOException {
    byte[] bin = new byte[512];
    for (int i = 0; i < bin.length; i++) {
      bin[i] = (byte) (i * 37 + 0x7f);
    }
    binary = Files.write(dir.resolve("binary.json"), bin);
    trailing = Files.writeString(dir.resolve("trailing.json"), "{\"a\": 1} {\"b\": 2}\n");
    array = Files.writeString(dir.resolve("array.json"), "[1, 2]\n");
    wrongType = Files.writeString(dir.resolve("wrong-type.json"), "{\"records\": \"fast\"}\n");
    infYaml =
        Files.writeString(
            dir.resolve("inf.yaml"),
            "validation:\n  performance:\n    checks: [inference-perf]\n    constraints:\n"
                + "      - {name: inference-throughput, value: '>= 5000'}\n    tolerance: .inf\n");
    malformedYaml =
        Files.writeString(
            dir.resolve("malformed.yaml"), "validation:\n  performance: [\n   - a: b\n  c\n");
    regularFile = Files.writeString(dir.resolve("a-file"), "not a folder\n");
  }

  /**
   * Runs {@code args} with --format json and checks the error document; returns its error object.
   */
  static JsonNode error(int exit, String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--format";
    all[args.length + 1] = "json";
    var r = CommandHarness.run(all).expectExit(exit);
    JsonNode doc = Json.JSON.readTree(r.out()); // fails on a second document (trailing tokens)
    assertThat(SchemaValidator.bundled("error.schema.json").validate(doc))
        .as("stdout validates against error.schema.json:%n%s", r.out())
        .isEmpty();
    JsonNode e = doc.get("error");
    assertThat(e.get("exit_code").asInt()).isEqualTo(exit);
    String message = e.get("message").asString();
    assertThat(r.err()).contains("benchplan: " + message);
    for (String word : INTERNALS) {
      assertThat(message).as("message in the user's terms").doesNotContain(word);
    }
    return e;
  }

  @Nested
  class Plan {
    String[] plan(String workload, String ledger, String... more) {
      String[] base = {
        "plan",
        "--workload",
        workload,
        "--ledger",
        ledger,
        "--question",
        "q?",
        "--aiperf-version",
        "0.13.0",
        "--exp-root",
        dir.resolve("exp").toString()
      };
      String[] all = new String[base.length + more.length];
      System.arraycopy(base, 0, all, 0, base.length);
      System.arraycopy(more, 0, all, base.length, more.length);
      return all;
    }

    String ledger() {
      return EXAMPLES.resolve("deployment-ledger.yaml").toString();
    }

    String workload() {
      return EXAMPLES.resolve("workload-static.yaml").toString();
    }

    @Test
    @DisplayName(
        "numeric options out of range or not numbers: exit 2 naming the option and the range")
    void numericOptions() {
      JsonNode big = error(2, plan(workload(), ledger(), "--max-concurrency", "2147483647"));
      assertThat(big.get("code").asString()).isEqualTo("invalid_option");
      assertThat(big.get("field").asString()).isEqualTo("--max-concurrency");
      assertThat(big.get("message").asString())
          .contains("--max-concurrency")
          .contains("from 1 to 100000");
      assertThat(
              error(2, plan(workload(), ledger(), "--max-concurrency", "abc"))
                  .get("message")
                  .asString())
          .contains("'abc' is not a whole number");
      assertThat(
              error(2, plan(workload(), ledger(), "--max-request-rate", "NaN"))
                  .get("field")
                  .asString())
          .isEqualTo("--max-request-rate");
      error(2, plan(workload(), ledger(), "--seed", "99999999999999999999999"));
      error(2, plan(workload(), ledger(), "--repetitions", "0"));
      assertThat(dir.resolve("exp")).doesNotExist();
    }

    @Test
    @DisplayName("--exp-root that is a regular file (or below one): exit 2 before anything runs")
    void expRootIsAFile() {
      JsonNode e =
          error(
              2,
              "plan",
              "--workload",
              workload(),
              "--ledger",
              ledger(),
              "--question",
              "q?",
              "--aiperf-version",
              "0.13.0",
              "--exp-root",
              regularFile.toString());
      assertThat(e.get("field").asString()).isEqualTo("--exp-root");
      assertThat(e.get("message").asString()).contains("expected a directory");
      error(
          2,
          "plan",
          "--workload",
          workload(),
          "--ledger",
          ledger(),
          "--question",
          "q?",
          "--exp-root",
          regularFile.resolve("sub").toString());
    }

    @Test
    @DisplayName(
        "blockers keep their shape, valid against plan-blockers.schema.json, with messages in the user's terms")
    void blockers() {
      for (Path bad : List.of(binary, trailing, array)) {
        var r =
            CommandHarness.run(plan(workload(), bad.toString(), "--format", "json")).expectExit(2);
        JsonNode doc = Json.JSON.readTree(r.out());
        assertThat(SchemaValidator.bundled("plan-blockers.schema.json").validate(doc)).isEmpty();
        String message = doc.at("/blockers/0/message").asString();
        assertThat(message).contains(bad.toString());
        for (String word : INTERNALS) {
          assertThat(message).doesNotContain(word);
        }
      }
      var r =
          CommandHarness.run(plan(workload(), trailing.toString(), "--format", "json"))
              .expectExit(2);
      assertThat(Json.JSON.readTree(r.out()).at("/blockers/0/message").asString())
          .contains(
              trailing
                  + ":1:10: not valid JSON: unexpected content after the end of the first value");
    }
  }

  @Nested
  class NonFinite {
    @Test
    @DisplayName(
        ".inf and .nan in a workload: blockers naming the pointer and 'finite', never 'unknown found'")
    void infAndNan() throws IOException {
      Files.copy(EXAMPLES.resolve("dgd.yaml"), dir.resolve("dgd.yaml"));
      Path workload =
          Files.writeString(
              dir.resolve("workload.yaml"),
              read(EXAMPLES.resolve("workload-static.yaml"))
                  .replace("ttft_ms_p95_max: 300", "ttft_ms_p95_max: .inf")
                  .replace("output_tput_per_gpu_min: 1500", "output_tput_per_gpu_min: .nan"));
      var r = PlanFixture.Examples.json(workload, "q?", dir.resolve("exp")).expectExit(2);
      JsonNode doc = Json.JSON.readTree(r.out());
      assertThat(SchemaValidator.bundled("plan-blockers.schema.json").validate(doc)).isEmpty();
      assertThat(r.out())
          .doesNotContain("unknown found")
          .contains("/objectives/ttft_ms_p95_max: Infinity is not a finite number")
          .contains("/objectives/output_tput_per_gpu_min: NaN is not a finite number");
      assertThat(dir.resolve("exp")).doesNotExist();
    }
  }

  @Nested
  class Render {
    @Test
    @DisplayName(
        "a plan that is binary, has trailing tokens or is not an object: exit 2, file and line named")
    void badPlans() throws IOException {
      Path root = Files.createDirectories(dir.resolve("deploy"));
      for (Path bad : List.of(binary, trailing, array)) {
        JsonNode e =
            error(
                2,
                "render",
                "--plan",
                bad.toString(),
                "--plan-sha256",
                Sha256.ofFile(bad),
                "--deploy-root",
                root.toString());
        assertThat(e.get("code").asString()).isEqualTo("invalid_input");
        assertThat(e.get("file").asString()).isEqualTo(bad.toString());
      }
      JsonNode t =
          error(
              2,
              "render",
              "--plan",
              trailing.toString(),
              "--plan-sha256",
              Sha256.ofFile(trailing),
              "--deploy-root",
              root.toString());
      assertThat(t.get("line").asInt()).isEqualTo(1);
      assertThat(t.get("column").asInt()).isEqualTo(10);
      assertThat(t.get("message").asString())
          .contains("unexpected content after the end of the first value");
      assertThat(root.resolve("benchmark")).doesNotExist();
    }

    @Test
    @DisplayName("--deploy-root that is a file: exit 2; a wrong SHA-256: exit 2 naming the option")
    void deployRootIsAFile() throws IOException {
      error(
          2,
          "render",
          "--plan",
          array.toString(),
          "--plan-sha256",
          Sha256.ofFile(array),
          "--deploy-root",
          regularFile.toString());
      JsonNode sha =
          error(
              2,
              "render",
              "--plan",
              array.toString(),
              "--plan-sha256",
              "0".repeat(64),
              "--deploy-root",
              dir.toString());
      assertThat(sha.get("file").asString()).isEqualTo(array.toString());
    }
  }

  @Nested
  class Gate {
    @Test
    @DisplayName(
        "exports that are binary, trailing, an array, a wrong type or missing: exit 2, one line")
    void badExports() {
      for (Path bad : List.of(binary, trailing, array)) {
        JsonNode e = error(2, "gate", "--results", bad.toString());
        assertThat(e.get("file").asString()).isEqualTo(bad.toString());
      }
      assertThat(error(2, "gate", "--results", binary.toString()).get("message").asString())
          .contains("is this a binary file?");
      JsonNode missing = error(2, "gate", "--results", dir.resolve("absent.json").toString());
      assertThat(missing.get("message").asString()).contains("absent.json");
    }

    @Test
    @DisplayName("a metric of the wrong JSON type: exit 2 with file, pointer and field")
    void wrongType() throws IOException {
      Path export =
          Files.writeString(
              dir.resolve("typed.json"),
              "{\"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": \"fast\"}}\n");
      JsonNode e = error(2, "gate", "--results", export.toString(), "--min-throughput", "5");
      assertThat(e.get("file").asString()).isEqualTo(export.toString());
      assertThat(e.get("pointer").asString()).isEqualTo("/output_token_throughput/avg");
      assertThat(e.get("field").asString()).isEqualTo("avg");
      error(2, "gate", "--results", wrongType.toString());
    }

    @Test
    @DisplayName(
        "--min-throughput 1e999, NaN, abc, -1; --tolerance 1: exit 2 naming the option and range")
    void numericOptions() {
      for (String v : List.of("1e999", "NaN", "abc", "-1", "Infinity", "0")) {
        JsonNode e = error(2, "gate", "--results", array.toString(), "--min-throughput", v);
        assertThat(e.get("field").asString()).isEqualTo("--min-throughput");
        assertThat(e.get("message").asString()).contains("'" + v + "'").contains("greater than 0");
      }
      assertThat(
              error(2, "gate", "--results", array.toString(), "--tolerance", "1")
                  .get("message")
                  .asString())
          .contains("--tolerance")
          .contains("below 1");
      error(2, "gate", "--results", array.toString(), "--max-error-rate", "1.5");
      error(2, "gate", "--results", array.toString(), "--max-ttft-p99", "1e-999");
    }

    @Test
    @DisplayName("a malformed overlay: one line with file:line:column and what was expected")
    void malformedOverlay() {
      JsonNode e =
          error(
              2,
              "gate",
              "--results",
              dev.benchplan.aiperf.export.ExportVariants.real().toString(),
              "--constraints",
              malformedYaml.toString());
      assertThat(e.get("file").asString()).isEqualTo(malformedYaml.toString());
      assertThat(e.get("line").asInt()).isEqualTo(3);
      assertThat(e.get("message").asString())
          .contains(malformedYaml + ":3:4: not valid YAML: ")
          .contains("expected the node content, but found '-'");
    }

    @Test
    @DisplayName("--report-dir that is a file: exit 2 (invalid input), not a run error")
    void reportDirIsAFile() {
      JsonNode e =
          error(2, "gate", "--results", array.toString(), "--report-dir", regularFile.toString());
      assertThat(e.get("field").asString()).isEqualTo("--report-dir");
    }
  }

  @Nested
  class Validate {
    @Test
    @DisplayName("a malformed recipe overlay: one line naming file:line:column, no parser dump")
    void malformedOverlay() {
      JsonNode e =
          error(
              2,
              "validate",
              "--recipe",
              malformedYaml.toString(),
              "--report-dir",
              dir.resolve("rep").toString());
      assertThat(e.get("message").asString())
          .startsWith("recipe overlay " + malformedYaml + ":3:4: not valid YAML");
      assertThat(e.get("line").asInt()).isEqualTo(3);
      assertThat(dir.resolve("rep")).doesNotExist();
    }

    @Test
    @DisplayName("--report-dir that is a file and --isl out of range: exit 2 naming the option")
    void options() {
      assertThat(
              error(2, "validate", "--report-dir", regularFile.toString()).get("field").asString())
          .isEqualTo("--report-dir");
      assertThat(error(2, "validate", "--isl", "0").get("message").asString())
          .contains("from 1 to 10000000");
      assertThat(
              error(2, "validate", "--concurrency-per-worker", "2147483648")
                  .get("field")
                  .asString())
          .isEqualTo("--concurrency-per-worker");
    }
  }

  @Nested
  class Run {
    @Test
    @DisplayName(
        "--deploy-root that is a file, or without perf.yaml: exit 2 before any cluster call")
    void deployRoot() {
      assertThat(error(2, "run", "--deploy-root", regularFile.toString()).get("field").asString())
          .isEqualTo("--deploy-root");
      JsonNode e = error(2, "run", "--deploy-root", dir.toString(), "--context", "no-such-context");
      assertThat(e.get("message").asString()).contains("perf.yaml");
    }

    @Test
    @DisplayName("a malformed perf.yaml: file:line:column, not valid YAML")
    void malformedPerfYaml() throws IOException {
      Path bench = Files.createDirectories(dir.resolve("root/benchmark"));
      Files.writeString(bench.resolve("perf.yaml"), "kind: Job\nmetadata: {name: x\n");
      JsonNode e =
          error(
              2,
              "run",
              "--deploy-root",
              dir.resolve("root").toString(),
              "--context",
              "no-such-context");
      assertThat(e.get("message").asString()).contains("perf.yaml:").contains("not valid YAML");
    }
  }

  @Nested
  class Smoke {
    @Test
    @DisplayName("a URL that is not one, and a timeout that is not a duration: exit 2")
    void badArguments() {
      error(
          2,
          "smoke",
          "--url",
          "not a url",
          "--model",
          "m",
          "--out",
          dir.resolve("s.json").toString());
      JsonNode t =
          error(2, "smoke", "--url", "http://127.0.0.1:1", "--model", "m", "--timeout", "soon");
      assertThat(t.get("field").asString()).isEqualTo("--timeout");
      assertThat(dir.resolve("s.json")).doesNotExist();
    }

    @Test
    @DisplayName(
        "an endpoint that fails: exit 3, one document with the artifact and an error member in error.schema.json's shape")
    void endpointFails() {
      var r =
          CommandHarness.run(
                  "smoke",
                  "--url",
                  "http://127.0.0.1:1",
                  "--model",
                  "m",
                  "--out",
                  dir.resolve("s.json").toString(),
                  "--timeout",
                  "10s",
                  "--format",
                  "json")
              .expectExit(3);
      JsonNode doc = Json.JSON.readTree(r.out());
      assertThat(doc.get("success").asBoolean()).isFalse();
      JsonNode wrapped = Json.JSON.createObjectNode().set("error", doc.get("error"));
      assertThat(SchemaValidator.bundled("error.schema.json").validate(wrapped)).isEmpty();
      assertThat(doc.at("/error/code").asString()).isEqualTo("run_error");
      assertThat(r.err()).contains("benchplan: " + doc.at("/error/message").asString());
      assertThat(dir.resolve("s.json")).exists();
    }
  }

  @Nested
  class TraceInspect {
    @Test
    @DisplayName("a missing trace and --block-size 0: exit 2 with one JSON error")
    void badArguments() {
      JsonNode e = error(2, "trace", "inspect", dir.resolve("absent.jsonl").toString());
      assertThat(e.get("message").asString()).contains("absent.jsonl");
      assertThat(
              error(2, "trace", "inspect", trailing.toString(), "--block-size", "0")
                  .get("field")
                  .asString())
          .isEqualTo("--block-size");
    }
  }

  @Nested
  class Frame {
    @Test
    @DisplayName("an unknown option or command prints the error document too")
    void unknown() {
      assertThat(error(2, "gate", "--frobnicate").get("code").asString())
          .isEqualTo("invalid_option");
      error(2, "frobnicate");
    }

    @Test
    @DisplayName(
        "an unexpected exception is exit 4 (a bug) with code internal_error, in every command")
    void internalError() {
      CommandLine cl = Cli.commandLine();
      cl.addSubcommand("boom", new Boom());
      var out = new java.io.StringWriter();
      var err = new java.io.StringWriter();
      cl.setOut(new java.io.PrintWriter(out, true));
      cl.setErr(new java.io.PrintWriter(err, true));
      assertThat(cl.execute("boom", "--format", "json")).isEqualTo(4);
      JsonNode doc = Json.JSON.readTree(out.toString());
      assertThat(SchemaValidator.bundled("error.schema.json").validate(doc)).isEmpty();
      assertThat(doc.at("/error/code").asString()).isEqualTo("internal_error");
      assertThat(err.toString())
          .contains("internal error: java.lang.IllegalStateException: boom")
          .contains("--stacktrace");
    }

    @Test
    @DisplayName("without --format json, stdout stays empty on an error")
    void textStdoutEmpty() {
      var r = CommandHarness.run("gate", "--results", trailing.toString()).expectExit(2);
      assertThat(r.out()).isEmpty();
      assertThat(r.err().lines()).hasSize(1);
    }
  }

  @CommandLine.Command(name = "boom")
  static final class Boom implements Callable<Integer> {
    @CommandLine.Mixin FormatMixin format;

    @Override
    public Integer call() {
      throw new IllegalStateException("boom");
    }
  }

  static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
