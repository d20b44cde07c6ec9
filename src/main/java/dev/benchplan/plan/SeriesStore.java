package dev.benchplan.plan;

import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Where series plans live ({@code <EXP_ROOT>/inputs/benchmark-plans/<series-id>.json}), written
 * once: atomically, never over an existing file (two concurrent writers produce exactly one file),
 * then made read-only. Also loads an existing plan for reuse, checking its SHA-256 and schema.
 */
public final class SeriesStore {
  /** The plan schema file name. */
  public static final String SCHEMA = "benchmark-plan.schema.json";

  private SeriesStore() {}

  /** The plan file of a series. */
  public static Path planPath(Path expRoot, String seriesId) {
    return expRoot.toAbsolutePath().normalize().resolve("inputs").resolve("benchmark-plans")
        .resolve(seriesId + ".json");
  }

  /**
   * Creates the plan file with exactly these bytes, then removes write permission.
   *
   * @return false when the file already exists (nothing was changed)
   */
  public static boolean create(Path planFile, byte[] bytes) {
    if (!AtomicFiles.createNew(planFile, bytes)) {
      return false;
    }
    makeReadOnly(planFile);
    return true;
  }

  private static void makeReadOnly(Path file) {
    PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
    try {
      if (posix != null) {
        posix.setPermissions(PosixFilePermissions.fromString("r--r--r--"));
        return;
      }
    } catch (IOException e) {
      // fall through to the portable call
    }
    // some file systems have no permissions to change; immutability still holds there because
    // benchplan never opens an existing plan for writing
    try {
      file.toFile().setWritable(false, false);
    } catch (UnsupportedOperationException e) {
      // not a default-file-system path: nothing more to do
    }
  }

  /**
   * An existing plan loaded for reuse.
   *
   * @param path absolute path
   * @param sha256 its verified SHA-256
   * @param tree its content
   */
  public record ExistingPlan(Path path, String sha256, JsonNode tree) {
    public String seriesId() {
      return tree.path("series_id").asString();
    }
  }

  /**
   * Loads the plan named by a reuse request; logs REUSE_PLAN_MISSING, REUSE_SHA256_MISMATCH or
   * REUSE_PLAN_INVALID and returns empty when it cannot be reused.
   */
  public static Optional<ExistingPlan> loadForReuse(ReuseRequest reuse, RuleLog log) {
    Path path = reuse.plan().toAbsolutePath().normalize();
    String expected = reuse.sha256().toLowerCase(Locale.ROOT);
    if (!Sha256.isSha256(expected)) {
      log.block(BlockerCode.REUSE_PLAN_INVALID, "--reuse-sha256 '" + reuse.sha256()
          + "': expected the 64-hex-character SHA-256 of the plan file");
      return Optional.empty();
    }
    if (!Files.isRegularFile(path)) {
      log.block(BlockerCode.REUSE_PLAN_MISSING, "--reuse-plan " + path + ": file not found; reuse"
          + " needs the exact existing plan path");
      return Optional.empty();
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      log.block(BlockerCode.REUSE_PLAN_MISSING, "--reuse-plan " + path + ": cannot read ("
          + e.getMessage() + ")");
      return Optional.empty();
    }
    String actual = Sha256.hex(bytes);
    if (!actual.equals(expected)) {
      log.block(BlockerCode.REUSE_SHA256_MISMATCH, "--reuse-plan " + path + " hashes to " + actual
          + ", not --reuse-sha256 " + expected + "; a series plan never changes, so this is not"
          + " the plan the series was measured under");
      return Optional.empty();
    }
    JsonNode tree;
    try {
      tree = PlanJson.parse(bytes);
    } catch (JacksonException e) {
      log.block(BlockerCode.REUSE_PLAN_INVALID, "--reuse-plan " + path + ": not valid JSON");
      return Optional.empty();
    }
    List<SchemaValidator.Problem> problems = SchemaValidator.bundled(SCHEMA).validate(tree);
    if (!problems.isEmpty()) {
      log.block(BlockerCode.REUSE_PLAN_INVALID, "--reuse-plan " + path + ": does not match " + SCHEMA
          + ": " + problems.get(0) + (problems.size() > 1 ? " (and " + (problems.size() - 1)
              + " more)" : ""));
      return Optional.empty();
    }
    return Optional.of(new ExistingPlan(path, actual, tree));
  }
}
