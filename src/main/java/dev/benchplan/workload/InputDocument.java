package dev.benchplan.workload;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * One input document (YAML or JSON) as read: where it came from, the SHA-256 of its exact bytes,
 * the parsed tree and line numbers. Relative paths written inside it resolve against its own
 * folder.
 *
 * @param location what to call it in messages: the absolute file path, or a name for documents
 *     built in code
 * @param file the absolute file, or null when built in code
 * @param baseDir the folder relative paths inside it resolve against, or null (relative paths are
 *     then refused)
 * @param sha256 SHA-256 of the file's bytes (or of the canonical JSON of a tree built in code)
 * @param tree the parsed content
 * @param lines line numbers by JSON pointer
 */
public record InputDocument(
    String location,
    @Nullable Path file,
    @Nullable Path baseDir,
    String sha256,
    JsonNode tree,
    SourceLines lines) {
  public InputDocument {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(tree, "tree");
    Objects.requireNonNull(lines, "lines");
    if (!Sha256.isSha256(sha256)) {
      throw new IllegalArgumentException("sha256 must be 64 hex characters: " + sha256);
    }
  }

  /**
   * Reads a YAML or JSON file ({@code .json} is parsed as strict JSON, anything else as YAML).
   * Numbers with a fraction are kept as exact decimals.
   *
   * @param what what the file is, for messages (e.g. "user workload")
   * @throws BenchplanException (exit 2) naming the file, line and column when it is missing,
   *     unreadable, empty, not parsable or not a mapping
   */
  public static InputDocument read(Path file, String what) {
    Path abs = file.toAbsolutePath().normalize();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(abs);
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(abs), what + " " + abs + ": file not found");
    } catch (IOException e) {
      throw InputErrors.unreadable(what, abs, e);
    }
    boolean json = abs.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
    ObjectMapper mapper = json ? Json.JSON : Json.YAML;
    String blank = JsonInput.blank(bytes);
    if (blank != null) {
      throw BenchplanException.invalid(
          ErrorLocation.file(abs), what + " " + abs + ": " + blank + "; expected a mapping");
    }
    JsonNode tree;
    try {
      tree =
          mapper
              .readerFor(JsonNode.class)
              .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
              .readValue(bytes);
    } catch (JacksonException e) {
      throw InputErrors.unparsable(what, abs, e);
    }
    if (tree == null || tree.isMissingNode()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(abs),
          what + " " + abs + ": no document (only comments?); expected a mapping");
    }
    if (!tree.isObject()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(abs),
          what + " " + abs + ": " + JsonInput.topLevel(tree) + "; expected a mapping");
    }
    return new InputDocument(
        abs.toString(),
        abs,
        abs.getParent(),
        Sha256.hex(bytes),
        tree,
        SourceLines.scan(mapper, bytes));
  }

  /**
   * A document built in code (no file). Its SHA-256 is that of its canonical JSON.
   *
   * @param name what to call it, e.g. {@code validate:default-workload}
   * @param baseDir folder for relative paths inside it, or null to refuse relative paths
   */
  public static InputDocument of(String name, JsonNode tree, Path baseDir) {
    return new InputDocument(
        name,
        null,
        baseDir == null ? null : baseDir.toAbsolutePath().normalize(),
        Sha256.hex(CanonicalJson.bytes(tree)),
        tree,
        SourceLines.none());
  }

  /** "location:line pointer" — where a value sits, for messages. */
  public String at(String pointer) {
    int line = lines.lineOf(pointer);
    return location + (line > 0 ? ":" + line : "") + " " + (pointer.isEmpty() ? "/" : pointer);
  }

  /**
   * Resolves a path written inside this document against the document's own folder.
   *
   * @throws IllegalArgumentException when the path is relative and the document has no folder
   */
  public Path resolve(String written) {
    Path p = Path.of(written);
    if (p.isAbsolute()) {
      return p.normalize();
    }
    if (baseDir == null) {
      throw new IllegalArgumentException(
          "relative path '"
              + written
              + "' in "
              + location
              + ", which has no folder to resolve it against; use an absolute path");
    }
    return baseDir.resolve(p).normalize();
  }
}
