package dev.benchplan.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** What a reviewer without benchplan runs on a run directory: coreutils alone. */
public final class Coreutils {
  private Coreutils() {}

  /**
   * {@code sha256sum -c --strict artifacts.sha256} in {@code runDir}: asserts it exits 0 within a
   * minute.
   *
   * @return its output, a {@code FILE: OK} line per file listed
   */
  public static String sha256sumCheck(Path runDir) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("sha256sum", "-c", "--strict", "artifacts.sha256")
            .directory(runDir.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("sha256sum -c in " + runDir).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
