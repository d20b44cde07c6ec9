package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ErrorReport;
import dev.benchplan.error.ExitCode;
import dev.benchplan.smoke.EndpointUrl;
import dev.benchplan.smoke.SmokeArtifact;
import dev.benchplan.smoke.SmokeOptions;
import dev.benchplan.smoke.SmokeOutcome;
import dev.benchplan.smoke.SmokeTest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code benchplan smoke}: Prove an OpenAI-compatible endpoint serves a model; write the smoke
 * artifact.
 */
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
      description =
          "Base URL of the endpoint, e.g. http://127.0.0.1:8000 (a trailing /v1 is accepted).")
  String url;

  @Option(
      names = "--model",
      required = true,
      paramLabel = "NAME",
      description = "The served model name.")
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
      description =
          "Environment variable holding an API key, sent as a bearer token (never recorded).")
  String apiKeyEnv;

  @Override
  public Integer call() {
    SmokeOutcome outcome = SmokeTest.run(options());
    SmokeArtifact artifact = outcome.artifact();
    ErrorReport error = null;
    if (!artifact.success()) {
      error =
          ErrorReport.of(
              ErrorReport.RUN_ERROR,
              ExitCode.RUNTIME,
              "smoke test failed: " + artifact.reason(),
              null);
      spec.commandLine().getErr().println("benchplan: " + error.message());
      spec.commandLine().getErr().flush();
    }
    return Printer.print(
        spec.commandLine(),
        format,
        Output.of(outcome, error),
        error == null ? ExitCode.OK : ExitCode.RUNTIME);
  }

  /**
   * The result of {@code smoke}: the artifact written (in both outcomes) and, when the endpoint
   * failed, the error (exit 3) in the shape of schemas/error.schema.json.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Output(
      @JsonProperty("artifact") String artifact,
      @JsonProperty("sha256") String sha256,
      @JsonProperty("success") boolean success,
      @JsonProperty("reason") @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String reason,
      @JsonProperty("ttft_ms") @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Object ttftMs,
      @JsonProperty("total_ms") @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Object totalMs,
      @JsonProperty("error") @Nullable ErrorReport error,
      @JsonIgnore SmokeArtifact details)
      implements CommandOutput {
    static Output of(SmokeOutcome o, @Nullable ErrorReport error) {
      SmokeArtifact a = o.artifact();
      return new Output(
          o.artifactPath().toString(),
          o.sha256(),
          a.success(),
          a.reason(),
          a.ttftMs(),
          a.totalMs(),
          error,
          a);
    }

    @Override
    public void printText(PrintWriter out) {
      out.printf("success:  %s%n", success);
      if (!success) {
        out.printf("reason:   %s%n", reason);
      }
      out.printf("model:    %s%n", details.model());
      out.printf("url:      %s%n", details.url());
      out.printf("ttft_ms:  %s%n", ttftMs);
      out.printf("total_ms: %s%n", totalMs);
      out.printf("artifact: %s%n", artifact);
      out.printf("sha256:   %s%n", sha256);
    }
  }

  private SmokeOptions options() {
    EndpointUrl endpoint = EndpointUrl.parse(url);
    if (apiKeyEnv == null) {
      return SmokeOptions.withoutKey(endpoint, model, out, timeout);
    }
    if (!apiKeyEnv.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--api-key-env"),
          "--api-key-env '"
              + apiKeyEnv
              + "': not an environment variable name; expected e.g. OPENAI_API_KEY");
    }
    String key = System.getenv(apiKeyEnv);
    if (key == null || key.isBlank()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--api-key-env"),
          "--api-key-env " + apiKeyEnv + ": the environment variable is not set or empty");
    }
    return new SmokeOptions(endpoint, model, out, timeout, apiKeyEnv, key.strip());
  }
}
