package dev.benchplan.kube.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The plan a perf.yaml was rendered from, found through the Job's {@code benchplan.dev/plan-path}
 * annotation and verified against {@code benchplan.dev/plan-sha256}: a run never executes a
 * manifest whose plan changed or vanished.
 *
 * @param path the plan file
 * @param sha256 its SHA-256 (equal to the annotation)
 * @param plan the plan document
 */
public record PlanReference(Path path, String sha256, ObjectNode plan) {
  public PlanReference {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(plan, "plan");
  }

  /** Finds and verifies the plan named by perf.yaml (exit 2 when missing, changed or not JSON). */
  public static PlanReference verify(PerfYaml perf) {
    Path path = Path.of(perf.annotation(PerfYaml.PLAN_PATH));
    String expected = perf.annotation(PerfYaml.PLAN_SHA);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(perf.file() + ": the plan it was rendered from is missing: " + path
          + " (Job annotation " + PerfYaml.PLAN_PATH + ")", e);
    } catch (IOException e) {
      throw InputErrors.unreadable("plan", path, e);
    }
    String actual = Sha256.hex(bytes);
    if (!actual.equals(expected)) {
      throw BenchplanException.invalid(path + ": SHA-256 " + actual + " differs from " + expected
          + " recorded in " + perf.file() + " (" + PerfYaml.PLAN_SHA + "): the plan changed after render;"
          + " re-render from the plan you mean to run");
    }
    JsonNode plan;
    try {
      plan = Json.JSON.readTree(bytes);
    } catch (JacksonException e) {
      throw InputErrors.unparsable("plan", path, e);
    }
    if (!(plan instanceof ObjectNode obj)) {
      throw BenchplanException.invalid(path + ": /: expected a plan object");
    }
    return new PlanReference(path, actual, obj);
  }

  /** The AIPerf version the series pins ({@code /aiperf/version}), or null. */
  public String aiperfVersion() {
    return plan.path("aiperf").path("version").asString(null);
  }

  /** The AIPerf image the plan names ({@code /aiperf/image}), or null. */
  public String aiperfImage() {
    return plan.path("aiperf").path("image").asString(null);
  }

  /** {@code /series_id}, or null. */
  public String seriesId() {
    return plan.path("series_id").asString(null);
  }

  /** {@code /plan_id}, or null. */
  public String planId() {
    return plan.path("plan_id").asString(null);
  }

  /** {@code /objectives/gates} (may be missing). */
  public JsonNode gates() {
    return plan.path("objectives").path("gates");
  }
}
