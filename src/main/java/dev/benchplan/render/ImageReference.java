package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A container image pinned to an exact version: a tag other than {@code latest}, or a digest.
 *
 * @param reference the image as written
 * @param tag the tag, or null when only a digest pins it
 * @param digest {@code sha256:...}, or null
 */
public record ImageReference(String reference, @Nullable String tag, @Nullable String digest) {
  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

  /** Parses and checks the pin; {@code what} names the source in errors. */
  public static ImageReference parse(String reference, String what) {
    return parse(reference, what, ErrorLocation.NONE);
  }

  /** {@link #parse(String, String)} with the reference's place for errors. */
  public static ImageReference parse(String reference, String what, ErrorLocation place) {
    String where = what + ": image '" + reference + "'";
    if (reference == null || reference.isBlank() || reference.chars().anyMatch(c -> c <= ' ')) {
      throw BenchplanException.invalid(
          place, where + ": expected an image reference without spaces");
    }
    String name = reference;
    String digest = null;
    int at = name.indexOf('@');
    if (at >= 0) {
      digest = name.substring(at + 1);
      name = name.substring(0, at);
      if (!DIGEST.matcher(digest).matches()) {
        throw BenchplanException.invalid(place, where + ": expected a digest sha256:<64 hex>");
      }
    }
    String tag = null;
    int colon = name.lastIndexOf(':');
    if (colon > name.lastIndexOf('/')) {
      tag = name.substring(colon + 1);
      name = name.substring(0, colon);
      if (!TAG.matcher(tag).matches()) {
        throw BenchplanException.invalid(place, where + ": tag '" + tag + "' is not a valid tag");
      }
    }
    if (name.isEmpty()) {
      throw BenchplanException.invalid(place, where + ": expected a repository name");
    }
    if (digest == null && (tag == null || tag.equals("latest"))) {
      throw BenchplanException.invalid(
          place,
          where
              + " is not pinned: expected an exact version tag (never latest) or a digest,"
              + " e.g. nvcr.io/nvidia/ai-dynamo/aiperf:0.11.0");
    }
    return new ImageReference(reference, tag, digest);
  }
}
