package dev.benchplan.error;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * One error as a user or agent sees it: a stable code, the exit code, one line of message, and
 * where (file, line, column, JSON pointer, field or option) as far as known. Printed on stderr as
 * {@code benchplan: <message>}, and with {@code --format json} as {@code {"error": {...}}} on
 * stdout (schemas/error.schema.json).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"code", "exit_code", "message", "file", "line", "column", "pointer", "field"})
public record ErrorReport(
    @JsonProperty("code") String code,
    @JsonProperty("exit_code") int exitCode,
    @JsonProperty("message") @Nullable String message,
    @JsonProperty("file") @Nullable String file,
    @JsonProperty("line") @Nullable Integer line,
    @JsonProperty("column") @Nullable Integer column,
    @JsonProperty("pointer") @Nullable String pointer,
    @JsonProperty("field") @Nullable String field) {

  /** Invalid input or a configuration blocker (exit 2). */
  public static final String INVALID_INPUT = "invalid_input";

  /** A bad command-line option or argument (exit 2). */
  public static final String INVALID_OPTION = "invalid_option";

  /** A cluster, endpoint, run or I/O error (exit 3). */
  public static final String RUN_ERROR = "run_error";

  /** An unexpected exception: a bug (exit 4). */
  public static final String INTERNAL_ERROR = "internal_error";

  public ErrorReport {
    if (code == null || message == null) {
      throw new IllegalArgumentException("an error report needs a code and a message");
    }
  }

  /** Where, as the thrower said. */
  @JsonIgnore
  public ErrorLocation location() {
    return new ErrorLocation(file, line, column, pointer, field);
  }

  /** A report with a location. */
  public static ErrorReport of(
      String code, int exitCode, @Nullable String message, @Nullable ErrorLocation where) {
    ErrorLocation w = where == null ? ErrorLocation.NONE : where;
    return new ErrorReport(
        code, exitCode, message, w.file(), w.line(), w.column(), w.pointer(), w.field());
  }
}
