package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.gate.Constraint;
import dev.benchplan.gate.ConstraintReader;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads the inference performance section of an AICR recipe overlay: a {@code RecipeMetadata}
 * document's {@code spec.validation.performance}, or the seed's top-level {@code
 * validation.performance}. Its own reading decides whether the check is listed; the constraint
 * values are then read by the gate's reader, so validate and {@code run} agree. Bad content is
 * invalid input (exit 2) naming the JSON pointer.
 */
public final class ValidationOverlay {
  private ValidationOverlay() {}

  /**
   * Loads the performance request of the overlay at {@code path}: whether the check is listed (and
   * constrained) decides run or skip; the constraints themselves are read by the gate's own reader
   * ({@link ConstraintReader#fromOverlay}), exactly as {@code run} will read them, with thresholds
   * in the canonical units (tokens/sec, ms).
   */
  public static PerformanceRequest load(Path path) {
    return load(path, false);
  }

  /**
   * As {@link #load(Path)}; an unknown {@code inference-*} name (a typo such as {@code
   * inference-ttft-p95}) is invalid input naming the known ones unless {@code allowUnknown} ({@code
   * --allow-unknown-constraints}: listed as ignored, as other checks' names always are).
   */
  public static PerformanceRequest load(Path path, boolean allowUnknown) {
    Listing listed = readListing(path);
    if (listed.skipReason() != null) {
      return new PerformanceRequest(
          listed.source(), listed.checks(), List.of(), listed.skipReason());
    }
    // the gate's reader refuses an unknown inference-* name, as run's does; the allowed and the
    // other checks' names are listed by ValidateInputs
    ConstraintSet set = ConstraintReader.fromOverlay(path, allowUnknown);
    List<Constraint> constraints = new ArrayList<>();
    for (Constraint c : set.constraints()) {
      if (c.name().equals(ConstraintReader.THROUGHPUT)
          || c.name().equals(ConstraintReader.TTFT_P99)) {
        constraints.add(PerformanceRequest.canonical(c, path));
      }
    }
    RecipeSettings settings = settings(path);
    if (settings.perGpuFloor() != null) {
      constraints.add(PerformanceRequest.canonical(settings.perGpuFloor(), path));
    }
    if (constraints.isEmpty()) {
      return new PerformanceRequest(
          listed.source(),
          listed.checks(),
          List.of(),
          path
              + ": no "
              + ConstraintReader.THROUGHPUT
              + " or "
              + ConstraintReader.TTFT_P99
              + " constraint: nothing to gate on");
    }
    return new PerformanceRequest(listed.source(), listed.checks(), constraints, null);
  }

  /**
   * Reads the overlay's benchmark settings, its per-GPU floor, the names nobody here knows and its
   * Dynamo platform component (see {@link RecipeSettings}). Structure errors are the gate reader's
   * to report; a setting whose value is not a scalar is invalid input naming its pointer.
   */
  public static RecipeSettings settings(Path path) {
    JsonNode root = readTree(path);
    String source = path.toString();
    JsonNode spec = root.path("spec");
    String base = root.path("spec").has("validation") ? "/spec/validation" : "/validation";
    JsonNode constraints =
        (base.equals("/spec/validation") ? spec.path("validation") : root.path("validation"))
            .path("performance")
            .path("constraints");
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, String> pointers = new LinkedHashMap<>();
    List<String> unknown = new ArrayList<>();
    Constraint perGpu = null;
    int i = 0;
    for (JsonNode c : constraints.values()) {
      String entry = base + "/performance/constraints/" + i++;
      String pointer = source + ": " + entry;
      if (!c.path("name").isString()) {
        continue; // the gate reader names this one
      }
      String name = c.path("name").stringValue().trim();
      if (ConstraintReader.AICR_SETTINGS.contains(name)) {
        JsonNode v = c.path("value");
        if (!v.isValueNode() || v.isNull()) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(path, base + "/performance/constraints/" + (i - 1) + "/value"),
              pointer
                  + "/value: "
                  + name
                  + ": expected a value (a string), found "
                  + JsonInput.describe(v));
        }
        values.put(name, v.asString().trim());
        pointers.put(name, entry);
      } else if (name.equals(ConstraintReader.THROUGHPUT_PER_GPU)) {
        perGpu =
            ConstraintReader.perGpuFloor(
                c.get("value"), pointer, ErrorLocation.pointer(path, entry));
      } else if (!KNOWN_GATES.contains(name) && !GENERIC.matcher(name).matches()) {
        unknown.add(name);
      }
    }
    boolean platform = false;
    String version = null;
    int r = 0;
    for (JsonNode ref : spec.path("componentRefs").values()) {
      if (RecipeSettings.DYNAMO_PLATFORM.equals(ref.path("name").asString(""))) {
        platform = true;
        pointers.put(RecipeSettings.DYNAMO_PLATFORM, "/spec/componentRefs/" + r);
        JsonNode v = ref.path("version");
        version =
            v.isValueNode() && !v.isNull() && !v.asString().isBlank() ? v.asString().trim() : null;
      }
      r++;
    }
    boolean refs = spec.path("componentRefs").isArray() && !spec.path("componentRefs").isEmpty();
    return new RecipeSettings(source, values, pointers, perGpu, unknown, refs, platform, version);
  }

  private static final java.util.Set<String> KNOWN_GATES =
      java.util.Set.of(ConstraintReader.THROUGHPUT, ConstraintReader.TTFT_P99);

  /** The gate's generic {@code <metric>-<stat>} names: gated by the gate, not unknown. */
  private static final java.util.regex.Pattern GENERIC =
      java.util.regex.Pattern.compile("([a-z][a-z0-9_]*)-(avg|min|max|std|count|sum|p\\d{1,3})");

  private static JsonNode readTree(Path path) {
    JsonNode root = parse(path);
    if (root == null || !root.isObject()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(path, ""), path + ": expected a mapping at the top level");
    }
    return root;
  }

  /** The overlay file's YAML tree (null for an empty file); a missing or bad file is exit 2. */
  private static @Nullable JsonNode parse(Path path) {
    String text;
    try {
      text = Files.readString(path);
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(path), path + ": recipe overlay not found");
    } catch (IOException e) {
      throw InputErrors.unreadable("recipe overlay", path, e);
    }
    try {
      return Json.YAML.readTree(text);
    } catch (JacksonException e) {
      throw InputErrors.unparsable("recipe overlay", path, e);
    }
  }

  /** What the overlay lists: the checks, and why the check is skipped (null when it runs). */
  record Listing(String source, List<String> checks, @Nullable String skipReason) {}

  private static Listing readListing(Path path) {
    return read(parse(path), path.toString());
  }

  /** Reads whether a parsed overlay asks for the check; {@code source} names it in messages. */
  static Listing read(@Nullable JsonNode root, String source) {
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(source), source + ": empty recipe overlay");
    }
    if (!root.isObject()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, ""), source + ": expected a mapping at the top level");
    }
    String base;
    JsonNode validation;
    if (root.path("kind").isString() && "RecipeMetadata".equals(root.path("kind").stringValue())) {
      base = "/spec/validation";
      validation = root.path("spec").path("validation");
    } else if (root.has("validation")) {
      base = "/validation";
      validation = root.path("validation");
    } else {
      base = "/spec/validation";
      validation = root.path("spec").path("validation");
    }
    JsonNode perf = validation.path("performance");
    if (perf.isMissingNode() || perf.isNull()) {
      return new Listing(
          source,
          List.of(),
          source
              + " has no "
              + base
              + "/performance section: the"
              + " inference performance check is not requested");
    }
    if (!perf.isObject()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, base + "/performance"),
          source + ": " + base + "/performance: expected a mapping");
    }
    List<String> checks = readChecks(perf.path("checks"), source, base + "/performance/checks");
    boolean listed = checks.stream().anyMatch(PerformanceRequest.CHECK_NAMES::contains);
    if (!listed) {
      return skipped(
          source,
          checks,
          base
              + "/performance/checks lists neither "
              + String.join(" nor ", PerformanceRequest.CHECK_NAMES)
              + (checks.isEmpty() ? "" : " (it lists " + String.join(", ", checks) + ")"));
    }
    if (!names(perf.path("constraints")).stream()
        .anyMatch(
            n ->
                n.equals(ConstraintReader.THROUGHPUT)
                    || n.equals(ConstraintReader.TTFT_P99)
                    || n.equals(ConstraintReader.THROUGHPUT_PER_GPU))) {
      return skipped(
          source,
          checks,
          base
              + "/performance/constraints has neither "
              + ConstraintReader.THROUGHPUT
              + " nor "
              + ConstraintReader.TTFT_P99
              + ": nothing to gate on");
    }
    return new Listing(source, checks, null);
  }

  /**
   * A listing whose check is skipped: {@code why} names the overlay's pointer and what it lacks.
   */
  private static Listing skipped(String source, List<String> checks, String why) {
    return new Listing(source, checks, source + ": " + why);
  }

  /** The constraint names listed (structure and values are the gate reader's to check). */
  private static List<String> names(JsonNode constraints) {
    List<String> out = new ArrayList<>();
    for (JsonNode c : constraints.values()) {
      if (c.path("name").isString()) {
        out.add(c.path("name").stringValue().trim());
      }
    }
    return out;
  }

  private static List<String> readChecks(JsonNode node, String source, String pointer) {
    if (node.isMissingNode() || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, pointer),
          source + ": " + pointer + ": expected a list of check names");
    }
    List<String> checks = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode c = node.get(i);
      if (!c.isString() || c.asString().isBlank()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(source, pointer + "/" + i),
            source + ": " + pointer + "/" + i + ": expected a check name (string)");
      }
      checks.add(c.asString().trim());
    }
    return checks;
  }
}
