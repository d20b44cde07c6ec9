package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 15 items 3 and 4 through the command line, on the committed examples: exit 2 (never 4), the
 * reason on stderr, nothing written, the secret never echoed.
 */
class PlanCliNumbersTest {
  static final String TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123";
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @DisplayName("out-of-range options and a token in --question: exit 2, named, nothing written")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "--max-concurrency 2147483647 --experiment capacity|Invalid value for option"
            + " '--max-concurrency': '2147483647' is out of range; expected a whole number from 1"
            + " to 100000",
        "--warmup-requests 2000000|Invalid value for option '--warmup-requests': '2000000' is out"
            + " of range; expected a whole number from 0 to 1000000",
        "--seed 4294967296|Invalid value for option '--seed': '4294967296' is out of range;"
            + " expected a whole number from 0 to 4294967295",
        "--question-token|blocker PLAN_TEXT_SECRET: --question: looks like a Hugging Face token"
            + " (hf_...) (value not shown); the plan is read-only and shared with reviewers, so it"
            + " never carries a credential — remove it from the text"
            + " (rule: execution/benchmark-plan.md)",
      })
  void refused(String extra, String message) throws Exception {
    Path exp = dir.resolve("exp");
    boolean token = extra.equals("--question-token");
    List<String> args =
        PlanFixture.Examples.args(
            PlanFixture.Examples.STATIC,
            token ? "My token is " + TOKEN + ", how fast is it?" : "How fast?",
            exp,
            token ? new String[0] : extra.split(" "));
    var r = CommandHarness.run(args.toArray(String[]::new));
    if (token) {
      r.expectError(2, message, "1 blocker(s); nothing written");
    } else {
      r.expectError(2, message);
    }
    assertThat(r.err()).doesNotContain(TOKEN);
    assertThat(r.out()).doesNotContain(TOKEN);
    assertThat(
            Files.exists(exp.resolve("inputs/benchmark-plans"))
                && Files.list(exp.resolve("inputs/benchmark-plans")).findAny().isPresent())
        .as("nothing written")
        .isFalse();
  }
}
