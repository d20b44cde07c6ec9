package dev.benchplan.validate;

import dev.benchplan.gate.Status;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of a validate run that wrote its reports.
 *
 * @param exitCode 0 pass/skip, 1 fail, 2 invalid input found after something was created, 3 error,
 *     4 a bug
 * @param verdict pass, fail, skip or error (the gate's statuses)
 * @param verdictDocument the verdict (the reports' {@code verdict.json}, and {@code --format json})
 * @param reports the report files written, by name
 */
public record ValidateResult(
    int exitCode, Status verdict, ValidateVerdict verdictDocument, Map<String, Path> reports) {
  public ValidateResult {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(verdictDocument, "verdictDocument");
    reports = Map.copyOf(reports);
  }
}
