package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The place in {@code --format json} errors is what the throw site said (issue 34): for a
 * representative error of every command, file, line, column, pointer and field are asserted
 * exactly, member by member, and members that are not known are absent. Nothing here reads a place
 * out of the message.
 */
class LocatedErrorsTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();

  @TempDir Path dir;

  /** The expected place: null members must be absent from the error document. */
  record Where(String file, Integer line, Integer column, String pointer, String field) {}

  static Where file(Object file) {
    return new Where(file.toString(), null, null, null, null);
  }

  static Where option(String option) {
    return new Where(null, null, null, null, option);
  }

  /** Runs {@code args --format json}, checks the document and returns its error object. */
  static JsonNode error(int exit, String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(List.of("--format", "json"));
    var r = CommandHarness.run(all.toArray(String[]::new)).expectExit(exit);
    JsonNode doc = Json.JSON.readTree(r.out());
    assertThat(SchemaValidator.bundled("error.schema.json").validate(doc))
        .as("stdout validates against error.schema.json:%n%s", r.out())
        .isEmpty();
    assertThat(r.err()).contains("benchplan: " + doc.at("/error/message").asString());
    return doc.get("error");
  }

  static void assertPlace(JsonNode e, Where w) {
    assertThat(text(e, "file")).as("file in %s", e).isEqualTo(w.file());
    assertThat(number(e, "line")).as("line in %s", e).isEqualTo(w.line());
    assertThat(number(e, "column")).as("column in %s", e).isEqualTo(w.column());
    assertThat(text(e, "pointer")).as("pointer in %s", e).isEqualTo(w.pointer());
    assertThat(text(e, "field")).as("field in %s", e).isEqualTo(w.field());
  }

  private static String text(JsonNode e, String name) {
    return e.has(name) ? e.get(name).asString() : null;
  }

  private static Integer number(JsonNode e, String name) {
    return e.has(name) ? e.get(name).asInt() : null;
  }

  @Test
  @DisplayName("trace inspect: the trace file for unreadable content, the option for a bad value")
  void traceInspect() throws IOException {
    Path gz = Files.write(dir.resolve("t.jsonl"), new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0});
    assertPlace(error(2, "trace", "inspect", gz.toString()), file(gz));
    Path ok = Files.writeString(dir.resolve("ok.jsonl"), "{\"timestamp\": 0}\n");
    assertPlace(
        error(2, "trace", "inspect", ok.toString(), "--block-size", "0"), option("--block-size"));
  }

  @Test
  @DisplayName("smoke: the option whose value is wrong, no file")
  void smoke() {
    assertPlace(error(2, "smoke", "--url", "ftp://127.0.0.1:1", "--model", "m"), option("--url"));
    Path out = dir.resolve("folder");
    assertThat(out.toFile().mkdir()).isTrue();
    assertPlace(
        error(2, "smoke", "--url", "http://127.0.0.1:1", "--model", "m", "--out", out.toString()),
        new Where(out.toString(), null, null, null, "--out"));
  }

  @Test
  @DisplayName("plan: a picocli option error keeps the option as the field")
  void plan() {
    JsonNode e =
        error(
            2,
            "plan",
            "--workload",
            EXAMPLES.resolve("workload-static.yaml").toString(),
            "--ledger",
            EXAMPLES.resolve("deployment-ledger.yaml").toString(),
            "--question",
            "q?",
            "--max-concurrency",
            "abc");
    assertThat(e.get("code").asString()).isEqualTo("invalid_option");
    assertPlace(e, option("--max-concurrency"));
  }

  @Test
  @DisplayName("render: file, line and column of a plan that does not parse; file of a changed one")
  void render() throws IOException {
    Path root = Files.createDirectories(dir.resolve("deploy"));
    Path trailing = Files.writeString(dir.resolve("trailing.json"), "{\"a\": 1} {\"b\": 2}\n");
    assertPlace(
        error(
            2,
            "render",
            "--plan",
            trailing.toString(),
            "--plan-sha256",
            Sha256.ofFile(trailing),
            "--deploy-root",
            root.toString()),
        new Where(trailing.toString(), 1, 10, null, null));
    assertPlace(
        error(
            2,
            "render",
            "--plan",
            trailing.toString(),
            "--plan-sha256",
            "0".repeat(64),
            "--deploy-root",
            root.toString()),
        file(trailing));
    assertPlace(
        error(
            2,
            "render",
            "--plan",
            trailing.toString(),
            "--plan-sha256",
            "xyz",
            "--deploy-root",
            root.toString()),
        option("--plan-sha256"));
    assertPlace(
        error(
            2,
            "render",
            "--plan",
            trailing.toString(),
            "--plan-sha256",
            Sha256.ofFile(trailing),
            "--deploy-root",
            root.toString(),
            "--namespace",
            "Not_A_Label"),
        option("--namespace"));
    assertPlace(
        error(
            2,
            "render",
            "--plan",
            trailing.toString(),
            "--plan-sha256",
            Sha256.ofFile(trailing),
            "--deploy-root",
            root.toString(),
            "--artifacts",
            "nfs:share"),
        option("--artifacts"));
  }

  @Test
  @DisplayName("run: perf.yaml's file and the JSON pointer of the wrong member")
  void run() throws IOException {
    Path bench = Files.createDirectories(dir.resolve("root/benchmark"));
    Path perf =
        Files.writeString(
            bench.resolve("perf.yaml"), "apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n");
    assertPlace(
        error(2, "run", "--deploy-root", dir.resolve("root").toString(), "--context", "none"),
        new Where(perf.toString(), null, null, "/kind", "kind"));
    Files.writeString(perf, "kind: Job\nmetadata: {name: x\n");
    JsonNode e =
        error(2, "run", "--deploy-root", dir.resolve("root").toString(), "--context", "none");
    assertThat(text(e, "file")).isEqualTo(perf.toString());
    assertThat(number(e, "line")).isEqualTo(3);
    assertThat(text(e, "pointer")).isNull();
  }

  @Test
  @DisplayName("gate: the export's pointer and field, the overlay's pointer, the option")
  void gate() throws IOException {
    Path export =
        Files.writeString(
            dir.resolve("export.json"),
            "{\"output_token_throughput\": {\"unit\": \"furlongs\", \"avg\": 5}}\n");
    assertPlace(
        error(2, "gate", "--results", export.toString(), "--min-throughput", "5"),
        new Where(export.toString(), null, null, "/output_token_throughput/unit", "unit"));
    Path overlay =
        Files.writeString(
            dir.resolve("overlay.yaml"),
            "validation:\n  performance:\n    constraints:\n"
                + "      - {name: inference-throughput, value: '>= lots'}\n");
    assertPlace(
        error(
            2,
            "gate",
            "--results",
            dev.benchplan.aiperf.export.ExportVariants.real().toString(),
            "--constraints",
            overlay.toString()),
        new Where(
            overlay.toString(),
            null,
            null,
            "/validation/performance/constraints/0/value",
            "value"));
    Path absent = dir.resolve("absent.json");
    assertPlace(
        error(2, "gate", "--results", absent.toString()),
        new Where(absent.toString(), null, null, null, "--results"));
  }

  @Test
  @DisplayName("validate: the recipe overlay's line and column, then its pointer")
  void validate() throws IOException {
    Path malformed =
        Files.writeString(
            dir.resolve("malformed.yaml"), "validation:\n  performance: [\n   - a: b\n  c\n");
    assertPlace(
        error(
            2,
            "validate",
            "--recipe",
            malformed.toString(),
            "--report-dir",
            dir.resolve("rep").toString()),
        new Where(malformed.toString(), 3, 4, null, null));
    Path checks =
        Files.writeString(
            dir.resolve("checks.yaml"),
            "validation:\n  performance:\n    checks: inference-perf\n");
    assertPlace(
        error(
            2,
            "validate",
            "--recipe",
            checks.toString(),
            "--report-dir",
            dir.resolve("rep").toString()),
        new Where(checks.toString(), null, null, "/validation/performance/checks", "checks"));
    // an input: the option that gave it, or the overlay entry's value
    assertPlace(
        error(2, "validate", "--routing-mode", "kv", "--report-dir", dir.resolve("rep").toString()),
        option("--routing-mode"));
    Path cache =
        Files.writeString(
            dir.resolve("cache.yaml"),
            "validation: {performance: {checks: [inference-perf], constraints: ["
                + "{name: inference-model-cache-storage-class, value: Fast_SSD},"
                + " {name: inference-throughput, value: '>= 1'}]}}\n");
    assertPlace(
        error(
            2,
            "validate",
            "--recipe",
            cache.toString(),
            "--report-dir",
            dir.resolve("rep").toString()),
        new Where(
            cache.toString(), null, null, "/validation/performance/constraints/0/value", "value"));
    assertThat(dir.resolve("rep")).doesNotExist();
  }

  @Test
  @DisplayName("analyze and compare: the run argument that is not a run")
  void analyzeAndCompare() {
    Path none = dir.resolve("no-run");
    assertPlace(error(2, "analyze", none.toString()), file(none));
    assertPlace(
        error(2, "compare", "--reference", none.toString(), "--candidate", dir.toString()),
        file(none));
  }

  @Test
  @DisplayName("verify: the missing plan file; the malformed --sha256")
  void verify() {
    Path missing = dir.resolve("missing.json");
    assertPlace(error(2, "verify", missing.toString()), file(missing));
    assertPlace(error(2, "verify", missing.toString(), "--sha256", "xyz"), option("--sha256"));
  }

  @Test
  @DisplayName("rbac: the perf.yaml a DEPLOY_ROOT lacks, with the option that named it")
  void rbac() {
    Path perf = dir.resolve("benchmark").resolve("perf.yaml");
    assertPlace(
        error(2, "rbac", "run", "--deploy-root", dir.toString()),
        new Where(perf.toString(), null, null, null, "--deploy-root"));
    assertPlace(error(2, "rbac", "validate", "--dgd", "Bad_NS/x"), option("--dgd"));
  }
}
