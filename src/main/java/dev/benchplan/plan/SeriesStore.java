package dev.benchplan.plan;

import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
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
    return expRoot
        .toAbsolutePath()
        .normalize()
        .resolve("inputs")
        .resolve("benchmark-plans")
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
   * The first series under {@code expRoot} (by file name) whose frozen fields hash to {@code
   * identitySha256} ({@link SeriesIdentity}), read as written; plans that cannot be read are
   * skipped (they are not series this request could continue).
   */
  public static Optional<ExistingPlan> findByIdentity(Path expRoot, String identitySha256) {
    Path dir = Objects.requireNonNull(planPath(expRoot, "x").getParent(), "the plans folder");
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    List<Path> plans;
    try (Stream<Path> files = Files.list(dir)) {
      plans = files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      return Optional.empty();
    }
    for (Path f : plans) {
      try {
        byte[] bytes = Files.readAllBytes(f);
        JsonNode tree = PlanJson.parse(bytes);
        if (tree.isObject() && identitySha256.equals(SeriesIdentity.sha256(tree))) {
          return Optional.of(new ExistingPlan(f, Sha256.hex(bytes), tree));
        }
      } catch (IOException | RuntimeException e) {
        // not a readable plan: not a series this request continues
      }
    }
    return Optional.empty();
  }

  /**
   * Loads the plan named by a reuse request; logs REUSE_PLAN_MISSING, REUSE_SHA256_MISMATCH or
   * REUSE_PLAN_INVALID and returns empty when it cannot be reused.
   */
  public static Optional<ExistingPlan> loadForReuse(ReuseRequest reuse, RuleLog log) {
    VerifiedPlan v;
    try {
      v = PlanFile.verify(reuse.plan(), reuse.sha256(), "--reuse-sha256");
    } catch (PlanFile.Failure e) {
      BlockerCode code =
          switch (e.problem()) {
            case MISSING -> BlockerCode.REUSE_PLAN_MISSING;
            case SHA256_MISMATCH -> BlockerCode.REUSE_SHA256_MISMATCH;
            case SHA256_MALFORMED, INVALID -> BlockerCode.REUSE_PLAN_INVALID;
          };
      log.block(
          code,
          "--reuse-plan "
              + e.getMessage()
              + (code == BlockerCode.REUSE_SHA256_MISMATCH
                  ? "; a series plan never changes, so this is not the plan the series was measured under"
                  : ""));
      return Optional.empty();
    }
    return Optional.of(new ExistingPlan(v.path(), v.sha256(), PlanJson.tree(v.plan())));
  }
}
