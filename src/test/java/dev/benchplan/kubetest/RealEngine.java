package dev.benchplan.kubetest;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real-engine test tier's environment ({@code scripts/aiperf-test-env.sh}): AIPerf 0.11.0 in a
 * Debian sid chroot, and a llama-server serving the tiny model. Read from the variables {@code
 * scripts/aiperf-test-env.sh env} prints (set by {@code scripts/test.sh}), else from that command
 * when the environment runs. Absent, the calling test is skipped with the reason, except when
 * {@code BENCHPLAN_AIPERF_TEST_ENV=1} or {@code CI=true}: then it fails.
 *
 * @param chroot the chroot (the AIPerf "image" the kubelet stand-in runs containers in)
 * @param endpointUrl llama-server's base URL on 127.0.0.1
 * @param model the name llama-server serves the tiny model under
 * @param tokenizer the tokenizer directory inside the chroot (what a ledger's {@code tokenizer}
 *     names)
 * @param aiperfVersion the AIPerf version installed
 * @param packages the file listing the chroot's Debian package versions
 */
public record RealEngine(
    Path chroot,
    URI endpointUrl,
    String model,
    String tokenizer,
    String aiperfVersion,
    Path packages) {
  private static final String SCRIPT = "scripts/aiperf-test-env.sh";

  public RealEngine {
    Objects.requireNonNull(chroot, "chroot");
    Objects.requireNonNull(endpointUrl, "endpointUrl");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(tokenizer, "tokenizer");
    Objects.requireNonNull(aiperfVersion, "aiperfVersion");
    Objects.requireNonNull(packages, "packages");
  }

  /** The running environment; skips (or, in CI, fails) the calling test when there is none. */
  public static RealEngine require() {
    Map<String, String> vars = new LinkedHashMap<>(System.getenv());
    String why = null;
    if (vars.get("BENCHPLAN_AIPERF_CHROOT") == null) {
      why = fromScript(vars);
    }
    RealEngine e = why == null ? from(vars) : null;
    if (e != null) {
      why = e.problem();
    }
    if (why != null) {
      String message =
          "the real-engine environment is not usable: "
              + why
              + " (start it: scripts/aiperf-test-env.sh up; eval \"$(scripts/aiperf-test-env.sh env)\")";
      if (mustRun()) {
        throw new IllegalStateException(message);
      }
      Assumptions.abort("skipped: " + message);
    }
    return Objects.requireNonNull(e);
  }

  /**
   * True when an absent environment must fail the tests: BENCHPLAN_AIPERF_TEST_ENV=1 or CI=true
   * (scripts/test.sh installs and starts it; in CI the tier never skips).
   */
  static boolean mustRun() {
    return "1".equals(System.getenv("BENCHPLAN_AIPERF_TEST_ENV"))
        || "true".equalsIgnoreCase(System.getenv("CI"));
  }

  /** The port llama-server listens on. */
  public int port() {
    return endpointUrl.getPort();
  }

  /** What is wrong with this environment, or null when it is usable. */
  private String problem() {
    if (!Files.isRegularFile(chroot.resolve(".benchplan-complete"))) {
      return chroot + " is not a complete chroot";
    }
    if (!Files.isExecutable(chroot.resolve("usr/local/bin/aiperf"))) {
      return "no aiperf in " + chroot;
    }
    if (!Files.isRegularFile(chroot.resolve(tokenizer.substring(1)).resolve("tokenizer.json"))) {
      return "no tokenizer at " + tokenizer + " in " + chroot;
    }
    return null;
  }

  private static RealEngine from(Map<String, String> v) {
    return new RealEngine(
        Paths.get(v.get("BENCHPLAN_AIPERF_CHROOT")),
        URI.create(v.getOrDefault("BENCHPLAN_AIPERF_ENDPOINT_URL", "http://127.0.0.1:1")),
        v.getOrDefault("BENCHPLAN_AIPERF_MODEL", "tiny-test-model"),
        v.getOrDefault("BENCHPLAN_AIPERF_TOKENIZER", "/opt/tokenizers/tiny-test-model"),
        v.getOrDefault("BENCHPLAN_AIPERF_VERSION", "0.11.0"),
        Paths.get(v.getOrDefault("BENCHPLAN_AIPERF_PACKAGES", "/nonexistent")));
  }

  /** Fills {@code vars} from {@code scripts/aiperf-test-env.sh env}; the reason when it cannot. */
  private static String fromScript(Map<String, String> vars) {
    Path script = Paths.get(SCRIPT).toAbsolutePath();
    if (!Files.isExecutable(script)) {
      return "BENCHPLAN_AIPERF_CHROOT is unset and " + script + " is missing";
    }
    try {
      Process p =
          new ProcessBuilder(script.toString(), "env")
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return SCRIPT + " env: not running";
      }
      for (String line : out.split("\n")) {
        String l = line.startsWith("export ") ? line.substring(7) : line;
        int eq = l.indexOf('=');
        if (eq > 0) {
          vars.put(l.substring(0, eq), l.substring(eq + 1));
        }
      }
      return vars.get("BENCHPLAN_AIPERF_CHROOT") == null ? SCRIPT + " env printed no chroot" : null;
    } catch (IOException e) {
      return SCRIPT + " env: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return SCRIPT + " env: interrupted";
    }
  }
}
