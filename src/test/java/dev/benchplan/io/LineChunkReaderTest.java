package dev.benchplan.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Sha256;
import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The shared chunk reader: whole lines, every byte hashed once, long lines grown or refused. */
class LineChunkReaderTest {
  @TempDir Path dir;

  /** What a read gave: the lines in order, the hash, and whether a line was too long. */
  private record Read(byte[] lines, String sha256, long bytes, boolean tooLong, int laneChunks) {}

  private Read read(Path file, int chunkSize, int maxLine, LineChunkReader.Split split)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean tooLong = false;
    int laneChunks = 0;
    LineChunkReader.Lane<byte[]> copy =
        new LineChunkReader.Lane<>() {
          @Override
          public boolean work(LineChunkReader.Chunk<byte[]> c) {
            byte[] b = new byte[c.end()];
            System.arraycopy(c.data(), 0, b, 0, c.end());
            c.laneResult(b);
            return true;
          }
        };
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        LineChunkReader<byte[]> reader =
            new LineChunkReader<>(ch, chunkSize, 3, 8, maxLine, copy, split, "test-reader")) {
      LineChunkReader.Chunk<byte[]> c;
      while ((c = reader.next()) != null) {
        assertThat(c.end() == 0 || c.data()[c.end() - 1] == '\n').as("ends in a newline").isTrue();
        assertThat(c.data().length).isGreaterThanOrEqualTo(c.end() + 8);
        if (LineChunkReader.laneWorked(c)) {
          laneChunks++;
          out.write(c.laneResult());
        } else {
          out.write(c.data(), 0, c.end());
        }
        tooLong |= c.lineTooLong();
        reader.release(c);
      }
      return new Read(
          out.toByteArray(),
          tooLong ? "" : reader.sha256(),
          tooLong ? 0 : reader.bytes(),
          tooLong,
          laneChunks);
    }
  }

  @ParameterizedTest
  @EnumSource(LineChunkReader.Split.class)
  @DisplayName(
      "random lines (empty, short, longer than a chunk; with and without a last newline) come"
          + " back whole and in order at any chunk size, and the hash is the file's")
  void randomLines(LineChunkReader.Split split) throws Exception {
    SplittableRandom r = new SplittableRandom(11);
    for (int round = 0; round < 40; round++) {
      StringBuilder sb = new StringBuilder();
      int lines = r.nextInt(0, 60);
      for (int i = 0; i < lines; i++) {
        int len = r.nextInt(10) == 0 ? r.nextInt(0, 300) : r.nextInt(0, 20);
        for (int k = 0; k < len; k++) {
          sb.append((char) ('a' + r.nextInt(26)));
        }
        if (i < lines - 1 || r.nextBoolean()) {
          sb.append('\n');
        }
      }
      byte[] content = sb.toString().getBytes(StandardCharsets.US_ASCII);
      Path file = Files.write(dir.resolve("f" + round), content);
      int chunk = r.nextInt(1, 64);
      Read read = read(file, chunk, Integer.MAX_VALUE, split);
      String expected =
          content.length == 0 || content[content.length - 1] == '\n' ? sb.toString() : sb + "\n";
      assertThat(new String(read.lines(), StandardCharsets.US_ASCII))
          .as("round %d, chunk %d", round, chunk)
          .isEqualTo(expected);
      assertThat(read.sha256()).isEqualTo(Sha256.hex(content));
      assertThat(read.bytes()).isEqualTo(content.length);
      assertThat(read.tooLong()).isFalse();
      if (split == LineChunkReader.Split.CALLER_ONLY) {
        assertThat(read.laneChunks()).isZero();
      }
    }
  }

  @Test
  @DisplayName(
      "a line longer than maxLine stops the reading after the lines before it; one of exactly"
          + " maxLine bytes (with or without its newline) is read")
  void maxLine() throws Exception {
    Path over = Files.writeString(dir.resolve("over"), "ab\ncd\n" + "x".repeat(101) + "\nef\n");
    Read r = read(over, 4, 100, LineChunkReader.Split.DYNAMIC);
    assertThat(r.tooLong()).isTrue();
    assertThat(new String(r.lines(), StandardCharsets.US_ASCII)).isEqualTo("ab\ncd\n");

    Path exact = Files.writeString(dir.resolve("exact"), "ab\n" + "x".repeat(100) + "\nef");
    Read e = read(exact, 4, 100, LineChunkReader.Split.DYNAMIC);
    assertThat(e.tooLong()).isFalse();
    assertThat(new String(e.lines(), StandardCharsets.US_ASCII))
        .isEqualTo("ab\n" + "x".repeat(100) + "\nef\n");

    Path lastLong = Files.writeString(dir.resolve("last"), "ab\n" + "x".repeat(101));
    assertThat(read(lastLong, 4, 100, LineChunkReader.Split.DYNAMIC).tooLong()).isTrue();
    Path lastExact = Files.writeString(dir.resolve("lastExact"), "ab\n" + "x".repeat(100));
    assertThat(read(lastExact, 4, 100, LineChunkReader.Split.DYNAMIC).tooLong()).isFalse();
  }

  @Test
  @DisplayName("an empty file gives no chunk and the empty file's hash")
  void empty() throws Exception {
    Path file = Files.write(dir.resolve("empty"), new byte[0]);
    Read r = read(file, 16, 100, LineChunkReader.Split.DYNAMIC);
    assertThat(r.lines()).isEmpty();
    assertThat(r.sha256()).isEqualTo(Sha256.hex(new byte[0]));
  }
}
