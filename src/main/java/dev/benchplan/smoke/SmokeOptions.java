package dev.benchplan.smoke;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one smoke test needs. The API key (if any) is only ever sent as a bearer token; it is kept
 * out of {@link #toString()}, the artifact and every message.
 *
 * @param url the endpoint's base URL
 * @param model the model name that must be served
 * @param out where the artifact goes
 * @param timeout the bound on the whole smoke test (both calls, including reading the stream)
 * @param apiKeyEnv the environment variable the key was read from, or {@code null}
 * @param apiKey the key itself, or {@code null} when the endpoint needs none
 */
public record SmokeOptions(
    EndpointUrl url,
    String model,
    Path out,
    Duration timeout,
    @Nullable String apiKeyEnv,
    @Nullable String apiKey) {
  public SmokeOptions {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(timeout, "timeout");
    if (model == null || model.isBlank()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--model"),
          "--model: empty; expected the served model name, e.g. Qwen/Qwen3-0.6B");
    }
    if (!model.equals(model.strip())) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--model"),
          "--model '" + model + "': leading or trailing whitespace");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--timeout"), "--timeout: must be positive, got " + timeout);
    }
    if (Files.isDirectory(out)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--out", out),
          "--out " + out + ": is a directory; expected a file path");
    }
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null && Files.exists(parent) && !Files.isDirectory(parent)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--out", out),
          "--out " + out + ": parent " + parent + " is not a directory");
    }
    if ((apiKeyEnv == null) != (apiKey == null)) {
      throw new IllegalArgumentException("apiKeyEnv and apiKey go together");
    }
    if (apiKey != null && apiKey.isBlank()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--api-key-env"),
          "--api-key-env " + apiKeyEnv + ": the variable is empty");
    }
  }

  /** Options without an API key. */
  public static SmokeOptions withoutKey(EndpointUrl url, String model, Path out, Duration timeout) {
    return new SmokeOptions(url, model, out, timeout, null, null);
  }

  /** True when requests carry {@code Authorization: Bearer ...}. */
  public boolean hasApiKey() {
    return apiKey != null;
  }

  /** Replaces every occurrence of the API key in text (a server may echo it back). */
  public String redact(String text) {
    if (apiKey == null) {
      return text;
    }
    return text.replace(apiKey, "[redacted " + apiKeyEnv + "]");
  }

  @Override
  public String toString() {
    return "SmokeOptions[url="
        + url
        + ", model="
        + model
        + ", out="
        + out
        + ", timeout="
        + timeout
        + ", apiKeyEnv="
        + apiKeyEnv
        + ", apiKey="
        + (apiKey == null ? "none" : "[redacted]")
        + "]";
  }
}
