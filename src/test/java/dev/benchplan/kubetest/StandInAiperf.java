package dev.benchplan.kubetest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The stand-in {@code aiperf} executable (a Python script, test resource {@code
 * standin-aiperf.py}): {@code aiperf profile} with AIPerf's flags or {@code --config FILE} writes a
 * real AIPerf artifact tree, copied byte for byte from real runs, in the layout AIPerf uses for
 * those flags (profile_runs/run_NNNN, concurrency_N, aggregate/, sweep_aggregate/), prints a few
 * lines like AIPerf and exits 0 (or {@link #EXIT_ENV}). See the script's docstring for every knob.
 */
public final class StandInAiperf {
  /** Folder of real runs ({@code concurrency<N>/}) the script copies. */
  public static final String DATA_ENV = "BENCHPLAN_STANDIN_AIPERF_DATA";

  /**
   * Lines {@code POD_PATH=LOCAL_PATH}: pod paths read from config files are mapped through them.
   */
  public static final String PATH_MAP_ENV = "BENCHPLAN_STANDIN_PATH_MAP";

  /** The exit code after the tree is written (default 0). */
  public static final String EXIT_ENV = "BENCHPLAN_STANDIN_AIPERF_EXIT";

  /** Grow each run's profile_export.jsonl to at least this many bytes (real records repeated). */
  public static final String RECORDS_BYTES_ENV = "BENCHPLAN_STANDIN_AIPERF_RECORDS_BYTES";

  /** Seconds to sleep per measured run. */
  public static final String SECONDS_ENV = "BENCHPLAN_STANDIN_AIPERF_SECONDS";

  /**
   * A comma list of {@code concurrency<N>} sources: run k of a multi-run copies the k-th (repeats
   * that disagree).
   */
  public static final String REPEAT_SOURCES_ENV = "BENCHPLAN_STANDIN_AIPERF_REPEAT_SOURCES";

  /**
   * "1": copy nothing, generate every run from a seeded made-up latency model and write {@link
   * #SYNTHETIC_MARKER} at the top of the artifact directory (no third-party data needed).
   */
  public static final String SYNTHETIC_ENV = "BENCHPLAN_STANDIN_AIPERF_SYNTHETIC";

  /** The marker a synthetic tree carries; {@code benchplan run} records its text in run.json. */
  public static final String SYNTHETIC_MARKER = "SYNTHETIC.txt";

  /**
   * The {@code concurrency<N>} source every run without a repeat source copies, whatever its
   * concurrency (separate Jobs that disagree).
   */
  public static final String SOURCE_ENV = "BENCHPLAN_STANDIN_AIPERF_SOURCE";

  private static final String RESOURCE = "standin-aiperf.py";

  private StandInAiperf() {}

  /**
   * Writes the executable {@code bin/aiperf} under {@code dir} (created) and returns {@code bin}.
   */
  public static Path install(Path dir) {
    try {
      Path bin = Files.createDirectories(dir.resolve("bin"));
      Path exe = bin.resolve("aiperf");
      try (InputStream in = StandInAiperf.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException("test resource " + RESOURCE + " is missing");
        }
        Files.write(exe, in.readAllBytes());
      }
      Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
      return bin;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot install the stand-in aiperf under " + dir, e);
    }
  }
}
