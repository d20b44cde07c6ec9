package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reading started before the command line is parsed gives the same report, or is not used. */
class EarlyScanTest {
  @TempDir Path dir;

  private static final String ROW =
      "{\"timestamp\": %d, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [%d, %d]}\n";

  private Path trace(String name, int rows) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      sb.append(String.format(ROW, i, 2 * i, 2 * i + 1));
    }
    return Files.writeString(dir.resolve(name), sb);
  }

  @Test
  @DisplayName("the scan takes over the early reading of its file: the same report as without")
  void sameReport() throws Exception {
    Path t = trace("t.jsonl", 20_000);
    TraceScanOptions options = TraceScanOptions.defaults().withMaxContext(1000L);
    TraceReport plain = TraceScanner.scan(t, options);
    TraceScanner.startEarly(t);
    assertThat(TraceScanner.scan(t, options)).isEqualTo(plain);
  }

  @Test
  @DisplayName(
      "an early reading of another file, or of a file changed since, is dropped and the file"
          + " read again")
  void otherOrChangedFile() throws Exception {
    Path a = trace("a.jsonl", 100);
    Path b = trace("b.jsonl", 200);
    TraceScanner.startEarly(a);
    assertThat(TraceScanner.scan(b, TraceScanOptions.defaults()).rows()).isEqualTo(200);

    TraceScanner.startEarly(a);
    Files.writeString(a, String.format(ROW, 100, 1, 2), StandardOpenOption.APPEND);
    assertThat(TraceScanner.scan(a, TraceScanOptions.defaults()).rows()).isEqualTo(101);
  }

  @Test
  @DisplayName("no early reading of a directory or a missing file: the scan reports them itself")
  void notAFile() {
    TraceScanner.startEarly(dir);
    TraceScanner.startEarly(dir.resolve("missing.jsonl"));
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> TraceScanner.scan(dir, TraceScanOptions.defaults())))
        .hasMessage(dir + ": cannot read the trace: it is a directory");
  }
}
