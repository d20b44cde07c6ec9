package dev.benchplan.validate;

import dev.benchplan.error.ErrorLocation;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The validate inputs given on the command line (null when not given) and benchplan's own
 * environment variables ({@code BENCHPLAN_VALIDATE_*}), before {@link ValidateInputs} resolves them
 * against the recipe and the defaults.
 *
 * @param concurrencyPerGpu {@code --concurrency-per-gpu}, or null
 * @param concurrencyPerWorkerGiven whether {@code --concurrency-per-worker} was given (its value is
 *     {@link ValidateOptions#concurrencyPerWorker()})
 * @param islGiven whether {@code --isl} was given
 * @param oslGiven whether {@code --osl} was given
 * @param routingMode {@code --routing-mode}, or null
 * @param modelCacheStorageClass {@code --model-cache-storage-class}, or null
 * @param defaults which built-in defaults apply ({@code --defaults})
 * @param env the {@code BENCHPLAN_VALIDATE_*} environment variables that are set
 */
public record InputFlags(
    @Nullable Integer concurrencyPerGpu,
    boolean concurrencyPerWorkerGiven,
    boolean islGiven,
    boolean oslGiven,
    @Nullable String routingMode,
    @Nullable String modelCacheStorageClass,
    Defaults defaults,
    Map<String, String> env) {

  /** The prefix of benchplan's own validate environment variables. */
  public static final String ENV_PREFIX = "BENCHPLAN_VALIDATE_";

  /** Which built-in defaults apply when neither flag, recipe nor environment sets a value. */
  public enum Defaults {
    /** benchplan's own (the seed's): Qwen/Qwen3-0.6B at 16 per worker. */
    BENCHPLAN("default"),
    /** AICR's current ones: Qwen/Qwen3-8B at 256 per GPU. */
    AICR("aicr-default");

    private final String source;

    Defaults(String source) {
      this.source = source;
    }

    /** The source recorded for a value that comes from these defaults. */
    public String source() {
      return source;
    }

    /**
     * The option's value: {@code benchplan} or {@code aicr} (help lists these, parsing accepts
     * them).
     */
    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public InputFlags {
    defaults = defaults == null ? Defaults.BENCHPLAN : defaults;
    TreeMap<String, String> own = new TreeMap<>();
    if (env != null) {
      env.forEach(
          (k, v) -> {
            if (k.startsWith(ENV_PREFIX) && v != null && !v.isBlank()) {
              own.put(k, v.trim());
            }
          });
    }
    env = Map.copyOf(own);
    if (concurrencyPerGpu != null && concurrencyPerWorkerGiven) {
      throw dev.benchplan.error.BenchplanException.invalid(
          ErrorLocation.option("--concurrency-per-gpu"),
          "options --concurrency-per-gpu and"
              + " --concurrency-per-worker exclude each other: give one");
    }
    if (concurrencyPerGpu != null && concurrencyPerGpu < 1) {
      throw dev.benchplan.error.BenchplanException.invalid(
          ErrorLocation.option("--concurrency-per-gpu"),
          "option --concurrency-per-gpu: expected a positive integer, got '"
              + concurrencyPerGpu
              + "'");
    }
  }

  /**
   * What the old option set meant: the per-worker concurrency, ISL and OSL as given, nothing else
   * given, benchplan's defaults, no environment.
   */
  public static InputFlags legacy() {
    return new InputFlags(null, true, true, true, null, null, Defaults.BENCHPLAN, Map.of());
  }
}
