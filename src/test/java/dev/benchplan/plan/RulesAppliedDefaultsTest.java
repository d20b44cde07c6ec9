package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Every decided field of a plan has its {@code rules_applied} entry, and a default taken (no
 * "requested with" option) cites a rule file whose "Defaults, and why" table states that field's
 * default and its reason (issue 21 item 3).
 */
class RulesAppliedDefaultsTest {
  static final Path RULES = Path.of("agent-docs/rules");

  /** Summaries of other fields, not decisions of their own. */
  static final Set<String> DERIVED =
      Set.of("grid", "load_points", "expected_measured_requests", "warmup_requests_per_point");

  /** Fields whose value is a default unless an option or the workload gives it. */
  static final Set<String> DEFAULTED =
      Set.of(
          "type",
          "measurement_mode",
          "measurement_limit_s",
          "warmup_requests",
          "request_timeout_s",
          "seed");

  @TempDir Path tmp;

  JsonNode plan(String kind) throws Exception {
    Path examples = Path.of("examples").toAbsolutePath();
    var r =
        CommandHarness.run(
                "plan",
                "--workload",
                examples.resolve("workload-" + kind + ".yaml").toString(),
                "--ledger",
                examples.resolve("deployment-ledger.yaml").toString(),
                "--question",
                "Which defaults does the " + kind + " example take?",
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                tmp.resolve("exp").toString(),
                "--format",
                "json")
            .expectOk();
    return Json.JSON.readTree(
        Files.readString(Path.of(Json.JSON.readTree(r.out()).get("plan_path").asString())));
  }

  /** The rows of a rule file's "Defaults, and why" table that name {@code experiment.FIELD}. */
  static List<String> defaultRows(String rule, String field) throws Exception {
    String text = Files.readString(RULES.resolve(rule));
    int start = text.indexOf("## Defaults, and why");
    List<String> rows = new ArrayList<>();
    if (start < 0) {
      return rows;
    }
    int end = text.indexOf("\n## ", start + 1);
    for (String line : text.substring(start, end < 0 ? text.length() : end).lines().toList()) {
      if (line.startsWith("| `experiment." + field + "`")) {
        rows.add(line);
      }
    }
    return rows;
  }

  /** The entry deciding {@code field}: "experiment.FIELD = ..." or "... (FIELD = ...)". */
  static JsonNode decision(JsonNode plan, String field) {
    for (JsonNode e : plan.get("rules_applied")) {
      String d = e.get("decision").asString();
      if (d.startsWith("experiment." + field + " = ") || d.contains("(" + field + " = ")) {
        return e;
      }
    }
    return null;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"static", "trace", "proxy"})
  @DisplayName(
      "every decided experiment field has a rules_applied entry; a default cites the rule file stating it")
  void everyDecidedField(String kind) throws Exception {
    JsonNode plan = plan(kind);
    JsonNode experiment = plan.get("experiment");
    for (String field : experiment.propertyNames()) {
      if (DERIVED.contains(field) || experiment.get(field).isNull()) {
        continue;
      }
      JsonNode entry = decision(plan, field);
      assertThat(entry).as(kind + ": rules_applied entry for experiment." + field).isNotNull();
      String rule = entry.get("rule").asString();
      assertThat(RULES.resolve(rule)).as(rule).isRegularFile();
      String reason = entry.get("reason").asString();
      assertThat(reason).as(field).isNotBlank();
      if (DEFAULTED.contains(field) && !reason.startsWith("requested with")) {
        String named =
            field.equals("warmup_requests")
                    && entry
                        .get("decision")
                        .asString()
                        .startsWith("experiment.warmup_requests_per_point")
                ? "warmup_requests"
                : field;
        List<String> rows = defaultRows(rule, named);
        assertThat(rows)
            .as(kind + ": " + rule + " states the default of experiment." + named)
            .isNotEmpty();
        // field | default | why: the why is a sentence, not empty
        assertThat(rows)
            .allSatisfy(
                row ->
                    assertThat(row.split("\\|"))
                        .hasSizeGreaterThanOrEqualTo(4)
                        .satisfies(cells -> assertThat(cells[3].strip()).hasSizeGreaterThan(20)));
      }
    }
  }

  @org.junit.jupiter.api.Test
  @DisplayName(
      "a trace replay: warmup 0, seed 100, request timeout min(600, limit - span), each with its"
          + " rule row and value")
  void traceReplayDefaults() throws Exception {
    JsonNode plan = plan("trace");
    JsonNode e = plan.get("experiment");
    assertThat(e.get("warmup_requests").asInt()).isZero();
    assertThat(decision(plan, "warmup_requests").get("rule").asString())
        .isEqualTo("benchmarking/series-boundaries.md");
    assertThat(defaultRows("benchmarking/series-boundaries.md", "warmup_requests"))
        .anySatisfy(r -> assertThat(r).contains("trace replay | 0 |"));
    assertThat(e.get("seed").asLong()).isEqualTo(100);
    assertThat(defaultRows("benchmarking/series-boundaries.md", "seed"))
        .anySatisfy(r -> assertThat(r).contains("| 100 |"));
    long spanS =
        (plan.at("/workload/trace/timestamp_ms/max").asLong()
                - plan.at("/workload/trace/timestamp_ms/min").asLong()
                + 999)
            / 1000;
    int limit = e.get("measurement_limit_s").asInt();
    assertThat(e.get("request_timeout_s").asLong()).isEqualTo(Math.min(600, limit - spanS));
    assertThat(decision(plan, "request_timeout_s").get("reason").asString())
        .startsWith("min(600, limit " + limit + " - span ");
    assertThat(defaultRows("benchmarking/measurement-limit.md", "request_timeout_s"))
        .anySatisfy(
            r -> assertThat(r).contains("trace replay | min(600, limit - span of the schedule) |"))
        .anySatisfy(r -> assertThat(r).contains("load experiments | min(600, limit) |"));
    assertThat(e.get("request_count").asInt()).isEqualTo(plan.at("/workload/trace/rows").asInt());
  }
}
