package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A plan file that hashes to the SHA-256 the caller named and passes the plan schema.
 *
 * @param path the plan file, absolute and normalised
 * @param sha256 its SHA-256 (lowercase hex)
 * @param plan the facts render uses
 */
public record VerifiedPlan(Path path, String sha256, RenderPlan plan) {
  /** The plan schema in schemas/ (packaged in the jar). */
  public static final String SCHEMA = "benchmark-plan.schema.json";

  /** The directory a relative trace path in the plan is resolved against. */
  public Path folder() {
    return path.getParent();
  }

  /**
   * Reads and verifies a plan: the exact bytes must hash to {@code expectedSha256}, be JSON, and
   * pass the plan schema; otherwise invalid input (exit 2).
   */
  public static VerifiedPlan read(Path file, String expectedSha256) {
    if (!Sha256.isSha256(expectedSha256)) {
      throw BenchplanException.invalid(
          "--plan-sha256 '" + expectedSha256 + "': expected 64 hexadecimal characters");
    }
    String expected = expectedSha256.toLowerCase(Locale.ROOT);
    Path path = file.toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) {
      throw BenchplanException.invalid(path + ": plan file does not exist: expected the plan"
          + " written by `benchplan plan`");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw InputErrors.unreadable("plan", path, e);
    }
    String actual = Sha256.hex(bytes);
    if (!actual.equals(expected)) {
      throw BenchplanException.invalid(
          path + ": SHA-256 is " + actual + ", not " + expected + " (--plan-sha256): the plan was"
              + " edited or another file was named; expected the plan exactly as it was written");
    }
    JsonNode node;
    try {
      node = Json.JSON.readTree(bytes);
    } catch (JacksonException e) {
      throw InputErrors.unparsable("plan", path, e);
    }
    SchemaValidator.bundled(SCHEMA).requireValid(node, path.toString());
    return new VerifiedPlan(path, actual, RenderPlan.fromJson(node, path.toString()));
  }
}
