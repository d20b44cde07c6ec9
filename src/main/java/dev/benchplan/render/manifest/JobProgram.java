package dev.benchplan.render.manifest;

import dev.benchplan.artifacts.ArtifactChannel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The AIPerf container's program ({@code benchplan-job.py} in this package's resources), mounted
 * from the Job's config ConfigMap beside the artifact encoder ({@code ship-artifacts.py}, {@link
 * ArtifactChannel}): check the trace's SHA-256, wait (bounded) until the served model answers, run
 * {@code aiperf profile} with the arguments it is given (or, with {@code BENCHPLAN_RUN_DIRS}, once
 * per load point with that point's ConfigMap key), fail when AIPerf exits 0 without a summary, then
 * print the summary between the marker lines, every artifact through the verified channel and the
 * exit line ({@link dev.benchplan.render.JobContract}). Run-specific values reach it only through
 * environment variables and arguments, so the text is identical for every run.
 */
public final class JobProgram {
  /** Exit code when the model was not listed within the wait bound (AIPerf did not run). */
  public static final int EXIT_MODEL_NOT_LISTED = 124;

  /** Exit code when the trace in the pod does not hash to the plan's SHA-256. */
  public static final int EXIT_TRACE_MISMATCH = 65;

  /** Exit code when AIPerf exited 0 but wrote no summary export. */
  public static final int EXIT_NO_SUMMARY = 66;

  /** Exit code when the artifact directory cannot be created or a run's config is missing. */
  public static final int EXIT_ARTIFACT_DIR = 73;

  /** Exit code when aiperf is missing from the image. */
  public static final int EXIT_MISSING_TOOL = 127;

  /** The program's ConfigMap key (its file name in the mounted folder). */
  public static final String FILE = "benchplan-job.py";

  /** The artifact encoder's ConfigMap key, run by the program after AIPerf. */
  public static final String ENCODER_FILE = "ship-artifacts.py";

  private static final String TEXT = load();

  private JobProgram() {}

  /** The program text. */
  public static String text() {
    return TEXT;
  }

  /** The container command running the program mounted in {@code dir}. */
  public static List<String> command(String dir) {
    return List.of("python3", dir + "/" + FILE);
  }

  /** The ConfigMap key of run {@code dir}'s AIPerf config in a Job measuring several runs. */
  public static String runConfigKey(String dir) {
    return "aiperf-config." + dir + ".yaml";
  }

  private static String load() {
    try (InputStream in = JobProgram.class.getResourceAsStream(FILE)) {
      if (in == null) {
        throw new IllegalStateException(FILE + " missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
