package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.util.regex.Pattern;

/** Kubernetes naming rules render checks before it writes anything. */
public final class KubeNames {
  private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern LABEL_VALUE =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** The longest DNS-1123 label (namespace, Job name). */
  public static final int MAX_LABEL = 63;

  private KubeNames() {}

  /** True for a DNS-1123 label of at most 63 characters. */
  public static boolean isDns1123Label(String s) {
    return s != null && s.length() <= MAX_LABEL && DNS1123_LABEL.matcher(s).matches();
  }

  /** True for a DNS-1123 subdomain (PVC names) of at most 253 characters. */
  public static boolean isDns1123Subdomain(String s) {
    return s != null && s.length() <= 253 && DNS1123_SUBDOMAIN.matcher(s).matches();
  }

  /** Throws invalid input unless {@code value} is a DNS-1123 label; {@code what} names it. */
  public static String requireDns1123Label(String value, String what) {
    return requireDns1123Label(value, what, ErrorLocation.NONE);
  }

  /** {@link #requireDns1123Label(String, String)} with the value's place for errors. */
  public static String requireDns1123Label(String value, String what, ErrorLocation at) {
    if (!isDns1123Label(value)) {
      throw BenchplanException.invalid(
          at,
          what
              + ": '"
              + value
              + "' is not a valid Kubernetes name: expected a DNS-1123 label"
              + " (lowercase letters, digits and '-', starting and ending with a letter or digit,"
              + " at most 63 characters)");
    }
    return value;
  }

  /**
   * The series as a label value: the series ID itself when it is one, else its first characters
   * plus 8 hex of its SHA-256, so every plan the schema allows can be rendered (the full ID stays
   * in the {@code benchplan.dev/series} annotation).
   */
  public static String seriesLabel(String seriesId) {
    if (seriesId.length() <= MAX_LABEL && LABEL_VALUE.matcher(seriesId).matches()) {
      return seriesId;
    }
    String hash = shortHash(seriesId);
    String head =
        seriesId.substring(0, Math.min(seriesId.length(), 50)).replaceAll("[^a-z0-9]+$", "");
    return head + "-" + hash;
  }

  /** 8 hex digits of the SHA-256 of a series ID: what a cut name keeps of the whole. */
  static String shortHash(String seriesId) {
    return dev.benchplan.json.Sha256.hex(seriesId.getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .substring(0, 8);
  }

  /**
   * The Job name for a series and run: {@code bp-<series>-<run-id lowercased>}, its characters
   * mapped to the DNS-1123 alphabet. When the whole would pass 63 characters the series is cut and
   * ends in 8 hex of the SHA-256 of the full series ID, so two series never share a Job name
   * prefix.
   */
  public static String jobName(String seriesId, RunId runId) {
    String suffix = "-" + runId.value().toLowerCase(java.util.Locale.ROOT);
    String prefix = "bp-";
    int room = MAX_LABEL - prefix.length() - suffix.length();
    String series = seriesId.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    series = series.replaceAll("-{2,}", "-");
    if (series.length() > room) {
      // cut, but keep 8 hex of the full series id's SHA-256 so two series never read the same
      String hash = shortHash(seriesId);
      series = series.substring(0, room - hash.length() - 1).replaceAll("-+$", "") + "-" + hash;
    }
    series = series.replaceAll("^-+", "").replaceAll("-+$", "");
    String name = series.isEmpty() ? "bp" + suffix : prefix + series + suffix;
    if (!isDns1123Label(name)) {
      throw new IllegalStateException("derived job name is not DNS-1123: " + name);
    }
    return name;
  }
}
