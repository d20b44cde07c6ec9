package dev.benchplan.render;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Mooncake traces the tests generate. */
final class Traces {
  private Traces() {}

  /** {@code rows} valid rows, one every 250 ms, 512-token blocks respected. */
  static Path write(Path file, int rows) {
    StringBuilder sb = new StringBuilder();
    int block = 0;
    for (int i = 0; i < rows; i++) {
      int input = 300 + (i * 97) % 1500;
      int blocks = (input + 511) / 512;
      sb.append("{\"timestamp\": ")
          .append(i * 250L)
          .append(", \"input_length\": ")
          .append(input)
          .append(", \"output_length\": ")
          .append(20 + i % 200)
          .append(", \"hash_ids\": [");
      for (int b = 0; b < blocks; b++) {
        sb.append(b == 0 ? "" : ", ").append(block++);
      }
      sb.append("]}\n");
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }
}
