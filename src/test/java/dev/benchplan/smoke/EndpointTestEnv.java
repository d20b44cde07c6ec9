package dev.benchplan.smoke;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Drives scripts/endpoint-test-env.sh (a real llama-server on 127.0.0.1) for the endpoint tier.
 * Each instance has its own state folder, so a test can start and stop a server of its own without
 * touching the one scripts/test.sh started.
 */
final class EndpointTestEnv {
  static final Path SCRIPT = Path.of("scripts/endpoint-test-env.sh").toAbsolutePath();

  /** The model name the script serves. */
  static final String MODEL = "tiny-test-model";

  private final Path state;

  EndpointTestEnv(Path state) {
    this.state = state.toAbsolutePath();
  }

  /** Starts the server and returns its base URL (the last line the script prints). */
  String up() {
    Run run = run("up", 15);
    if (run.code() != 0) {
      unavailable(
          "scripts/endpoint-test-env.sh up failed (exit " + run.code() + "); log: " + run.log());
    }
    List<String> lines = run.stdout().lines().filter(l -> !l.isBlank()).toList();
    if (lines.isEmpty() || !lines.get(lines.size() - 1).matches("http://127\\.0\\.0\\.1:\\d+")) {
      fail("endpoint-test-env.sh up did not end with a base URL: " + run.stdout());
    }
    return lines.get(lines.size() - 1);
  }

  /** Stops the server; the script's exit code. */
  int down() {
    return run("down", 1).code();
  }

  private record Run(int code, String stdout, Path log) {}

  private Run run(String command, int timeoutMinutes) {
    if (!Files.isExecutable(SCRIPT)) {
      unavailable(SCRIPT + " is missing or not executable");
    }
    try {
      Files.createDirectories(state);
      Path log = state.resolveSibling(state.getFileName() + "-" + command + ".log");
      Path stdout = state.resolveSibling(state.getFileName() + "-" + command + ".out");
      ProcessBuilder pb =
          new ProcessBuilder(SCRIPT.toString(), command)
              .redirectOutput(stdout.toFile())
              .redirectError(log.toFile());
      pb.environment().put("BENCHPLAN_ENDPOINT_STATE", state.toString());
      Process p = pb.start();
      if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        unavailable(
            "endpoint-test-env.sh "
                + command
                + " did not finish in "
                + timeoutMinutes
                + " min; log: "
                + log);
      }
      return new Run(p.exitValue(), Files.readString(stdout), log);
    } catch (IOException e) {
      unavailable("cannot run " + SCRIPT + ": " + e);
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * The real endpoint cannot be had: in CI that is a failure (the tier must run there); on a
   * developer machine the test is skipped with the reason.
   */
  static void unavailable(String why) {
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      fail("endpoint tier cannot run (CI=true, so this fails instead of skipping): " + why);
    }
    Assumptions.abort("endpoint tier skipped: " + why);
  }
}
