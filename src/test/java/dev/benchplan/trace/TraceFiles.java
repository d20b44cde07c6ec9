package dev.benchplan.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the traces tests scan. */
final class TraceFiles {
  private TraceFiles() {}

  /** Writes lines joined by '\n' with a final '\n'. */
  static Path lines(Path dir, String... lines) {
    return text(dir, String.join("\n", lines) + "\n");
  }

  static Path text(Path dir, String content) {
    return bytes(dir, content.getBytes(StandardCharsets.UTF_8));
  }

  static Path bytes(Path dir, byte[] content) {
    try {
      Path file = Files.createTempFile(dir, "trace", ".jsonl");
      Files.write(file, content);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A valid row: {@code {"timestamp": t, "input_length": in, "output_length": out}}. */
  static String row(long t, long in, long out) {
    return "{\"timestamp\": "
        + t
        + ", \"input_length\": "
        + in
        + ", \"output_length\": "
        + out
        + "}";
  }

  static TraceReport scan(Path file) {
    return TraceScanner.scan(file, TraceScanOptions.defaults());
  }
}
