package dev.benchplan.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Runs a benchplan command in-process with captured stdout/stderr (as kcctl's test context does).
 * On a failed expectation both streams are printed in the assertion message.
 */
public final class CommandHarness {
  private static final String PREFIX = "benchplan: ";

  private CommandHarness() {}

  /** The outcome of one command invocation. */
  public record Result(int exitCode, String out, String err) {
    /** Asserts the exit code, showing both streams when it differs. */
    public Result expectExit(int expected) {
      assertThat(exitCode)
          .as("exit code%n--- stdout ---%n%s%n--- stderr ---%n%s", out, err)
          .isEqualTo(expected);
      return this;
    }

    public Result expectOk() {
      return expectExit(0);
    }

    /**
     * Asserts the exit code and that stderr's {@code benchplan: } lines are exactly {@code
     * messages}, each compared whole and in order (a list such as several blockers gives one per
     * line).
     */
    public Result expectError(int exit, String... messages) {
      expectExit(exit);
      assertThat(
              err.lines().filter(l -> l.startsWith(PREFIX)).map(l -> l.substring(PREFIX.length())))
          .as("stderr's error lines%n--- stderr ---%n%s", err)
          .containsExactly(messages);
      return this;
    }
  }

  /** Runs {@code benchplan args...} through {@link Main#run}, the user's path. */
  public static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }
}
