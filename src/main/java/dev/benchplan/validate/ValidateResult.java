package dev.benchplan.validate;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of a validate run.
 *
 * @param exitCode 0 pass/skip, 1 fail, 2 bad input or ambiguity, 3 error, 4 a bug
 * @param verdict {@code pass}, {@code fail}, {@code skip}, {@code error}, or {@code invalid} (exit
 *     2; nothing written)
 * @param verdictDocument the verdict (the reports' {@code verdict.json}, and {@code --format json})
 * @param reports the report files written, by name (empty for {@code invalid})
 */
public record ValidateResult(
    int exitCode, String verdict, ValidateVerdict verdictDocument, Map<String, Path> reports) {
  public ValidateResult {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(verdictDocument, "verdictDocument");
    reports = Map.copyOf(reports);
  }
}
