package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.testing.CommandHarness;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

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
    var r = CommandHarness.run("frobnicate").expectExit(2);
    assertThat(r.err()).contains("Unmatched argument").contains("Run 'benchplan --help'");
    assertThat(r.err()).doesNotContain("Usage:");
  }

  @Test
  @DisplayName("durations accept 30s, 5m, 1h and ISO-8601, and name what was expected otherwise")
  void durations() {
    assertThat(DurationConverter.parse("30s").getSeconds()).isEqualTo(30);
    assertThat(DurationConverter.parse("5m").getSeconds()).isEqualTo(300);
    assertThat(DurationConverter.parse("1h").getSeconds()).isEqualTo(3600);
    assertThat(DurationConverter.parse("PT30S").getSeconds()).isEqualTo(30);
    assertThatThrownBy(() -> DurationConverter.parse("soon"))
        .hasMessageContaining("expected e.g. 30s, 5m, 1h or PT30S");
    assertThatThrownBy(() -> DurationConverter.parse("99999999999999999999s"))
        .hasMessageContaining("too long a duration");
    assertThatThrownBy(() -> DurationConverter.parse("9999999999999999h"))
        .hasMessageContaining("too long a duration");
  }

  @Test
  @DisplayName("shell completion is generated")
  void completion() {
    var r = CommandHarness.run("generate-completion").expectOk();
    assertThat(r.out()).contains("benchplan");
  }
}
