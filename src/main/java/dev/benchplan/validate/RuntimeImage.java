package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The default deployment's runtime image follows the Dynamo platform version (AICR moved its
 * runtime in lockstep with its operator chart after a 0.9.0 runtime under a 1.0.2 operator
 * panicked): {@code --runtime-image}, else the recipe's {@code componentRefs} entry for {@code
 * dynamo-platform}, else what the cluster's operator Deployment shows, else {@link
 * ValidateOptions#DEFAULT_RUNTIME_IMAGE}.
 */
public final class RuntimeImage {
  /** The vLLM runtime repository of the Dynamo releases. */
  public static final String REPOSITORY = "nvcr.io/nvidia/ai-dynamo/vllm-runtime";

  private static final Pattern VERSION =
      Pattern.compile("v?(\\d+(?:\\.\\d+){0,3})([-+._A-Za-z0-9]*)");

  /** The suffix of the CUDA 13 vllm-runtime build of Dynamo 1.0 to 1.2. */
  static final String CUDA13_SUFFIX = "-cuda13";

  /** The first Dynamo release with a stable (not experimental) CUDA 13 vllm-runtime. */
  private static final int[] CUDA13_STABLE_FROM = {1, 0, 0};

  /** The first Dynamo release whose bare vllm-runtime tag is CUDA 13 (CUDA 12 discontinued). */
  private static final int[] CUDA13_ONLY_FROM = {1, 3, 0};

  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

  private RuntimeImage() {}

  /**
   * The Dynamo platform version the cluster shows, or null with why not.
   *
   * @param version e.g. {@code 1.2.1}, or null
   * @param detail where it was read (Deployment and label) or why it could not be
   */
  public record PlatformVersion(@Nullable String version, String detail) {
    /** Nothing read. */
    public static PlatformVersion unknown(String why) {
      return new PlatformVersion(null, why);
    }
  }

  /**
   * The platform version: the recipe's componentRefs entry, else the cluster's (read only when the
   * recipe names none); null value when neither says.
   */
  public static ResolvedInput platformVersion(
      RecipeSettings recipe, Supplier<PlatformVersion> cluster) {
    if (recipe.dynamoPlatformVersion() != null) {
      String v = recipe.dynamoPlatformVersion();
      if (!TAG.matcher(v.startsWith("v") ? v.substring(1) : v).matches()) {
        throw BenchplanException.invalid(
            recipe.platformVersionLocation(),
            recipe.source()
                + ": /spec/componentRefs ("
                + RecipeSettings.DYNAMO_PLATFORM
                + ")/version: expected a release such as 1.2.1, got '"
                + v
                + "'");
      }
      return new ResolvedInput(
          v,
          "recipe",
          recipe.source()
              + ": /spec/componentRefs ("
              + RecipeSettings.DYNAMO_PLATFORM
              + ").version");
    }
    PlatformVersion p = cluster.get();
    if (p != null && p.version() != null) {
      return new ResolvedInput(p.version(), "cluster", p.detail());
    }
    return new ResolvedInput(null, "default", p == null ? "not read" : p.detail());
  }

  /** The runtime image: the flag, else the platform version's, else the built-in default. */
  public static ResolvedInput image(@Nullable String flag, ResolvedInput platform) {
    if (flag != null) {
      return new ResolvedInput(flag, "flag", "--runtime-image");
    }
    String version = platform.text();
    if (version != null) {
      String v = version.startsWith("v") ? version.substring(1) : version;
      String tag = tag(v);
      return new ResolvedInput(
          REPOSITORY + ":" + tag,
          platform.source(),
          "the Dynamo platform version "
              + version
              + " ("
              + platform.origin()
              + "), "
              + variant(v, tag));
    }
    return new ResolvedInput(
        ValidateOptions.DEFAULT_RUNTIME_IMAGE,
        "default",
        "built-in default (no Dynamo platform version in the recipe or the cluster: "
            + platform.origin()
            + ")");
  }

  /**
   * The vllm-runtime tag of a Dynamo release, CUDA 13 wherever Dynamo ships a stable CUDA 13 build
   * (as AICR's {@code 1.2.1-cuda13}): releases 1.0 to 1.2 publish the CUDA 12.9 build under the
   * bare tag and the CUDA 13.0 build as {@code <version>-cuda13}; from 1.3.0 on CUDA 12 is
   * discontinued and the bare tag is the CUDA 13.0 build (there is no {@code -cuda13} tag); before
   * 1.0 the CUDA 13 builds were experimental (0.8.1's failed to launch), so the bare CUDA 12 tag is
   * kept. A version that already carries a suffix ({@code 1.2.1-cuda13}, a dev build) is used as
   * given.
   */
  static String tag(String version) {
    Matcher m = VERSION.matcher(version.trim());
    int[] n = numbers(version);
    if (n == null || !m.matches() || !m.group(2).isEmpty()) {
      return version;
    }
    return compare(n, CUDA13_ONLY_FROM) < 0 && compare(n, CUDA13_STABLE_FROM) >= 0
        ? version + CUDA13_SUFFIX
        : version;
  }

  /** Which CUDA build {@link #tag} chose, for the record. */
  private static String variant(String version, String tag) {
    if (!tag.equals(version)) {
      return "its CUDA 13 build ("
          + CUDA13_SUFFIX
          + "; Dynamo 1.0 to 1.2 publish CUDA 12.9 under the bare tag;"
          + " needs driver 580+)";
    }
    Matcher m = VERSION.matcher(version.trim());
    int[] n = numbers(version);
    if (n == null || !m.matches() || !m.group(2).isEmpty()) {
      return "the tag as given";
    }
    return compare(n, CUDA13_ONLY_FROM) >= 0
        ? "its CUDA 13 build (the only one from Dynamo 1.3.0 on, under the bare tag; needs driver 580+)"
        : "its CUDA 12 build (Dynamo before 1.0 has no stable CUDA 13 build)";
  }

  /**
   * A warning when a Dynamo runtime image of the DGD is older than the platform version; null when
   * none is (or nothing can be compared).
   */
  public static @Nullable String olderThanPlatform(
      String dgdRef, Set<String> images, ResolvedInput platform) {
    String version = platform.text();
    if (version == null) {
      return null;
    }
    int[] p = numbers(version);
    if (p == null) {
      return null;
    }
    List<String> older = new ArrayList<>();
    for (String image : images) {
      if (!image.contains("/ai-dynamo/") || !image.contains(":") || image.contains("@")) {
        continue;
      }
      int[] v = numbers(image.substring(image.lastIndexOf(':') + 1));
      if (v != null && compare(v, p) < 0) {
        older.add(image);
      }
    }
    return older.isEmpty()
        ? null
        : "DGD "
            + dgdRef
            + " runs "
            + String.join(", ", older)
            + ", older than the Dynamo platform "
            + platform.text()
            + " ("
            + platform.source()
            + "): AICR saw a"
            + " runtime older than its operator panic under load; align the runtime with the platform";
  }

  /** The numeric release of a tag ({@code 1.2.1-cuda13} -> 1, 2, 1), or null. */
  static int @Nullable [] numbers(String tag) {
    Matcher m = VERSION.matcher(tag.trim());
    if (!m.matches()) {
      return null;
    }
    String[] parts = m.group(1).split("\\.");
    int[] out = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        out[i] = Integer.parseInt(parts[i]);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return out;
  }

  static int compare(int[] a, int[] b) {
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      int x = i < a.length ? a[i] : 0;
      int y = i < b.length ? b[i] : 0;
      if (x != y) {
        return Integer.compare(x, y);
      }
    }
    return 0;
  }
}
