package dev.benchplan.analysis.evidence;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code --label NAME=DIR}: the runs under DIR (a RUN argument or a folder holding several) measure
 * the candidate NAME. Plain AIPerf folders record no candidate; this is how the user names it.
 *
 * @param name the candidate's name
 * @param dir the folder, absolute and normalized
 */
public record CandidateLabel(String name, Path dir) {
  public CandidateLabel {
    Objects.requireNonNull(name, "name");
    dir = dir.toAbsolutePath().normalize();
  }

  /** Parses {@code NAME=DIR}; a bad value is invalid input naming the option (exit 2). */
  public static CandidateLabel parse(String value) {
    int eq = value.indexOf('=');
    String name = eq < 0 ? "" : value.substring(0, eq);
    String dir = eq < 0 ? "" : value.substring(eq + 1);
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._+-]*") || dir.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--label"),
          "--label "
              + value
              + ": expected NAME=DIR (NAME of letters, digits, '.', '_', '+', '-'; DIR a RUN folder"
              + " or a folder above RUN folders)");
    }
    Path p = Path.of(dir);
    if (!Files.isDirectory(p)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--label", p),
          "--label " + value + ": " + dir + " is not a directory");
    }
    return new CandidateLabel(name, p);
  }

  /** True when {@code runDir} or {@code arg} lies under (or is) this label's folder. */
  boolean covers(Path arg, Path runDir) {
    return arg.toAbsolutePath().normalize().startsWith(dir)
        || runDir.toAbsolutePath().normalize().startsWith(dir);
  }
}
