package dev.benchplan.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs the real encoder ({@code ship-artifacts.py}) with the local python3, as the pod does. */
final class ShippedTree {
  private ShippedTree() {}

  static boolean hasPython() {
    try {
      Process p = new ProcessBuilder("python3", "-c", "pass").start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** The log text the encoder prints for {@code dir}, written to {@code logFile}. */
  static Path encode(Path dir, Path logFile) throws IOException, InterruptedException {
    assumeTrue(
        hasPython(),
        "python3 is not on PATH: the encoder runs in python3 (as in the AIPerf image)");
    Path script = Files.createTempFile("ship-artifacts", ".py");
    Files.writeString(script, ArtifactChannel.encoderScript());
    Process p =
        new ProcessBuilder("python3", script.toString(), dir.toString())
            .redirectOutput(logFile.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    Files.delete(script);
    return logFile;
  }

  /**
   * The encoder's output for {@code dir} with extra arguments (MAX_BYTES [FIRST_CHUNK
   * CHUNK_COUNT]).
   */
  static String encode(Path dir, String... args) throws IOException, InterruptedException {
    assumeTrue(
        hasPython(),
        "python3 is not on PATH: the encoder runs in python3 (as in the AIPerf image)");
    Path script = Files.createTempFile("ship-artifacts", ".py");
    Path out = Files.createTempFile("ship-artifacts", ".log");
    Files.writeString(script, ArtifactChannel.encoderScript());
    java.util.List<String> cmd =
        new java.util.ArrayList<>(java.util.List.of("python3", script.toString(), dir.toString()));
    cmd.addAll(java.util.List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    String text = Files.readString(out, StandardCharsets.UTF_8);
    Files.delete(script);
    Files.delete(out);
    return text;
  }

  /** Every regular file under {@code dir}, by '/'-separated relative path, with its bytes. */
  static Map<String, byte[]> files(Path dir) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
        out.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
      }
    }
    return out;
  }

  static String read(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }
}
