package dev.benchplan.aiperf.config;

import dev.benchplan.error.BenchplanException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An AIPerf release number as pinned in a plan ({@code 0.6.0}, {@code 0.6.0.post1}, {@code
 * 0.12.0rc1}), ordered by major, minor, patch; a suffix orders after the plain release (a post
 * release) or before it (a pre-release), which is all the flag table needs.
 */
public record AiperfRelease(int major, int minor, int patch, String suffix)
    implements Comparable<AiperfRelease> {
  private static final Pattern VERSION =
      Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(?:[.-]?((?:post|rc|a|b)\\d+))?");

  /** The first release that reads the native YAML config ({@code aiperf profile --config}). */
  public static final AiperfRelease NATIVE_CONFIG = of(0, 11, 0);

  public AiperfRelease {
    if (major < 0 || minor < 0 || patch < 0) {
      throw new IllegalArgumentException("negative version component");
    }
    suffix = suffix == null ? "" : suffix;
  }

  /** A plain release. */
  public static AiperfRelease of(int major, int minor, int patch) {
    return new AiperfRelease(major, minor, patch, "");
  }

  /** Parses a version string; anything else is invalid input naming the source. */
  public static AiperfRelease parse(String text, String source) {
    Matcher m = text == null ? null : VERSION.matcher(text.trim());
    if (m == null || !m.matches()) {
      throw BenchplanException.invalid(
          source + ": '" + text + "' is not an AIPerf version: expected e.g. 0.11.0 or 0.6.0.post1");
    }
    return new AiperfRelease(
        Integer.parseInt(m.group(1)),
        Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)),
        m.group(4));
  }

  /** True when this release reads the native schemaVersion "2.0" config file. */
  public boolean readsNativeConfig() {
    return compareTo(NATIVE_CONFIG) >= 0;
  }

  @Override
  public int compareTo(AiperfRelease o) {
    int c = Integer.compare(major, o.major);
    if (c == 0) {
      c = Integer.compare(minor, o.minor);
    }
    if (c == 0) {
      c = Integer.compare(patch, o.patch);
    }
    if (c == 0) {
      c = Integer.compare(suffixRank(), o.suffixRank());
    }
    return c;
  }

  private int suffixRank() {
    if (suffix.isEmpty()) {
      return 0;
    }
    return suffix.startsWith("post") ? 1 : -1;
  }

  @Override
  public String toString() {
    if (suffix.isEmpty()) {
      return major + "." + minor + "." + patch;
    }
    return major + "." + minor + "." + patch + (suffix.startsWith("post") ? "." : "") + suffix;
  }
}
