package dev.benchplan.trace;

import static dev.benchplan.trace.TraceFiles.bytes;
import static dev.benchplan.trace.TraceFiles.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.testing.CommandHarness;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** What cannot be a trace is refused quickly with exit 2, and no line is read without bound. */
class TraceInputBoundsTest {
  @TempDir Path dir;

  @Test
  @Timeout(20)
  @EnabledOnOs(OS.LINUX)
  @DisplayName(
      "trace inspect /dev/zero: exit 2 at once (not a regular file), not a read until" + " killed")
  void devZero() {
    var r = CommandHarness.run("trace", "inspect", "/dev/zero");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("/dev/zero: cannot read the trace: not a regular file");
    assertThat(r.out()).isEmpty();
  }

  @Test
  @Timeout(20)
  @DisplayName("a line longer than the maximum is refused naming the line, before it is buffered")
  void lineTooLong() throws Exception {
    Path trace = dir.resolve("long.jsonl");
    byte[] block = new byte[1 << 20];
    Arrays.fill(block, (byte) 'a');
    try (OutputStream out = Files.newOutputStream(trace)) {
      out.write(
          (row(0, 5, 5) + "\n" + row(1, 5, 5) + "\n{\"text_input\": \"")
              .getBytes(StandardCharsets.US_ASCII));
      for (int i = 0; i < (TraceScanner.MAX_LINE_BYTES >> 20) + 1; i++) {
        out.write(block);
      }
      out.write("\"}\n".getBytes(StandardCharsets.US_ASCII));
    }
    assertThatThrownBy(() -> TraceScanner.scan(trace, TraceScanOptions.defaults()))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            trace
                + ": line 3: longer than 16 MiB, the maximum line length of a trace;"
                + " expected one JSON object per line (is this a JSONL trace?)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
  }

  @Test
  @DisplayName("a line just under the maximum is read (the bound is no smaller than documented)")
  void lineJustUnderTheMaximum() throws Exception {
    Path trace = dir.resolve("big.jsonl");
    String head =
        "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1, \"text_input\": \"";
    String tail = "\"}";
    byte[] line = new byte[TraceScanner.MAX_LINE_BYTES];
    Arrays.fill(line, (byte) 'b');
    System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, line, 0, head.length());
    System.arraycopy(
        tail.getBytes(StandardCharsets.US_ASCII),
        0,
        line,
        line.length - tail.length(),
        tail.length());
    try (OutputStream out = Files.newOutputStream(trace)) {
      out.write(line);
      out.write('\n');
    }
    TraceReport r = TraceScanner.scan(trace, TraceScanOptions.defaults());
    assertThat(r.valid()).as("%s", r.problems()).isTrue();
    assertThat(r.rows()).isEqualTo(1);
  }

  @Test
  @DisplayName("binary content (a NUL byte) or a gzip file: exit 2 naming what was found")
  void binary() {
    Path nul = bytes(dir, (row(0, 5, 5) + "\n\0\0\0\n").getBytes(StandardCharsets.US_ASCII));
    var r = CommandHarness.run("trace", "inspect", nul.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .contains(
            nul
                + ": cannot read the trace: binary content (a NUL byte at"
                + " offset 56); expected a JSONL text file");
    assertThat(r.out()).isEmpty();

    Path gz = dir.resolve("t.jsonl.gz");
    try {
      Files.write(gz, new byte[] {0x1F, (byte) 0x8B, 8, 0, 0, 0, 0, 0, 0, 3});
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThatThrownBy(() -> TraceScanner.scan(gz, TraceScanOptions.defaults()))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            gz
                + ": cannot read the trace: it is gzip-compressed; expected a JSONL text"
                + " file (decompress it first)");
  }

  @Test
  @DisplayName("a fifo is refused at once (it could be endless), not waited on")
  @EnabledOnOs(OS.LINUX)
  @Timeout(20)
  void fifo() throws Exception {
    Path fifo = dir.resolve("pipe.jsonl");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(p.waitFor()).isZero();
    assertThatThrownBy(() -> TraceScanner.scan(fifo, TraceScanOptions.defaults()))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            fifo
                + ": cannot read the trace: not a regular file (a device, pipe or"
                + " socket); expected a JSONL file");
  }
}
