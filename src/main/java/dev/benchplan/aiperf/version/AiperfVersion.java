package dev.benchplan.aiperf.version;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An AIPerf version: parsed and ordered as PEP 440 specifies (epoch, release, pre-release, post
 * release, dev release; local labels are kept but do not make a version a release), so {@code
 * compareTo} is consistent with {@code equals}: {@code a1 < b1 < rc1 < final < post1}. Spelling
 * variants are normalized: {@code 1.0-RC1}, {@code 1.0rc1} and {@code 1.0.rc.1} are equal. A plan
 * pins only the {@link #PLAN_FORM} ({@code X.Y.Z} with an optional a/b/rc/post suffix).
 */
public final class AiperfVersion implements Comparable<AiperfVersion> {
  /**
   * The versions a plan pins and image tags carry: {@code X.Y.Z} and an optional a/b/rc/post suffix
   * (the plan schema's {@code /aiperf/version} pattern).
   */
  public static final Pattern PLAN_FORM =
      Pattern.compile("\\d+\\.\\d+\\.\\d+([.-]?(post|rc|a|b)\\d+)?");

  private static final Pattern PATTERN =
      Pattern.compile(
          "v?(?:(?<epoch>[0-9]+)!)?(?<release>[0-9]+(?:\\.[0-9]+)*)"
              + "(?<pre>[-_.]?(?<prel>alpha|beta|preview|pre|a|b|c|rc)[-_.]?(?<pren>[0-9]+)?)?"
              + "(?<post>(?:-(?<postn1>[0-9]+))|(?:[-_.]?(?<postl>post|rev|r)[-_.]?(?<postn2>[0-9]+)?))?"
              + "(?<dev>[-_.]?dev[-_.]?(?<devn>[0-9]+)?)?"
              + "(?:\\+(?<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?",
          Pattern.CASE_INSENSITIVE);

  private final String original;
  private final BigInteger epoch;
  private final List<BigInteger> release;
  private final @Nullable String preLabel; // a, b, rc or null
  private final @Nullable BigInteger preNumber;
  private final @Nullable BigInteger post; // null when absent
  private final @Nullable BigInteger dev; // null when absent
  private final @Nullable String local;

  private AiperfVersion(
      String original,
      BigInteger epoch,
      List<BigInteger> release,
      @Nullable String preLabel,
      @Nullable BigInteger preNumber,
      @Nullable BigInteger post,
      @Nullable BigInteger dev,
      @Nullable String local) {
    this.original = original;
    this.epoch = epoch;
    this.release = List.copyOf(release);
    this.preLabel = preLabel;
    this.preNumber = preNumber;
    this.post = post;
    this.dev = dev;
    this.local = local;
  }

  /**
   * Parses a version.
   *
   * @throws IllegalArgumentException when the string is not a PEP 440 version
   */
  public static AiperfVersion parse(String s) {
    Objects.requireNonNull(s, "version");
    Matcher m = PATTERN.matcher(s.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + s + "' is not a PEP 440 version");
    }
    BigInteger epoch =
        m.group("epoch") == null ? BigInteger.ZERO : new BigInteger(m.group("epoch"));
    List<BigInteger> release = new ArrayList<>();
    for (String part : m.group("release").split("\\.")) {
      release.add(new BigInteger(part));
    }
    String preLabel = null;
    BigInteger preNumber = null;
    if (m.group("pre") != null) {
      String l = m.group("prel").toLowerCase(Locale.ROOT);
      preLabel =
          switch (l) {
            case "alpha", "a" -> "a";
            case "beta", "b" -> "b";
            default -> "rc"; // c, rc, pre, preview
          };
      preNumber = m.group("pren") == null ? BigInteger.ZERO : new BigInteger(m.group("pren"));
    }
    BigInteger post = null;
    if (m.group("post") != null) {
      String n = m.group("postn1") != null ? m.group("postn1") : m.group("postn2");
      post = n == null ? BigInteger.ZERO : new BigInteger(n);
    }
    BigInteger dev = null;
    if (m.group("dev") != null) {
      dev = m.group("devn") == null ? BigInteger.ZERO : new BigInteger(m.group("devn"));
    }
    String local = m.group("local") == null ? null : m.group("local").toLowerCase(Locale.ROOT);
    return new AiperfVersion(s, epoch, release, preLabel, preNumber, post, dev, local);
  }

  /**
   * Parses a version in the {@link #PLAN_FORM}; anything else is invalid input (exit 2) naming
   * {@code source}.
   */
  public static AiperfVersion parse(@Nullable String text, String source) {
    return parse(text, source, ErrorLocation.NONE);
  }

  /** {@link #parse(String, String)} with the version's place for errors. */
  public static AiperfVersion parse(@Nullable String text, String source, ErrorLocation at) {
    if (text == null || !isPlanForm(text.trim())) {
      throw BenchplanException.invalid(
          at,
          source
              + ": '"
              + text
              + "' is not an AIPerf version: expected e.g. 0.11.0 or 0.6.0.post1");
    }
    return parse(text);
  }

  /** True when {@code text} is in the {@link #PLAN_FORM}. */
  public static boolean isPlanForm(@Nullable String text) {
    return text != null && PLAN_FORM.matcher(text).matches();
  }

  /** A final release {@code major.minor.patch}. */
  public static AiperfVersion of(int major, int minor, int patch) {
    return parse(major + "." + minor + "." + patch);
  }

  /** Parses, or returns null when the string is not a PEP 440 version. */
  public static @Nullable AiperfVersion tryParse(String s) {
    try {
      return parse(s);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** True for alpha, beta and release-candidate versions. */
  public boolean isPreRelease() {
    return preLabel != null;
  }

  /** True for {@code .devN} versions. */
  public boolean isDevRelease() {
    return dev != null;
  }

  /** True for a final release or a post release: not pre, not dev, no local label. */
  public boolean isStable() {
    return preLabel == null && dev == null && local == null;
  }

  /** The string as written. */
  public String original() {
    return original;
  }

  /** The PEP 440 normalized form, e.g. {@code 0.6.0.post1}, {@code 1.0rc1}. */
  public String normalized() {
    StringBuilder sb = new StringBuilder();
    if (epoch.signum() != 0) {
      sb.append(epoch).append('!');
    }
    for (int i = 0; i < release.size(); i++) {
      sb.append(i == 0 ? "" : ".").append(release.get(i));
    }
    if (preLabel != null) {
      sb.append(preLabel).append(preNumber);
    }
    if (post != null) {
      sb.append(".post").append(post);
    }
    if (dev != null) {
      sb.append(".dev").append(dev);
    }
    if (local != null) {
      sb.append('+').append(local.replace('-', '.').replace('_', '.'));
    }
    return sb.toString();
  }

  @Override
  public int compareTo(AiperfVersion o) {
    int c = epoch.compareTo(o.epoch);
    if (c != 0) {
      return c;
    }
    c = compareRelease(release, o.release);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(preRank(), o.preRank());
    if (c != 0) {
      return c;
    }
    // a pre-release label always comes with its number (parse sets both)
    if (preLabel != null && preNumber != null && o.preNumber != null) {
      c = preNumber.compareTo(o.preNumber);
      if (c != 0) {
        return c;
      }
    }
    c = compareNullsFirst(post, o.post);
    if (c != 0) {
      return c;
    }
    c = compareNullsLast(dev, o.dev);
    if (c != 0) {
      return c;
    }
    return compareNullsFirstText(local, o.local);
  }

  /** Orders pre-release phases: dev-only (before any pre-release) < a < b < rc < final. */
  private int preRank() {
    if (preLabel == null) {
      return (post == null && dev != null) ? -1 : 3;
    }
    return switch (preLabel) {
      case "a" -> 0;
      case "b" -> 1;
      default -> 2;
    };
  }

  private static int compareRelease(List<BigInteger> a, List<BigInteger> b) {
    int n = Math.max(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      BigInteger x = i < a.size() ? a.get(i) : BigInteger.ZERO;
      BigInteger y = i < b.size() ? b.get(i) : BigInteger.ZERO;
      int c = x.compareTo(y);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static int compareNullsFirst(@Nullable BigInteger a, @Nullable BigInteger b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    return a.compareTo(b);
  }

  private static int compareNullsLast(@Nullable BigInteger a, @Nullable BigInteger b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    return a.compareTo(b);
  }

  private static int compareNullsFirstText(@Nullable String a, @Nullable String b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    return a.compareTo(b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AiperfVersion v && compareTo(v) == 0;
  }

  @Override
  public int hashCode() {
    // equal versions may differ in trailing zero release parts: hash the trimmed release
    List<BigInteger> trimmed = new ArrayList<>(release);
    while (trimmed.size() > 1 && trimmed.get(trimmed.size() - 1).signum() == 0) {
      trimmed.remove(trimmed.size() - 1);
    }
    return Objects.hash(epoch, trimmed, preLabel, preNumber, post, dev, local);
  }

  @Override
  public String toString() {
    return normalized();
  }
}
