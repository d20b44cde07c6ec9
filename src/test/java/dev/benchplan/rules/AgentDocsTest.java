package dev.benchplan.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The rule files and the code stay in step: every code is documented in the rule it enforces. */
class AgentDocsTest {
  static final Path RULES = Path.of("agent-docs/rules");
  static final Pattern LISTED = Pattern.compile("^\\| `([A-Z][A-Z0-9_]+)` \\|", Pattern.MULTILINE);

  @Test
  @DisplayName("every rule file cited by the code exists and has a blocker-codes section")
  void ruleFilesExist() throws IOException {
    String index = Files.readString(Path.of("agent-docs/README.md"));
    for (RuleFile rule : RuleFile.values()) {
      Path file = RULES.resolve(rule.path());
      assertThat(file).as(rule.path()).isRegularFile();
      assertThat(Files.readString(file))
          .as(rule.path())
          .startsWith("# " + rule.path())
          .contains("## Blocker codes");
      assertThat(index).as("agent-docs/README.md lists " + rule.path()).contains(rule.path());
    }
  }

  @Test
  @DisplayName("every blocker code is listed in its rule file, and every listed code exists")
  void codesDocumented() throws IOException {
    Set<String> listedAnywhere = new HashSet<>();
    for (RuleFile rule : RuleFile.values()) {
      String text = Files.readString(RULES.resolve(rule.path()));
      Matcher m = LISTED.matcher(text);
      Set<String> listed = new HashSet<>();
      while (m.find()) {
        listed.add(m.group(1));
      }
      listedAnywhere.addAll(listed);
      Set<String> expected = new HashSet<>();
      Arrays.stream(BlockerCode.values())
          .filter(c -> c.rule() == rule)
          .forEach(c -> expected.add(c.name()));
      assertThat(listed).as("codes listed in " + rule.path()).isEqualTo(expected);
    }
    assertThat(listedAnywhere).hasSize(BlockerCode.values().length);
  }

  @Test
  @DisplayName("every blocker code is raised by the code (no code documented but never used)")
  void codesUsed() throws IOException {
    String main = sources(Path.of("src/main/java"));
    for (BlockerCode code : BlockerCode.values()) {
      assertThat(Pattern.compile("\\b" + code.name() + "\\b").matcher(main).find())
          .as(
              code
                  + " (documented in "
                  + code.rule().path()
                  + ") is raised somewhere in src/main/java")
          .isTrue();
    }
  }

  @Test
  @DisplayName(
      "run's isolation preflight and eligibility checks raise exactly the codes of their two rule files")
  void runCodes() throws IOException {
    String run = sources(Path.of("src/main/java/dev/benchplan/kube/run"));
    Set<String> raised = new HashSet<>();
    Matcher m = Pattern.compile("BlockerCode\\.([A-Z][A-Z0-9_]+)").matcher(run);
    while (m.find()) {
      raised.add(m.group(1));
    }
    Set<String> expected = new HashSet<>();
    Arrays.stream(BlockerCode.values())
        .filter(
            c ->
                c.rule() == RuleFile.BENCHMARK_ISOLATION
                    || c.rule() == RuleFile.EVIDENCE_ELIGIBILITY)
        .forEach(c -> expected.add(c.name()));
    assertThat(expected)
        .as("codes of benchmark-isolation.md and evidence-eligibility.md")
        .isNotEmpty();
    assertThat(raised).isEqualTo(expected);
  }

  /** The text of every .java file under {@code root}, with BlockerCode.java itself left out. */
  private static String sources(Path root) throws IOException {
    StringBuilder sb = new StringBuilder();
    try (var files = Files.walk(root)) {
      for (Path p :
          files
              .filter(
                  p ->
                      p.toString().endsWith(".java")
                          && !p.getFileName().toString().equals("BlockerCode.java"))
              .sorted()
              .toList()) {
        sb.append(Files.readString(p)).append('\n');
      }
    }
    return sb.toString();
  }

  @Test
  @DisplayName("the skill names the commands it drives")
  void skill() throws IOException {
    String skill = Files.readString(Path.of("agent-docs/skills/configure-aiperf-benchmark.md"));
    assertThat(skill)
        .contains("benchplan smoke --url")
        .contains("benchplan plan --workload")
        .contains("--reuse-plan")
        .contains("benchplan render --plan")
        .contains("benchplan run");
  }
}
