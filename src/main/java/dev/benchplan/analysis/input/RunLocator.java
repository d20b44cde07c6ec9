package dev.benchplan.analysis.input;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.runrecord.RunRecordDocument;
import dev.benchplan.runrecord.RunRecordReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Finds the measured runs under a RUN argument: a benchplan run directory ({@code run.json} plus
 * the summary it keeps, or AIPerf's tree under {@code aiperf/}), or a plain AIPerf artifact
 * directory in any layout AIPerf writes (single run, {@code profile_runs/run_NNNN}, {@code
 * <param>_<value>} sweeps, {@code profile_runs/trial_NNNN/<param>_<value>}). Aggregate folders
 * ({@code aggregate}, {@code sweep_aggregate}) are AIPerf's derived statistics, not runs.
 */
public final class RunLocator {
  public static final String SUMMARY = "profile_export_aiperf.json";
  public static final String RECORDS = "profile_export.jsonl";
  public static final String RUN_JSON = RunRecordReader.FILE_NAME;
  private static final Pattern TRIAL = Pattern.compile("(?:run|trial)_(\\d+)");

  /**
   * A sweep folder: {@code <param>_<value>}, e.g. {@code concurrency_16}, {@code request_rate_2.5}.
   */
  private static final Pattern SWEEP = Pattern.compile("([a-z][a-z_]*?)_(\\d+(?:\\.\\d+)?)");

  private static final int MAX_DEPTH = 5;

  private RunLocator() {}

  /** Whether {@code dir} is a benchplan run directory (it holds {@code run.json}). */
  public static boolean isBenchplanRun(Path dir) {
    return Files.isRegularFile(dir.resolve(RUN_JSON));
  }

  /** Every run under {@code arg}, sorted by path; none found is invalid input (exit 2). */
  public static List<RunSource> locate(Path arg) {
    Path start = arg;
    if (Files.isRegularFile(arg) && arg.getFileName().toString().equals(SUMMARY)) {
      // a summary file names exactly one run: its directory, without looking further down
      Path dir = Objects.requireNonNull(arg.toAbsolutePath().getParent(), "a file has a parent");
      return List.of(source(dir.getParent() == null ? dir : dir.getParent(), dir, null, null));
    }
    if (!Files.isDirectory(start)) {
      throw BenchplanException.invalid(
          ErrorLocation.file(arg),
          arg
              + ": not found or not a directory; expected a benchplan run directory"
              + " (benchmark/runs/<run-id>/) or an AIPerf artifact directory");
    }
    List<RunSource> out = new ArrayList<>();
    if (isBenchplanRun(start)) {
      RunRecordDocument record = RunRecordReader.read(start.resolve(RUN_JSON));
      Path tree = Files.isDirectory(start.resolve("aiperf")) ? start.resolve("aiperf") : start;
      List<Path> dirs = new ArrayList<>();
      collect(tree, 0, dirs);
      if (dirs.isEmpty()) {
        dirs.add(start); // run.json without a summary: the audit reports the missing export
      }
      for (Path d : dirs) {
        out.add(source(start, d, start.resolve(RUN_JSON), record));
      }
      return out;
    }
    List<Path> dirs = new ArrayList<>();
    collect(start, 0, dirs);
    if (dirs.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(arg),
          arg
              + ": no AIPerf run found: expected "
              + SUMMARY
              + " or "
              + RECORDS
              + " in the directory, in <param>_<value>/, profile_runs/run_NNNN/ or profile_runs/trial_NNNN/<param>_<value>/"
              + " (up to "
              + MAX_DEPTH
              + " levels), or a benchplan run.json");
    }
    for (Path d : dirs) {
      out.add(source(start, d, null, null));
    }
    return out;
  }

  private static RunSource source(
      Path base, Path dir, @Nullable Path runJson, @Nullable RunRecordDocument record) {
    String rel = base.relativize(dir).toString();
    String label =
        rel.isEmpty()
            ? base.toAbsolutePath().normalize().getFileName().toString()
            : base.toAbsolutePath().normalize().getFileName() + "/" + rel;
    Integer trial = null;
    for (Path part : base.relativize(dir)) {
      Matcher m = TRIAL.matcher(part.toString());
      if (m.matches()) {
        trial = Integer.parseInt(m.group(1));
      }
    }
    return new RunSource(
        label, dir, dir.resolve(SUMMARY), dir.resolve(RECORDS), runJson, record, trial);
  }

  /**
   * The sweep point of a run folder: the last {@code <param>_<value>} segment of {@code dir} below
   * {@code base} (not a {@code run_NNNN}/{@code trial_NNNN} one), as {@code {param, value}}; null
   * when the run is not part of a sweep.
   */
  public static String @Nullable [] sweepPoint(Path base, Path dir) {
    String[] found = null;
    for (Path part : base.relativize(dir)) {
      String name = part.toString();
      Matcher m = SWEEP.matcher(name);
      if (m.matches() && !TRIAL.matcher(name).matches()) {
        found = new String[] {m.group(1), m.group(2)};
      }
    }
    return found;
  }

  /**
   * The repetition of a run folder from its {@code run_NNNN}/{@code trial_NNNN} segment below
   * {@code base}, else null.
   */
  public static @Nullable Integer repetition(Path base, Path dir) {
    Integer trial = null;
    for (Path part : base.relativize(dir)) {
      Matcher m = TRIAL.matcher(part.toString());
      if (m.matches()) {
        trial = Integer.parseInt(m.group(1));
      }
    }
    return trial;
  }

  private static void collect(Path dir, int depth, List<Path> out) {
    if (Files.isRegularFile(dir.resolve(SUMMARY)) || Files.isRegularFile(dir.resolve(RECORDS))) {
      out.add(dir);
    }
    if (depth >= MAX_DEPTH) {
      return;
    }
    List<Path> children;
    try (Stream<Path> s = Files.list(dir)) {
      children = s.filter(Files::isDirectory).sorted().toList();
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(dir), dir + ": cannot list: " + e.getMessage(), e);
    }
    for (Path c : children) {
      String name = c.getFileName().toString();
      if (name.equals("aggregate") || name.equals("sweep_aggregate") || name.startsWith(".")) {
        continue;
      }
      collect(c, depth + 1, out);
    }
  }
}
