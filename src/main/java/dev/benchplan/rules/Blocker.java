package dev.benchplan.rules;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A violated rule: planning stops, exit code 2, nothing is written.
 *
 * @param code a stable upper-case code, e.g. {@code SERIES_EXISTS}
 * @param message one line naming the file, line or JSON pointer, the field and what was expected;
 *     it ends with the rule file it enforces and never contains a secret value
 * @param rule the rule file name, relative to {@code agent-docs/rules/}
 */
public record Blocker(String code, String message, String rule) {
  public Blocker {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(rule, "rule");
    if (!code.matches("[A-Z][A-Z0-9_]*")) {
      throw new IllegalArgumentException("blocker code must be UPPER_SNAKE: " + code);
    }
  }

  /** A blocker whose message cites the rule file of its code. */
  public static Blocker of(BlockerCode code, @Nullable String message) {
    return new Blocker(
        code.name(), message + " (rule: " + code.rule().path() + ")", code.rule().path());
  }

  @Override
  public String toString() {
    return code + ": " + message;
  }
}
