package dev.benchplan.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * benchplan's own bundled examples (examples/), recognised by content wherever a copy lies: the
 * SHA-256 of every file, packaged as {@code bundled-examples.sha256} (sha256sum format; a test
 * keeps it equal to examples/).
 */
public final class BundledExamples {
  /** The packaged list's resource name. */
  public static final String RESOURCE = "bundled-examples.sha256";

  private static final Map<String, String> BY_SHA = load();

  private BundledExamples() {}

  /** The example file ({@code examples/...}) with this SHA-256, if it is one. */
  public static Optional<String> named(String sha256) {
    return Optional.ofNullable(sha256 == null ? null : BY_SHA.get(sha256));
  }

  private static Map<String, String> load() {
    Map<String, String> out = new HashMap<>();
    try (InputStream in = BundledExamples.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return out;
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.length() > 66) {
          out.put(line.substring(0, 64), line.substring(66));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
