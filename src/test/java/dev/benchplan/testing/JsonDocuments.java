package dev.benchplan.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Every JSON document benchplan writes and the schema in {@code schemas/} it follows (issue 11):
 * what each command prints with {@code --format json}, and the files it writes, by name. The tests
 * hand real output (produced by the code) to {@link #assertStdout} and {@link #assertFiles}; a JSON
 * file no row covers fails the test, so a new document cannot be written without a schema.
 * docs/readme/testing.md ("JSON documents and their schemas") lists the same table.
 */
public final class JsonDocuments {
  private JsonDocuments() {}

  /** Every command's failure document ({"error": {...}}) with --format json. */
  public static final String ERROR = "error.schema.json";

  /**
   * What each command prints on stdout with {@code --format json}, besides {@link #ERROR}: the
   * first schema a document matches wins (plan prints a result or its blockers).
   */
  public static final Map<String, List<String>> STDOUT =
      orderedMap(
          "trace inspect", List.of("trace-report.schema.json"),
          "plan", List.of("plan-result.schema.json", "plan-blockers.schema.json"),
          "render", List.of("render-result.schema.json"),
          "run", List.of("run-result.schema.json"),
          "gate", List.of("verdict.schema.json"),
          "validate", List.of("validate-verdict.schema.json"),
          "smoke", List.of("smoke-result.schema.json"),
          "rbac run", List.of("rbac-manifest.schema.json"),
          "rbac validate", List.of("rbac-manifest.schema.json"),
          "analyze", List.of("analyze-result.schema.json"),
          "compare", List.of("comparison.schema.json"),
          "verify", List.of("verify-result.schema.json"));

  /**
   * Members of a stdout document that are documents of their own (validated against their schema as
   * well): run's verdict and run record, smoke's error.
   */
  static final Map<String, Map<String, String>> EMBEDDED =
      Map.of(
          "run", Map.of("verdict", "verdict.schema.json", "run", "run-record.schema.json"),
          "smoke", Map.of("error", ERROR));

  /** Marks a file benchplan writes that is not its own document (AIPerf's, copied verbatim). */
  public static final String NOT_OURS = "";

  /**
   * The DGD validate measured (dgd.json), a Kubernetes object: its schema is the Dynamo CRD's
   * (v0.9.0, version v1alpha1, made strict), read from ../shared/data; without it the file is only
   * checked to be a DynamoGraphDeployment.
   */
  public static final String DGD_CRD = "crd:" + dev.benchplan.validate.CrdSchemas.V090;

  /** One kind of file a command writes: a pattern on the path (with '/') and its schema. */
  public record FileRule(String command, Pattern path, String schema, boolean jsonLines) {
    boolean matches(String command, String relative) {
      return this.command.equals(command) && path.matcher(relative).matches();
    }
  }

  private static FileRule rule(String command, String regex, String schema) {
    return new FileRule(command, Pattern.compile(regex), schema, regex.endsWith("jsonl"));
  }

  /** The files each command writes, by path under the folder it writes into. */
  public static final List<FileRule> FILES =
      List.of(
          rule("plan", "(.*/)?inputs/benchmark-plans/[^/]+\\.json", "benchmark-plan.schema.json"),
          rule("render", "(.*/)?benchmark/render-manifest\\.json", "render-manifest.schema.json"),
          rule("run", "(.*/)?runs/[^/]+/run\\.json", "run-record.schema.json"),
          rule("run", "(.*/)?runs/[^/]+/verdict\\.json", "verdict.schema.json"),
          rule("run", "(.*/)?runs/[^/]+/ctrf-report\\.json", "ctrf-report.schema.json"),
          // the AIPerf tree the Job produced, brought back byte for byte (AIPerf's own formats),
          // or, from a pod log without a tree, AIPerf's summary alone
          rule("run", "(.*/)?runs/[^/]+/aiperf/.*\\.jsonl?", NOT_OURS),
          rule("run", "(.*/)?runs/[^/]+/profile_export_aiperf\\.json", NOT_OURS),
          rule("gate", "verdict\\.json", "verdict.schema.json"),
          rule("gate", "ctrf-report\\.json", "ctrf-report.schema.json"),
          rule("validate", "verdict\\.json", "validate-verdict.schema.json"),
          rule("validate", "ctrf-report\\.json", "ctrf-report.schema.json"),
          // the run folders of a cluster run: its plan, render and run files (rows above) and the
          // DGD it measured, exactly as read or deployed
          rule("validate", "runs/[^/]+/dgd\\.json", DGD_CRD),
          rule("smoke", "[^/]+\\.json", "smoke-artifact.schema.json"),
          rule("analyze", "(.*/)?performance_analysis\\.json", "performance-analysis.schema.json"),
          rule("analyze", "(.*/)?benchmark_audit\\.json", "benchmark-audit.schema.json"),
          rule("analyze", "(.*/)?benchmark_summary\\.json", "benchmark-summary.schema.json"),
          rule("analyze", "(.*/)?repeat_decision(-[^/]+)?\\.json", "repeat-decision.schema.json"),
          rule("analyze", "(.*/)?performance_findings\\.jsonl", "findings-line.schema.json"),
          rule("compare", "comparison\\.json", "comparison.schema.json"),
          rule("compare", "repeat_decision\\.json", "repeat-decision.schema.json"));

  /**
   * Documents benchplan reads but never writes: the user's workload and deployment ledger. The plan
   * and the smoke artifact are both read and written, and listed above.
   */
  public static final List<String> INPUTS =
      List.of("user-workload.schema.json", "deployment-ledger.schema.json");

  /** Every schema the table names. */
  public static List<String> schemasNamed() {
    List<String> all = new ArrayList<>(List.of(ERROR));
    STDOUT.values().forEach(all::addAll);
    EMBEDDED.values().forEach(m -> all.addAll(m.values()));
    FILES.stream()
        .map(FileRule::schema)
        .filter(s -> !s.equals(NOT_OURS) && !s.equals(DGD_CRD))
        .forEach(all::add);
    all.addAll(INPUTS);
    return all.stream().distinct().toList();
  }

  /**
   * Asserts that {@code stdout} (one {@code --format json} document of {@code command}) matches the
   * command's schema, or {@link #ERROR} when it is an error document; returns it.
   */
  public static JsonNode assertStdout(String command, String stdout) {
    JsonNode doc = Json.JSON.readTree(stdout);
    List<String> schemas = STDOUT.get(command);
    assertThat(schemas).as("no stdout schema listed for '%s'", command).isNotNull();
    if (doc.isObject() && doc.size() == 1 && doc.has("error")) {
      assertValid(ERROR, doc, command + " stdout");
      return doc;
    }
    Map<String, List<SchemaValidator.Problem>> tried = new LinkedHashMap<>();
    for (String schema : schemas) {
      List<SchemaValidator.Problem> problems = SchemaValidator.bundled(schema).validate(doc);
      if (problems.isEmpty()) {
        EMBEDDED
            .getOrDefault(command, Map.of())
            .forEach(
                (member, s) -> {
                  if (doc.has(member)) {
                    JsonNode part = doc.get(member);
                    assertValid(
                        s,
                        s.equals(ERROR) ? Json.JSON.createObjectNode().set("error", part) : part,
                        command + " stdout /" + member);
                  }
                });
        return doc;
      }
      tried.put(schema, problems);
    }
    return fail(
        "%s --format json printed a document no listed schema accepts: %s%n%s",
        command, tried, stdout);
  }

  /**
   * Walks {@code dir} (what {@code command} wrote) and asserts every {@code .json}/{@code .jsonl}
   * file has a row in {@link #FILES} and matches its schema (each line of a JSON-lines file);
   * returns how many files were checked against a schema of ours.
   */
  public static int assertFiles(String command, Path dir) {
    return assertFiles(List.of(command), dir);
  }

  /** As {@link #assertFiles(String, Path)} for a folder several commands wrote into. */
  public static int assertFiles(List<String> commands, Path dir) {
    int checked = 0;
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(Files::isRegularFile).filter(JsonDocuments::isJson).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Path f : files) {
      String rel = dir.relativize(f).toString().replace('\\', '/');
      FileRule r =
          FILES.stream()
              .filter(x -> commands.stream().anyMatch(c -> x.matches(c, rel)))
              .findFirst()
              .orElse(null);
      if (r == null) {
        fail(
            "%s wrote %s (in %s), a JSON document no row of JsonDocuments.FILES covers: give it"
                + " a schema in schemas/ and a row",
            String.join("/", commands), rel, dir);
        return checked;
      }
      if (r.schema().equals(NOT_OURS)) {
        continue;
      }
      try {
        if (r.schema().equals(DGD_CRD)) {
          assertDgd(Json.JSON.readTree(Files.readAllBytes(f)), rel);
        } else if (r.jsonLines()) {
          int n = 0;
          for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            n++;
            if (!line.isBlank()) {
              assertValid(r.schema(), Json.JSON.readTree(line), rel + " line " + n);
            }
          }
          assertThat(n).as("%s has no line", rel).isPositive();
        } else {
          assertValid(r.schema(), Json.JSON.readTree(Files.readAllBytes(f)), rel);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      checked++;
    }
    return checked;
  }

  /**
   * Asserts the schema has teeth: {@code doc} (which matches it) with one unknown member, or with
   * {@code member} replaced by a value of the wrong type, no longer does.
   */
  public static void assertRejectsTampering(String schema, JsonNode doc, String member) {
    tools.jackson.databind.node.ObjectNode extra =
        ((tools.jackson.databind.node.ObjectNode) doc.deepCopy()).put("unexpected_member", 1);
    assertThat(SchemaValidator.bundled(schema).validate(extra))
        .as("schemas/%s accepts an unknown member", schema)
        .isNotEmpty();
    tools.jackson.databind.node.ObjectNode wrong =
        (tools.jackson.databind.node.ObjectNode) doc.deepCopy();
    wrong.set(member, Json.JSON.createArrayNode().add(Json.JSON.createObjectNode()));
    assertThat(SchemaValidator.bundled(schema).validate(wrong))
        .as("schemas/%s accepts an array of objects as /%s", schema, member)
        .isNotEmpty();
  }

  private static void assertDgd(JsonNode dgd, String what) throws IOException {
    assertThat(dgd.path("kind").asString()).as(what).isEqualTo("DynamoGraphDeployment");
    if (!Files.isRegularFile(SharedData.root().resolve(dev.benchplan.validate.CrdSchemas.V090))) {
      return; // the CRD is third-party data: checked where ../shared/data is present
    }
    Path tmp = Files.createTempDirectory("crd");
    assertThat(
            dev.benchplan.validate.CrdSchemas.strict(
                    dev.benchplan.validate.CrdSchemas.V090, "v1alpha1", tmp)
                .validate(dgd))
        .as("%s against the Dynamo v0.9.0 CRD (v1alpha1)", what)
        .isEmpty();
  }

  /** Asserts {@code doc} matches {@code schema}, naming {@code what} and every problem. */
  public static void assertValid(String schema, JsonNode doc, String what) {
    assertThat(SchemaValidator.bundled(schema).validate(doc))
        .as("%s against schemas/%s", what, schema)
        .isEmpty();
  }

  private static boolean isJson(Path p) {
    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".json") || n.endsWith(".jsonl");
  }

  private static Map<String, List<String>> orderedMap(Object... kv) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      @SuppressWarnings("unchecked")
      List<String> v = (List<String>) kv[i + 1];
      m.put((String) kv[i], v);
    }
    return java.util.Collections.unmodifiableMap(m);
  }
}
