package dev.benchplan.gate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** benchplan's own version, as the reports name the tool that produced them. */
final class ToolVersion {
  private ToolVersion() {}

  /** The project version filtered into the jar at build time, or "unknown". */
  static String get() {
    Properties p = new Properties();
    try (InputStream in = ToolVersion.class.getResourceAsStream("/benchplan-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String v = p.getProperty("version", "unknown");
    return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
  }
}
