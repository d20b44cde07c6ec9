package dev.benchplan.render.manifest;

import dev.benchplan.artifacts.ArtifactChannel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The fixed entrypoint of the AIPerf container ({@code aiperf-job.sh} in this package's resources):
 * check the trace's SHA-256, wait (bounded) until {@code /v1/models} lists the served model, run
 * {@code aiperf profile} with the arguments it is given (or, with {@code BENCHPLAN_RUN_DIRS}, once
 * per load point, one after another), then print the summary between the marker lines, every
 * artifact through the verified channel ({@link ArtifactChannel}) and the exit line ({@link
 * dev.benchplan.render.JobContract}). Run-specific values reach it only through environment
 * variables and arguments, so the text is identical for every run.
 */
public final class JobScript {
  /** Exit code when the model was not listed within the wait bound (AIPerf did not run). */
  public static final int EXIT_MODEL_NOT_LISTED = 124;

  /** Exit code when the trace in the pod does not hash to the plan's SHA-256. */
  public static final int EXIT_TRACE_MISMATCH = 65;

  /** Exit code when the artifact directory cannot be created. */
  public static final int EXIT_ARTIFACT_DIR = 73;

  /** Exit code when python3 or aiperf is missing from the image. */
  public static final int EXIT_MISSING_TOOL = 127;

  /** {@code $0} of the script, shown in process listings. */
  public static final String SCRIPT_NAME = "benchplan-aiperf";

  /** Where the artifact encoder's text goes in the script. */
  private static final String SHIP_PLACEHOLDER = "@SHIP_ARTIFACTS_PY@";

  private static final String TEXT = load();

  private JobScript() {}

  /** The script text. */
  public static String text() {
    return TEXT;
  }

  private static String load() {
    try (InputStream in = JobScript.class.getResourceAsStream("aiperf-job.sh")) {
      if (in == null) {
        throw new IllegalStateException("aiperf-job.sh missing from the jar");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      String ship = ArtifactChannel.encoderScript();
      // the encoder sits in a single-quoted bash string
      if (ship.indexOf('\'') >= 0 || !text.contains(SHIP_PLACEHOLDER)) {
        throw new IllegalStateException("ship-artifacts.py cannot be embedded in aiperf-job.sh");
      }
      return text.replace(SHIP_PLACEHOLDER, ship);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
