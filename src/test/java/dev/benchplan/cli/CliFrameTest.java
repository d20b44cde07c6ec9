package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.testing.CommandHarness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CliFrameTest {
  @Test
  @DisplayName("--version prints the version and the git commit")
  void version() {
    var r = CommandHarness.run("--version").expectOk();
    assertThat(r.out()).containsPattern("benchplan \\S+ \\(commit [0-9a-f]{7,}\\)");
  }

  @Test
  @DisplayName("an unknown command is invalid input (exit 2) with a one-line hint, not the usage")
  void unknownCommand() {
    var r =
        CommandHarness.run("frobnicate")
            .expectError(2, "Unmatched argument at index 0: 'frobnicate'");
    assertThat(r.err().lines())
        .as("a suggestion and the way to help, not the usage")
        .containsExactly(
            "benchplan: Unmatched argument at index 0: 'frobnicate'",
            "Did you mean: benchplan gate or benchplan validate or benchplan generate-completion?",
            "Run 'benchplan --help' for usage.");
  }

  @Test
  @DisplayName("durations accept 30s, 5m, 1h and ISO-8601, and name what was expected otherwise")
  void durations() {
    assertThat(DurationConverter.parse("30s").getSeconds()).isEqualTo(30);
    assertThat(DurationConverter.parse("5m").getSeconds()).isEqualTo(300);
    assertThat(DurationConverter.parse("1h").getSeconds()).isEqualTo(3600);
    assertThat(DurationConverter.parse("PT30S").getSeconds()).isEqualTo(30);
    assertThatThrownBy(() -> DurationConverter.parse("soon"))
        .hasMessage("'soon' is not a duration: expected e.g. 30s, 5m, 1h or PT30S");
    assertThatThrownBy(() -> DurationConverter.parse("99999999999999999999s"))
        .hasMessage("'99999999999999999999s' is too long a duration; expected e.g. 30s, 5m, 1h");
    assertThatThrownBy(() -> DurationConverter.parse("9999999999999999h"))
        .hasMessage("'9999999999999999h' is too long a duration; expected e.g. 30s, 5m, 1h");
  }

  @Test
  @DisplayName("shell completion is generated")
  void completion() {
    var r = CommandHarness.run("generate-completion").expectOk();
    assertThat(r.out()).contains("benchplan");
  }

  @Test
  @DisplayName(
      "a call naming a subcommand builds only that one, with the same options and usage as in the"
          + " full command line; help, a typo and the completion script get every subcommand")
  void lazySubcommands() {
    CommandLine full = Cli.commandLine();
    assertThat(new ArrayList<>(full.getSubcommands().keySet()))
        .as("every subcommand is in Cli.SUBCOMMANDS, in the usage's order")
        .isEqualTo(Cli.SUBCOMMANDS);
    for (String name : Cli.SUBCOMMANDS) {
      CommandLine lazy = Cli.commandLine(new String[] {name, "--help"});
      if (name.equals("generate-completion")) {
        assertThat(lazy.getSubcommands().keySet()).containsExactlyElementsOf(Cli.SUBCOMMANDS);
        continue;
      }
      assertThat(lazy.getSubcommands().keySet()).as(name).containsExactly(name);
      assertThat(lazy.getSubcommands().get(name).getUsageMessage())
          .as("usage of %s", name)
          .isEqualTo(full.getSubcommands().get(name).getUsageMessage());
      assertThat(optionNames(lazy.getSubcommands().get(name)))
          .as("options of %s (inherited ones included)", name)
          .isEqualTo(optionNames(full.getSubcommands().get(name)));
    }
    for (String[] args :
        List.of(
            new String[] {},
            new String[] {"--help"},
            new String[] {"plann"},
            new String[] {"-V"})) {
      assertThat(Cli.commandLine(args).getSubcommands().keySet())
          .as(String.join(" ", args))
          .containsExactlyElementsOf(Cli.SUBCOMMANDS);
    }
  }

  private static List<String> optionNames(CommandLine cl) {
    List<String> names = new ArrayList<>();
    cl.getCommandSpec().options().forEach(o -> names.add(o.longestName()));
    cl.getSubcommands()
        .forEach((n, sub) -> names.add(n + ":" + String.join(",", optionNames(sub))));
    return names;
  }
}
