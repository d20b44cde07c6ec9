package dev.benchplan.validate;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * The outcome of a validate run.
 *
 * @param exitCode 0 pass/skip, 1 fail, 2 bad input or ambiguity, 3 error
 * @param verdict {@code pass}, {@code fail}, {@code skip}, {@code error}, or {@code invalid}
 *     (exit 2; nothing written)
 * @param document the verdict document (printed with {@code --format json})
 * @param reports the report files written, by name (empty for {@code invalid})
 */
public record ValidateResult(int exitCode, String verdict, ObjectNode document, Map<String, Path> reports) {
  public ValidateResult {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(document, "document");
    reports = Map.copyOf(reports);
  }
}
