package dev.benchplan.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The built jar and the launcher, as the integration tests run them: {@code bin/benchplan} (or a
 * copied checkout's) in a subprocess, as a user would, with stdout and stderr kept apart.
 */
public final class Launcher {
  private Launcher() {}

  /** One call's exit code, stdout and stderr. */
  public record Run(int exit, String out, String err) {}

  /**
   * {@code target/benchplan.jar}, absolute; the calling test is skipped when it is not built (the
   * integration tests run after {@code package}).
   */
  public static Path requireJar() {
    Path jar = Paths.get("target", "benchplan.jar").toAbsolutePath();
    Assumptions.assumeTrue(
        Files.isRegularFile(jar),
        () -> "skipped: " + jar + " is not built; run `mvn verify` (package runs before this IT)");
    return jar;
  }

  /** This checkout's {@code bin/benchplan} with {@code args}. */
  public static Run run(Path scratch, String... args) throws IOException, InterruptedException {
    return run(Paths.get("bin", "benchplan").toAbsolutePath(), scratch, Map.of(), args);
  }

  /**
   * {@code launcher} with {@code args}, the launcher's own variables ({@code BENCHPLAN_CDS}, {@code
   * BENCHPLAN_JAVA_OPTS}, {@code BENCHPLAN_JAR}) unset unless {@code env} sets them; the output
   * goes through files in {@code scratch}.
   */
  public static Run run(Path launcher, Path scratch, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    return run(launcher, scratch, env, Duration.ofSeconds(180), List.of(), args);
  }

  /**
   * As above, waiting at most {@code timeout}, with the variables in {@code unset} removed from the
   * environment the call inherits.
   */
  public static Run run(
      Path launcher,
      Path scratch,
      Map<String, String> env,
      Duration timeout,
      List<String> unset,
      String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(launcher.toString());
    command.addAll(List.of(args));
    Path out = scratch.resolve("launcher-out.txt");
    Path err = scratch.resolve("launcher-err.txt");
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("BENCHPLAN_CDS");
    pb.environment().remove("BENCHPLAN_JAVA_OPTS");
    pb.environment().remove("BENCHPLAN_JAR");
    unset.forEach(pb.environment()::remove);
    pb.environment().putAll(env);
    Process p = pb.start();
    assertThat(p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
        .as("finished in time: %s", command)
        .isTrue();
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
