package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README's command table and the docs' capture notes stay in step with the code: a row for
 * every command a user can run, and every "captured with scripts/docs-captures.sh SECTION" naming a
 * section the script has (the lead reruns those sections to regenerate the pages).
 */
class ReadmeCommandsTest {
  private static final Pattern CAPTURED =
      Pattern.compile("scripts/docs-captures\\.sh (?:--update )?([a-z][a-z-]*)");

  /** "rbac run" for {@code benchplan rbac run}: commands without subcommands, helpers left out. */
  static void leaves(CommandLine cl, String prefix, Set<String> into) {
    for (CommandLine sub : cl.getSubcommands().values()) {
      String name = (prefix + " " + sub.getCommandName()).trim();
      if (name.equals("generate-completion") || name.equals("help")) {
        continue;
      }
      if (sub.getSubcommands().isEmpty()) {
        into.add(name);
      } else {
        leaves(sub, name, into);
      }
    }
  }

  /**
   * The commands a row of the README's "## Commands" table names: its first cell's leading
   * lower-case words ({@code trace inspect TRACE} is "trace inspect"; {@code rbac run\|validate} is
   * "rbac run" and "rbac validate").
   */
  static Set<String> tableCommands(String readme) {
    String section = readme.substring(readme.indexOf("\n## Commands\n"));
    section = section.substring(0, section.indexOf("\n\n", section.indexOf("\n|")));
    Set<String> commands = new TreeSet<>();
    for (String row : section.split("\n")) {
      if (!row.startsWith("| `")) {
        continue;
      }
      String cell = row.substring(3, row.indexOf('`', 3));
      List<String> words = new ArrayList<>();
      for (String word : cell.split(" ")) {
        if (!word.matches("[a-z][a-z-]*(\\\\\\|[a-z][a-z-]*)*")) {
          break;
        }
        words.add(word);
      }
      String last = words.remove(words.size() - 1);
      for (String alternative : last.split("\\\\\\|")) {
        commands.add(String.join(" ", words) + (words.isEmpty() ? "" : " ") + alternative);
      }
    }
    return commands;
  }

  @Test
  @DisplayName("README's command table has a row for every command benchplan has, and no other")
  void everyCommandHasARow() throws IOException {
    Set<String> commands = new TreeSet<>();
    leaves(Cli.commandLine(), "", commands);
    assertThat(commands).hasSizeGreaterThanOrEqualTo(12);
    assertThat(tableCommands(Files.readString(Path.of("README.md"))))
        .containsExactlyInAnyOrderElementsOf(commands);
  }

  @Test
  @DisplayName(
      "every command's --help ends with one \"Exit codes:\" list (README's exit-code table is"
          + " captured from them)")
  void everyCommandListsItsExitCodes() {
    Set<String> commands = new TreeSet<>();
    CommandLine root = Cli.commandLine();
    leaves(root, "", commands);
    for (String command : commands) {
      CommandLine cl = root;
      for (String word : command.split(" ")) {
        cl = cl.getSubcommands().get(word);
      }
      String help = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
      assertThat(help.split("Exit codes:", -1)).as(command + " --help").hasSize(2);
      assertThat(help.substring(help.indexOf("Exit codes:")))
          .as(command + " --help")
          .containsPattern("\\n  0  +\\S")
          .containsPattern("\\n  2  +\\S");
    }
  }

  @Test
  @DisplayName("the table reader finds a missing row (the check has teeth)")
  void aMissingRowIsSeen() {
    String readme =
        "x\n## Commands\n\n| command | reads |\n|---|---|\n| `trace inspect TRACE` | a |\n"
            + "| `rbac run\\|validate` | b |\n\nafter\n";
    assertThat(tableCommands(readme)).containsExactly("rbac run", "rbac validate", "trace inspect");
  }

  @Test
  @DisplayName("every page that says it was captured with scripts/docs-captures.sh names a section")
  void captureNotesNameSections() throws IOException {
    String script = Files.readString(Path.of("scripts/docs-captures.sh"));
    Matcher usage =
        Pattern.compile("# Usage: scripts/docs-captures\\.sh ([a-z|-]+) ").matcher(script);
    assertThat(usage.find()).as("the script's usage line").isTrue();
    Set<String> sections = Set.of(usage.group(1).split("\\|"));
    for (String section : sections) {
      assertThat(script).as("the script's case for " + section).contains("\n" + section + ")\n");
    }
    List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
    try (Stream<Path> s = Files.list(Path.of("docs/readme"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    int notes = 0;
    for (Path page : pages) {
      Matcher m = CAPTURED.matcher(Files.readString(page));
      while (m.find()) {
        notes++;
        assertThat(sections).as(page + " names " + m.group()).contains(m.group(1));
      }
    }
    assertThat(notes).isGreaterThanOrEqualTo(10);
  }
}
