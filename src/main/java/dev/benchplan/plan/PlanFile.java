package dev.benchplan.plan;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ExitCode;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The one reader of a written series plan (render, run and validate use it): the exact bytes must
 * hash to the SHA-256 the caller names, be JSON, pass {@code schemas/benchmark-plan.schema.json}
 * and the cross-field rules the schema cannot state. Every error names the file and the JSON
 * pointer, and is invalid input (exit 2).
 */
public final class PlanFile {
  /** The plan schema in schemas/ (packaged in the jar). */
  public static final String SCHEMA = SeriesStore.SCHEMA;

  private PlanFile() {}

  /** What was wrong with a plan file, for callers that report each case in their own terms. */
  public enum Problem {
    /** The expected SHA-256 is not 64 hex characters. */
    SHA256_MALFORMED,
    /** The file does not exist or cannot be read. */
    MISSING,
    /** The bytes hash to another SHA-256. */
    SHA256_MISMATCH,
    /** Not JSON, not the schema, or a cross-field rule broken. */
    INVALID
  }

  /** A plan file that failed verification: invalid input (exit 2) with its {@link Problem}. */
  public static final class Failure extends BenchplanException {
    private final Problem problem;

    Failure(
        Problem problem, ErrorLocation at, @Nullable String message, @Nullable Throwable cause) {
      super(ExitCode.INVALID, message, cause, at);
      this.problem = problem;
    }

    /** Which check failed. */
    public Problem problem() {
      return problem;
    }
  }

  /** Verifies a plan whose SHA-256 was given with {@code --plan-sha256}. */
  public static VerifiedPlan verify(Path file, String sha256) {
    return verify(file, sha256, "--plan-sha256");
  }

  /**
   * Reads and verifies a plan.
   *
   * @param file the plan file
   * @param sha256 the SHA-256 its bytes must have
   * @param shaSource where that SHA-256 came from, named in errors (e.g. {@code --plan-sha256})
   * @throws BenchplanException (exit 2) when the SHA-256, the JSON, the schema or a cross-field
   *     rule does not hold
   */
  public static VerifiedPlan verify(Path file, String sha256, String shaSource) {
    try {
      return read(file, sha256, shaSource);
    } catch (Failure e) {
      throw e;
    } catch (BenchplanException e) {
      // schema and cross-field checks report through BenchplanException.invalid
      throw new Failure(Problem.INVALID, e.location(), e.getMessage(), e);
    }
  }

  private static VerifiedPlan read(Path file, String sha256, String shaSource) {
    if (sha256 == null || !Sha256.isSha256(sha256)) {
      throw new Failure(
          Problem.SHA256_MALFORMED,
          ErrorLocation.option(shaSource),
          shaSource + " '" + sha256 + "': expected 64 hexadecimal characters",
          null);
    }
    String expected = sha256.toLowerCase(Locale.ROOT);
    Path path = file.toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) {
      throw new Failure(
          Problem.MISSING,
          ErrorLocation.file(path),
          path + ": plan file does not exist: expected the plan" + " written by `benchplan plan`",
          null);
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new Failure(
          Problem.MISSING,
          ErrorLocation.file(path),
          path + ": cannot read plan: " + InputErrors.describe(e),
          e);
    }
    String actual = Sha256.hex(bytes);
    if (!actual.equals(expected)) {
      throw new Failure(
          Problem.SHA256_MISMATCH,
          ErrorLocation.file(path),
          path
              + ": SHA-256 is "
              + actual
              + ", not "
              + expected
              + " ("
              + shaSource
              + "): the plan"
              + " was edited or another file was named; expected the plan exactly as it was"
              + " written",
          null);
    }
    return new VerifiedPlan(path, actual, typed(bytes, path.toString()));
  }

  /**
   * Reads plan bytes whose SHA-256 the caller has already checked (analyze, which reports a missing
   * or changed plan in its own terms): JSON, the schema, the plan's records and the cross-field
   * rules, as {@link #verify} does.
   *
   * @param bytes the plan file's bytes
   * @param source what errors name, e.g. {@code the plan <path>}
   * @throws Failure ({@link Problem#INVALID}, exit 2) when the JSON, the schema or a cross-field
   *     rule does not hold
   */
  public static BenchmarkPlan parse(byte[] bytes, String source) {
    try {
      return typed(bytes, source);
    } catch (BenchplanException e) {
      throw new Failure(Problem.INVALID, e.location(), e.getMessage(), e);
    }
  }

  private static BenchmarkPlan typed(byte[] bytes, String source) {
    JsonNode tree = PlanJson.parseObject(bytes).orThrow(null, source, PlanJson.EXPECTED);
    SchemaValidator.bundled(SCHEMA).requireValid(tree, source);
    BenchmarkPlan plan;
    try {
      plan = PlanJson.read(tree, BenchmarkPlan.class);
    } catch (JacksonException e) {
      // a value the schema allows but the plan's records cannot hold (e.g. beyond long)
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, pointer(e)),
          source
              + ": "
              + pointer(e)
              + ": "
              + InputErrors.describe(e)
              + ": expected a value of the plan schema",
          e);
    }
    checkRules(plan, source);
    return plan;
  }

  private static String pointer(JacksonException e) {
    StringBuilder sb = new StringBuilder();
    for (var ref : e.getPath()) {
      sb.append('/');
      sb.append(ref.getPropertyName() != null ? ref.getPropertyName() : ref.getIndex());
    }
    return sb.length() == 0 ? "/" : sb.toString();
  }

  /** Rules between fields that the schema does not express. */
  private static void checkRules(BenchmarkPlan plan, String source) {
    endpointUrl(plan.deployment().endpointUrl(), source);
    BenchmarkPlan.Experiment experiment = plan.experiment();
    BenchmarkPlan.Workload workload = plan.workload();
    switch (experiment.measurementMode()) {
      case "closed_loop" -> {
        if (experiment.concurrency() == null) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(source, "/experiment/concurrency"),
              source
                  + ": /experiment/concurrency: null, but measurement_mode is closed_loop:"
                  + " expected a list of concurrency points");
        }
      }
      case "open_loop" -> {
        if (experiment.requestRate() == null) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(source, "/experiment/request_rate"),
              source
                  + ": /experiment/request_rate: null, but measurement_mode is open_loop:"
                  + " expected a list of request rates");
        }
      }
      case "fixed_schedule" -> {
        if (workload.trace() == null) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(source, "/workload/trace"),
              source
                  + ": /workload/trace: absent, but measurement_mode is fixed_schedule:"
                  + " expected the trace to replay (workload.source user_trace)");
        }
        if (experiment.concurrency() != null || experiment.requestRate() != null) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(source, "/experiment"),
              source
                  + ": /experiment: fixed_schedule replays trace timestamps:"
                  + " expected concurrency and request_rate to be null");
        }
      }
      default ->
          throw BenchplanException.invalid(
              ErrorLocation.pointer(source, "/experiment/measurement_mode"),
              source
                  + ": /experiment/measurement_mode: '"
                  + experiment.measurementMode()
                  + "': expected closed_loop, open_loop or fixed_schedule");
    }
    if (workload.trace() == null && workload.synthetic() == null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/workload"),
          source
              + ": /workload: neither trace nor synthetic is given:"
              + " expected the prompts' source");
    }
    BenchmarkPlan.TraceWindowRows window =
        workload.trace() == null ? null : workload.trace().window();
    if (window != null && window.endMs() < window.startMs()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/workload/trace/window"),
          source
              + ": /workload/trace/window: end_ms "
              + window.endMs()
              + " is before start_ms "
              + window.startMs()
              + ": expected start_ms <= end_ms");
    }
  }

  private static void endpointUrl(String url, String source) {
    String where = source + ": /deployment/endpoint_url: '" + url + "'";
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException ex) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/deployment/endpoint_url"),
          where + " is not a URL: expected e.g. http://svc.ns:8000");
    }
    String scheme = uri.getScheme();
    if (scheme == null
        || !(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/deployment/endpoint_url"),
          where + ": expected an http(s) URL with a host");
    }
    String path = uri.getRawPath();
    if ((path != null && !path.isEmpty() && !path.equals("/"))
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/deployment/endpoint_url"),
          where + ": expected a base URL without a path, query or fragment");
    }
  }
}
