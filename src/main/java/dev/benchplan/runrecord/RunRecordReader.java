package dev.benchplan.runrecord;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import dev.benchplan.json.SchemaValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one reader of run.json: bytes -> schema check (schemas/run-record.schema.json, which has only
 * grown optional members since schema version 1, so every older record still reads) -> {@link
 * RunRecordDocument}. Analyze, compare, the audit and verify all read run.json here.
 */
public final class RunRecordReader {
  /** The file name of a run record in its run directory. */
  public static final String FILE_NAME = "run.json";

  private static final String EXPECTED = "the run record run wrote (run.json)";
  private static final String SCHEMA = "run-record.schema.json";

  /**
   * run.json as verify sees it: the record, or what is wrong with the file for a finding.
   *
   * @param record the record, or null when there is a problem
   * @param pointer where the problem is ("" for the whole file)
   * @param problem what is wrong, without the file's name; "" when the record is there
   */
  public record Checked(@Nullable RunRecordDocument record, String pointer, String problem) {}

  private RunRecordReader() {}

  /** Reads {@code file}; unreadable, not JSON or not the schema is invalid input (exit 2). */
  public static RunRecordDocument read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": cannot read: " + e.getMessage(), e);
    }
    return parse(bytes, file);
  }

  /** Parses the bytes of {@code file} (named in errors). */
  public static RunRecordDocument parse(byte[] bytes, Path file) {
    ObjectNode tree = JsonInput.parse(bytes).orThrow(null, file, EXPECTED);
    SchemaValidator.bundled(SCHEMA).requireValid(tree, file.toString());
    return bind(tree, file);
  }

  /** Checks {@code bytes} of {@code file} without throwing: a problem is verify's finding. */
  public static Checked check(byte[] bytes, Path file) {
    JsonInput.Parsed parsed = JsonInput.parse(bytes);
    ObjectNode tree = parsed.tree();
    if (tree == null) {
      return new Checked(null, "", parsed.explain(EXPECTED));
    }
    List<SchemaValidator.Problem> problems = SchemaValidator.bundled(SCHEMA).validate(tree);
    if (!problems.isEmpty()) {
      return new Checked(
          null, problems.get(0).pointer(), "does not match schema " + SCHEMA + ": " + problems);
    }
    return new Checked(bind(tree, file), "", "");
  }

  private static RunRecordDocument bind(ObjectNode tree, Path file) {
    try {
      return Json.JSON.treeToValue(tree, RunRecordDocument.class);
    } catch (JacksonException e) {
      // the schema passed, so a binding failure is a record that drifted from its schema
      throw new IllegalStateException(
          file + ": run-record.schema.json and RunRecordDocument disagree: " + e.getMessage(), e);
    }
  }
}
