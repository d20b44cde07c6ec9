package dev.benchplan.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * One source per fact: every {@link BlockerCode} is listed in exactly one doc table — plan's (and
 * the smoke-age rule render and run share) in docs/readme/plan.md, run's own in run.md — under the
 * rule file the code enforces, and no other page of the user docs carries a blocker table.
 */
class BlockerTablesTest {
  private static final Pattern ROW =
      Pattern.compile("^\\| \\[`([a-z/.-]+\\.md)`]\\([^)]*\\) \\| (.*) \\|$", Pattern.MULTILINE);
  private static final Pattern CODE = Pattern.compile("`([A-Z0-9_]+)`");

  /** code -> the rule file its row names, in table order; a code twice is kept twice. */
  static List<Map.Entry<String, String>> table(String page) {
    int start = page.indexOf("\n### Blocker codes\n");
    assertThat(start).as("a '### Blocker codes' section").isNotNegative();
    int end = page.indexOf("\n#", start + 5);
    String section = page.substring(start, end < 0 ? page.length() : end);
    List<Map.Entry<String, String>> out = new ArrayList<>();
    Matcher row = ROW.matcher(section);
    while (row.find()) {
      Matcher code = CODE.matcher(row.group(2));
      while (code.find()) {
        out.add(Map.entry(code.group(1), row.group(1)));
      }
    }
    return out;
  }

  @Test
  @DisplayName("plan.md and run.md list every BlockerCode once between them, under its rule file")
  void everyCodeOnce() throws IOException {
    List<Map.Entry<String, String>> plan = table(Files.readString(Path.of("docs/readme/plan.md")));
    List<Map.Entry<String, String>> run = table(Files.readString(Path.of("docs/readme/run.md")));
    List<String> listed = new ArrayList<>();
    Map<String, String> rules = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : Stream.concat(plan.stream(), run.stream()).toList()) {
      listed.add(e.getKey());
      rules.put(e.getKey(), e.getValue());
    }
    assertThat(listed)
        .as("each code exactly once across plan.md and run.md")
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(BlockerCode.values()).map(Enum::name).toList());
    for (BlockerCode c : BlockerCode.values()) {
      assertThat(rules.get(c.name())).as(c + "'s rule file").isEqualTo(c.rule().path());
    }
    // run's table holds exactly the codes of the two run rules
    assertThat(run)
        .allSatisfy(
            e ->
                assertThat(e.getValue())
                    .isIn(
                        RuleFile.BENCHMARK_ISOLATION.path(), RuleFile.EVIDENCE_ELIGIBILITY.path()));
    assertThat(plan).hasSizeGreaterThan(run.size());
  }

  @Test
  @DisplayName(
      "the table reader sees a missing, a doubled and a misfiled code (the check has teeth)")
  void readerHasTeeth() {
    String page =
        "x\n### Blocker codes\n\n| rule | codes |\n|---|---|\n"
            + "| [`execution/user-workload.md`](a) | `WORKLOAD_SCHEMA`, `SMOKE_STALE` |\n"
            + "| [`benchmarking/steady-state.md`](b) | `WORKLOAD_SCHEMA` |\n\n### Next\n"
            + "| [`benchmarking/client-bound.md`](c) | `RUN_SYNTHETIC` |\n";
    assertThat(table(page))
        .containsExactly(
            Map.entry("WORKLOAD_SCHEMA", "execution/user-workload.md"),
            Map.entry("SMOKE_STALE", "execution/user-workload.md"),
            Map.entry("WORKLOAD_SCHEMA", "benchmarking/steady-state.md"));
  }

  @Test
  @DisplayName("no other page of README.md and docs/readme/ carries a blocker-code table")
  void noOtherTable() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
    try (Stream<Path> s = Files.list(Path.of("docs/readme"))) {
      s.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
    }
    for (Path p : pages) {
      if (p.endsWith("plan.md") || p.endsWith("run.md")) {
        continue;
      }
      assertThat(Files.readString(p)).as(p.toString()).doesNotContain("\n### Blocker codes\n");
    }
  }
}
