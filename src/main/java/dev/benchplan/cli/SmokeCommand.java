package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import dev.benchplan.smoke.EndpointUrl;
import dev.benchplan.smoke.SmokeArtifact;
import dev.benchplan.smoke.SmokeOptions;
import dev.benchplan.smoke.SmokeOutcome;
import dev.benchplan.smoke.SmokeTest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchplan smoke}: Prove an OpenAI-compatible endpoint serves a model; write the smoke artifact. */
@Command(
    name = "smoke",
    mixinStandardHelpOptions = true,
    description = {
      "Prove an OpenAI-compatible endpoint serves a model; write the smoke artifact.",
      "",
      "GET /v1/models must list the model; one streaming POST /v1/chat/completions must deliver"
          + " non-empty content. The artifact is written in both cases (success true or false);"
          + " its path and SHA-256 go into the deployment ledger."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  the endpoint passed",
      "  2  invalid arguments (nothing sent, nothing written)",
      "  3  the endpoint failed (artifact written with success: false and the reason)"
    })
public final class SmokeCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Spec CommandSpec spec;

  @Option(
      names = "--url",
      required = true,
      paramLabel = "URL",
      description = "Base URL of the endpoint, e.g. http://127.0.0.1:8000 (a trailing /v1 is accepted).")
  String url;

  @Option(names = "--model", required = true, paramLabel = "NAME", description = "The served model name.")
  String model;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      defaultValue = "smoke_test_artifact.json",
      description = "Where to write the artifact (default: ${DEFAULT-VALUE}); replaced atomically.")
  Path out;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = DurationConverter.class,
      description = "Bound on the whole smoke test: 30s, 5m, PT30S (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(
      names = "--api-key-env",
      paramLabel = "VAR",
      description = "Environment variable holding an API key, sent as a bearer token (never recorded).")
  String apiKeyEnv;

  @Override
  public Integer call() {
    SmokeOutcome outcome = SmokeTest.run(options());
    SmokeArtifact artifact = outcome.artifact();
    PrintWriter out = spec.commandLine().getOut();
    if (format.json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("artifact", outcome.artifactPath().toString());
      doc.put("sha256", outcome.sha256());
      doc.put("success", artifact.success());
      doc.put("reason", artifact.reason());
      doc.put("ttft_ms", artifact.ttftMs());
      doc.put("total_ms", artifact.totalMs());
      FormatMixin.printJson(out, doc);
    } else {
      out.printf("success:  %s%n", artifact.success());
      if (!artifact.success()) {
        out.printf("reason:   %s%n", artifact.reason());
      }
      out.printf("model:    %s%n", artifact.model());
      out.printf("url:      %s%n", artifact.url());
      out.printf("ttft_ms:  %s%n", artifact.ttftMs());
      out.printf("total_ms: %s%n", artifact.totalMs());
      out.printf("artifact: %s%n", outcome.artifactPath());
      out.printf("sha256:   %s%n", outcome.sha256());
      out.flush();
    }
    if (!artifact.success()) {
      throw new BenchplanException(ExitCode.RUNTIME, "smoke test failed: " + artifact.reason());
    }
    return ExitCode.OK;
  }

  private SmokeOptions options() {
    EndpointUrl endpoint = EndpointUrl.parse(url);
    if (apiKeyEnv == null) {
      return SmokeOptions.withoutKey(endpoint, model, out, timeout);
    }
    if (!apiKeyEnv.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw BenchplanException.invalid(
          "--api-key-env '" + apiKeyEnv + "': not an environment variable name; expected e.g. OPENAI_API_KEY");
    }
    String key = System.getenv(apiKeyEnv);
    if (key == null || key.isBlank()) {
      throw BenchplanException.invalid(
          "--api-key-env " + apiKeyEnv + ": the environment variable is not set or empty");
    }
    return new SmokeOptions(endpoint, model, out, timeout, apiKeyEnv, key.strip());
  }
}
