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
    assertThat(r.err().lines())
        .as("the message is one whole line of stderr")
        .contains("benchplan: " + message);
    for (String word : INTERNALS) {
      assertThat(message).as("message in the user's terms").doesNotContain(word);
    }
    return e;
  }

  /** Runs {@code args} as {@link #error} does and compares the whole one-line message. */
  static JsonNode errorSaying(int exit, String expectedMessage, String... args) {
    JsonNode e = error(exit, args);
    assertThat(e.get("message").asString()).isEqualTo(expectedMessage);
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
      JsonNode big =
          errorSaying(
              2,
              "Invalid value for option '--max-concurrency': '2147483647' is out of range;"
                  + " expected a whole number from 1 to 100000",
              plan(workload(), ledger(), "--max-concurrency", "2147483647"));
      assertThat(big.get("code").asString()).isEqualTo("invalid_option");
      assertThat(big.get("field").asString()).isEqualTo("--max-concurrency");
      errorSaying(
          2,
          "Invalid value for option '--max-concurrency': 'abc' is not a whole number;"
              + " expected a whole number from 1 to 100000",
          plan(workload(), ledger(), "--max-concurrency", "abc"));
      assertThat(
              errorSaying(
                      2,
                      "Invalid value for option '--max-request-rate': 'NaN' is not a finite decimal"
                          + " number; expected a number of at least 0.001 and at most 100000",
                      plan(workload(), ledger(), "--max-request-rate", "NaN"))
                  .get("field")
                  .asString())
          .isEqualTo("--max-request-rate");
      errorSaying(
          2,
          "Invalid value for option '--seed': '99999999999999999999999' is out of range;"
              + " expected a whole number from 0 to 4294967295",
          plan(workload(), ledger(), "--seed", "99999999999999999999999"));
      errorSaying(
          2,
          "Invalid value for option '--repetitions': '0' is out of range;"
              + " expected a whole number from 1 to 10",
          plan(workload(), ledger(), "--repetitions", "0"));
      assertThat(dir.resolve("exp")).doesNotExist();
    }

    @Test
    @DisplayName("--exp-root that is a regular file (or below one): exit 2 before anything runs")
    void expRootIsAFile() {
      JsonNode e =
          errorSaying(
              2,
              "Invalid value for option '--exp-root': '"
                  + regularFile
                  + "': not a directory (a file is there); expected a directory",
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
      errorSaying(
          2,
          "Invalid value for option '--exp-root': '"
              + regularFile.resolve("sub")
              + "': not a directory ("
              + regularFile
              + " is a file); expected a directory",
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
          errorSaying(
              2,
              trailing
                  + ":1:10: not valid JSON: unexpected content after the end of the first value;"
                  + " expected exactly one document",
              "render",
              "--plan",
              trailing.toString(),
              "--plan-sha256",
              Sha256.ofFile(trailing),
              "--deploy-root",
              root.toString());
      assertThat(t.get("line").asInt()).isEqualTo(1);
      assertThat(t.get("column").asInt()).isEqualTo(10);
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
          errorSaying(
              2,
              array
                  + ": SHA-256 is "
                  + Sha256.ofFile(array)
                  + ", not "
                  + "0".repeat(64)
                  + " (--plan-sha256): the plan was edited or another file was named;"
                  + " expected the plan exactly as it was written",
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
      errorSaying(
          2,
          "AIPerf export "
              + binary
              + ":1:1: not valid JSON: unexpected control character (code 127); expected a JSON"
              + " value (object, array, string, number, true, false or null); is this a binary"
              + " file?",
          "gate",
          "--results",
          binary.toString());
      errorSaying(
          2,
          "AIPerf export "
              + array
              + ": an array at the top level; expected AIPerf's profile_export_aiperf.json object",
          "gate",
          "--results",
          array.toString());
      errorSaying(
          2,
          dir.resolve("absent.json") + ": AIPerf export not found",
          "gate",
          "--results",
          dir.resolve("absent.json").toString());
    }

    @Test
    @DisplayName("a metric of the wrong JSON type: exit 2 with file, pointer and field")
    void wrongType() throws IOException {
      Path export =
          Files.writeString(
              dir.resolve("typed.json"),
              "{\"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": \"fast\"}}\n");
      JsonNode e =
          errorSaying(
              2,
              export
                  + ": /output_token_throughput/avg: expected a number or null, found the string"
                  + " \"fast\"",
              "gate",
              "--results",
              export.toString(),
              "--min-throughput",
              "5");
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
        String why =
            List.of("NaN", "abc", "Infinity").contains(v)
                ? "is not a finite decimal number"
                : "is out of range";
        JsonNode e =
            errorSaying(
                2,
                "Invalid value for option '--min-throughput': '"
                    + v
                    + "' "
                    + why
                    + "; expected a number greater than 0 and at most 1000000000000",
                "gate",
                "--results",
                array.toString(),
                "--min-throughput",
                v);
        assertThat(e.get("field").asString()).isEqualTo("--min-throughput");
      }
      errorSaying(
          2,
          "Invalid value for option '--tolerance': '1' is out of range;"
              + " expected a number of at least 0 and below 1",
          "gate",
          "--results",
          array.toString(),
          "--tolerance",
          "1");
      errorSaying(
          2,
          "Invalid value for option '--max-error-rate': '1.5' is out of range;"
              + " expected a number of at least 0 and at most 1",
          "gate",
          "--results",
          array.toString(),
          "--max-error-rate",
          "1.5");
      errorSaying(
          2,
          "Invalid value for option '--max-ttft-p99': '1e-999' is out of range;"
              + " expected a number greater than 0 and at most 1000000000",
          "gate",
          "--results",
          array.toString(),
          "--max-ttft-p99",
          "1e-999");
    }

    @Test
    @DisplayName("a malformed overlay: one line with file:line:column and what was expected")
    void malformedOverlay() {
      JsonNode e =
          errorSaying(
              2,
              "constraints overlay "
                  + malformedYaml
                  + ":3:4: not valid YAML: expected the node content, but found '-'"
                  + " (while parsing a flow node that starts at line 3, column 4)",
              "gate",
              "--results",
              dev.benchplan.aiperf.export.ExportVariants.real().toString(),
              "--constraints",
              malformedYaml.toString());
      assertThat(e.get("file").asString()).isEqualTo(malformedYaml.toString());
      assertThat(e.get("line").asInt()).isEqualTo(3);
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
          errorSaying(
              2,
              "recipe overlay "
                  + malformedYaml
                  + ":3:4: not valid YAML: expected the node content, but found '-'"
                  + " (while parsing a flow node that starts at line 3, column 4)",
              "validate",
              "--recipe",
              malformedYaml.toString(),
              "--report-dir",
              dir.resolve("rep").toString());
      assertThat(e.get("line").asInt()).isEqualTo(3);
      assertThat(dir.resolve("rep")).doesNotExist();
    }

    @Test
    @DisplayName("--report-dir that is a file and --isl out of range: exit 2 naming the option")
    void options() {
      assertThat(
              error(2, "validate", "--report-dir", regularFile.toString()).get("field").asString())
          .isEqualTo("--report-dir");
      errorSaying(
          2,
          "Invalid value for option '--isl': '0' is out of range;"
              + " expected a whole number from 1 to 10000000",
          "validate",
          "--isl",
          "0");
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
      errorSaying(
          2,
          dir.resolve("benchmark/perf.yaml")
              + ": perf.yaml not found; run 'benchplan render' first",
          "run",
          "--deploy-root",
          dir.toString(),
          "--context",
          "no-such-context");
    }

    @Test
    @DisplayName("a malformed perf.yaml: file:line:column, not valid YAML")
    void malformedPerfYaml() throws IOException {
      Path bench = Files.createDirectories(dir.resolve("root/benchmark"));
      Files.writeString(bench.resolve("perf.yaml"), "kind: Job\nmetadata: {name: x\n");
      errorSaying(
          2,
          bench.resolve("perf.yaml")
              + ":3:1: not valid YAML: expected ',' or '}', but got <stream end>"
              + " (while parsing a flow mapping that starts at line 2, column 11)",
          "run",
          "--deploy-root",
          dir.resolve("root").toString(),
          "--context",
          "no-such-context");
    }
  }

  @Nested
  class Smoke {
    @Test
    @DisplayName("a URL that is not one, and a timeout that is not a duration: exit 2")
    void badArguments() {
      errorSaying(
          2,
          "--url 'not a url': no scheme; scheme must be http or https; expected an absolute"
              + " http(s) base URL such as http://127.0.0.1:8000",
          "smoke",
          "--url",
          "not a url",
          "--model",
          "m",
          "--out",
          dir.resolve("s.json").toString());
      JsonNode t =
          errorSaying(
              2,
              "Invalid value for option '--timeout': 'soon' is not a duration:"
                  + " expected e.g. 30s, 5m, 1h or PT30S",
              "smoke",
              "--url",
              "http://127.0.0.1:1",
              "--model",
              "m",
              "--timeout",
              "soon");
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
      errorSaying(
          2,
          dir.resolve("absent.jsonl") + ": cannot read the trace: no such file",
          "trace",
          "inspect",
          dir.resolve("absent.jsonl").toString());
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
      assertThat(
              errorSaying(
                      2, "Missing required option: '--results=FILE|DIR'", "gate", "--frobnicate")
                  .get("code")
                  .asString())
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
