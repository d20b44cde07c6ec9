package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The precedence table: flag > recipe > BENCHPLAN_VALIDATE_* > default (benchplan's, or AICR's).
 */
class ValidateInputsTest {
  @TempDir Path dir;

  static final String GB200 =
      """
      kind: RecipeMetadata
      spec:
        componentRefs:
          - name: dynamo-platform
            version: "1.2.1"
        validation:
          performance:
            checks: [inference-perf]
            constraints:
              - {name: inference-model, value: Qwen/Qwen3-8B}
              - {name: inference-concurrency-per-gpu, value: "256"}
              - {name: inference-routing-mode, value: dynamo-router}
              - {name: inference-model-cache-storage-class, value: fast-ssd}
              - {name: inference-throughput, value: ">= 50000"}
              - {name: inference-ttft-p99, value: "<= 2000"}
      """;

  RecipeSettings recipe(String yaml) throws Exception {
    Path p = dir.resolve("overlay.yaml");
    Files.writeString(p, yaml);
    return ValidationOverlay.settings(p);
  }

  static ValidateOptions options(String model, InputFlags flags) {
    return ValidateOptions.builder(Path.of("r")).model(model).flags(flags).build();
  }

  static InputFlags flags(
      Integer perGpu,
      boolean perWorker,
      String routing,
      String sc,
      InputFlags.Defaults d,
      Map<String, String> env) {
    return new InputFlags(perGpu, perWorker, false, false, routing, sc, d, env);
  }

  static InputFlags none(InputFlags.Defaults d, Map<String, String> env) {
    return flags(null, false, null, null, d, env);
  }

  @Test
  @DisplayName("every source wins once: flag, recipe, env, default, aicr-default")
  void everySourceWinsOnce() throws Exception {
    Map<String, String> env =
        Map.of(
            "BENCHPLAN_VALIDATE_MODEL",
            "env/model",
            "BENCHPLAN_VALIDATE_ROUTING_MODE",
            "dynamo-router",
            "BENCHPLAN_VALIDATE_MODEL_CACHE_STORAGE_CLASS",
            "env-sc",
            "BENCHPLAN_VALIDATE_CONCURRENCY_PER_GPU",
            "64",
            "OTHER_VAR",
            "x");
    // flag beats recipe and env
    ValidateInputs flag =
        ValidateInputs.resolve(
            options(
                "flag/model",
                flags(8, false, "dynamo-router", "flag-sc", InputFlags.Defaults.BENCHPLAN, env)),
            recipe(GB200),
            true);
    assertThat(flag.values().get("model"))
        .isEqualTo(new ResolvedInput("flag/model", "flag", "--model"));
    assertThat(flag.values().get("concurrency_per_gpu").value()).isEqualTo(8);
    assertThat(flag.values().get("concurrency_per_gpu").source()).isEqualTo("flag");
    assertThat(flag.values().get("model_cache_storage_class").source()).isEqualTo("flag");
    assertThat(flag.values().get("routing_mode").source()).isEqualTo("flag");

    // recipe beats env
    ValidateInputs rec =
        ValidateInputs.resolve(
            options(null, none(InputFlags.Defaults.BENCHPLAN, env)), recipe(GB200), true);
    assertThat(rec.model()).isEqualTo("Qwen/Qwen3-8B");
    assertThat(rec.values().get("model").source()).isEqualTo("recipe");
    assertThat(rec.values().get("model").origin())
        .contains("/spec/validation/performance/constraints/0");
    assertThat(rec.concurrencyPerGpu()).isEqualTo(256);
    assertThat(rec.values().get("concurrency_per_gpu").source()).isEqualTo("recipe");
    assertThat(rec.modelCacheStorageClass()).isEqualTo("fast-ssd");
    assertThat(rec.routingMode()).isEqualTo("dynamo-router");
    assertThat(rec.warnings()).isEmpty(); // the thresholds' own inputs: no calibration warning

    // env beats the default; other variables are not read
    ValidateInputs fromEnv =
        ValidateInputs.resolve(
            options(null, none(InputFlags.Defaults.AICR, env)), RecipeSettings.none(), false);
    assertThat(fromEnv.values().get("model"))
        .isEqualTo(
            new ResolvedInput("env/model", "env", "environment variable BENCHPLAN_VALIDATE_MODEL"));
    assertThat(fromEnv.concurrencyPerGpu()).isEqualTo(64);
    assertThat(fromEnv.modelCacheStorageClass()).isEqualTo("env-sc");
    assertThat(fromEnv.values().get("model_cache_storage_class").source()).isEqualTo("env");

    // benchplan's defaults: the seed's model at 16 per worker, no cache class (the cluster's
    // default)
    ValidateInputs dflt =
        ValidateInputs.resolve(
            options(null, none(InputFlags.Defaults.BENCHPLAN, Map.of())),
            RecipeSettings.none(),
            false);
    assertThat(dflt.model()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(dflt.values().get("model").source()).isEqualTo("default");
    assertThat(dflt.concurrencyPerWorker()).isEqualTo(16);
    assertThat(dflt.concurrencyPerGpu()).isNull();
    assertThat(dflt.values().get("concurrency_per_worker").source()).isEqualTo("default");
    assertThat(dflt.modelCacheStorageClass()).isNull();
    assertThat(dflt.routingMode()).isEqualTo("dynamo-router");
    assertThat(dflt.modelGiven()).isFalse();

    // --defaults aicr: Qwen/Qwen3-8B at 256 per GPU
    ValidateInputs aicr =
        ValidateInputs.resolve(
            options(null, none(InputFlags.Defaults.AICR, Map.of())), RecipeSettings.none(), false);
    assertThat(aicr.model()).isEqualTo("Qwen/Qwen3-8B");
    assertThat(aicr.values().get("model").source()).isEqualTo("aicr-default");
    assertThat(aicr.concurrencyPerGpu()).isEqualTo(256);
    assertThat(aicr.values().get("concurrency_per_gpu").source()).isEqualTo("aicr-default");
  }

  @Test
  @DisplayName("the table names a flag and an env variable for every overlay input")
  void table() {
    assertThat(ValidateInputs.TABLE)
        .extracting(ValidateInputs.Row::input)
        .containsExactly(
            "model",
            "concurrency_per_gpu",
            "concurrency_per_worker",
            "routing_mode",
            "model_cache_storage_class",
            "isl",
            "osl");
    ValidateInputs.TABLE.stream()
        .filter(r -> r.recipe() != null)
        .forEach(
            r -> {
              assertThat(r.flag()).startsWith("--");
              assertThat(r.env()).startsWith("BENCHPLAN_VALIDATE_");
            });
  }

  @Test
  @DisplayName(
      "--concurrency-per-gpu and --concurrency-per-worker exclude each other; so do their variables")
  void exclusive() {
    assertThatThrownBy(() -> flags(8, true, null, null, null, Map.of()))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "options --concurrency-per-gpu and --concurrency-per-worker exclude"
                + " each other: give one")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
    Map<String, String> both =
        Map.of(
            "BENCHPLAN_VALIDATE_CONCURRENCY_PER_GPU",
            "8",
            "BENCHPLAN_VALIDATE_CONCURRENCY_PER_WORKER",
            "8");
    assertThatThrownBy(
            () ->
                ValidateInputs.resolve(
                    options(null, none(null, both)), RecipeSettings.none(), false))
        .hasMessage(
            "environment variables BENCHPLAN_VALIDATE_CONCURRENCY_PER_GPU and"
                + " BENCHPLAN_VALIDATE_CONCURRENCY_PER_WORKER exclude each other: set one");
    // a per-worker flag beats the recipe's per-GPU figure
    ValidateInputs w =
        ValidateInputs.resolve(
            options(null, flags(null, true, null, null, null, Map.of())),
            RecipeSettings.none(),
            false);
    assertThat(w.concurrencyPerWorker()).isEqualTo(16);
    assertThat(w.values().get("concurrency_per_worker").source()).isEqualTo("flag");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "inference-concurrency-per-gpu|\"abc\"|/validation/performance/constraints/0/value:"
            + " inference-concurrency-per-gpu: expected a"
            + " positive integer (1..100000), got 'abc'",
        "inference-concurrency-per-gpu|\"0\"|/validation/performance/constraints/0/value:"
            + " inference-concurrency-per-gpu: expected a"
            + " positive integer (1..100000), got '0'",
        "inference-model|\"Qwen/Qwen3"
            + " 8B\"|/validation/performance/constraints/0 (inference-model):"
            + " expected a Hugging Face model id"
            + " (letters, digits, . _ / -), got 'Qwen/Qwen3 8B'",
        "inference-routing-mode|kv|/validation/performance/constraints/0"
            + " (inference-routing-mode): expected dynamo-router (or"
            + " gateway-epp, not supported yet), got 'kv'",
        "inference-routing-mode|gateway-epp|/validation/performance/constraints/0"
            + " (inference-routing-mode): routing-mode gateway-epp"
            + " is not supported yet: use dynamo-router",
        "inference-model-cache-storage-class|Fast_SSD|/validation/performance/constraints/0"
            + " (inference-model-cache-storage-class):"
            + " expected a StorageClass name (DNS-1123 subdomain), got 'Fast_SSD'"
      })
  @DisplayName("a malformed value is exit 2 naming the constraint")
  void malformed(String name, String value, String message) throws Exception {
    RecipeSettings r =
        recipe(
            "validation: {performance: {checks: [inference-perf], constraints: [{name: "
                + name
                + ", value: "
                + value
                + "}, {name: inference-throughput, value: \">= 1\"}]}}");
    assertThatThrownBy(() -> ValidateInputs.resolve(options(null, InputFlags.legacy()), r, true))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(dir.resolve("overlay.yaml") + ": " + message)
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
  }

  @Test
  @DisplayName(
      "unknown constraint names are ignored with one warning listing them; thresholds without their"
          + " inputs say what was used and that AICR would use others")
  void warnings() throws Exception {
    RecipeSettings r =
        recipe(
            "validation: {performance: {checks: [inference-perf], constraints: ["
                + "{name: inference-kv-hit-rate, value: \">= 0.5\"}, {name: inference-future-thing, value: x},"
                + "{name: inference-throughput, value: \">= 50000\"}]}}");
    assertThat(r.unknown()).containsExactly("inference-kv-hit-rate", "inference-future-thing");
    ValidateInputs in =
        ValidateInputs.resolve(
            options(null, none(InputFlags.Defaults.BENCHPLAN, Map.of())), r, true);
    assertThat(in.warnings()).hasSize(2);
    assertThat(in.warnings().get(0))
        .contains("does not know, ignored: inference-kv-hit-rate, inference-future-thing");
    assertThat(in.warnings().get(1))
        .contains("calibrated by AICR for Qwen/Qwen3-8B at 256 per GPU")
        .contains("this run used Qwen/Qwen3-0.6B (default) at 16 per worker (default)")
        .contains("AICR would use the others");
    // with AICR's defaults the inputs match the calibration: no warning
    ValidateInputs aicr =
        ValidateInputs.resolve(options(null, none(InputFlags.Defaults.AICR, Map.of())), r, true);
    assertThat(aicr.warnings()).hasSize(1);
    // an overlay that names its own model and load set its thresholds for them: no warning, even
    // off AICR's
    RecipeSettings own =
        recipe(
            "validation: {performance: {checks: [inference-perf], constraints: ["
                + "{name: inference-model, value: Qwen/Qwen3-8B}, {name: inference-concurrency-per-gpu, value: \"4\"},"
                + "{name: inference-ttft-p99, value: \"<= 2000\"}]}}");
    assertThat(
            ValidateInputs.resolve(
                    options(null, none(InputFlags.Defaults.BENCHPLAN, Map.of())), own, true)
                .warnings())
        .isEmpty();
    // the model named, the load left to benchplan's default (16 per worker): still warned
    RecipeSettings modelOnly =
        recipe(
            "validation: {performance: {checks: [inference-perf], constraints: ["
                + "{name: inference-model, value: Qwen/Qwen3-8B}, {name: inference-throughput, value: \">= 50000\"}]}}");
    assertThat(
            ValidateInputs.resolve(
                    options(null, none(InputFlags.Defaults.BENCHPLAN, Map.of())), modelOnly, true)
                .warnings())
        .singleElement()
        .satisfies(w -> assertThat(w).contains("at 16 per worker (default)"));
  }

  @Test
  @DisplayName(
      "no overlay: the default thresholds were set for Qwen3-0.6B at 16 per worker; --defaults aicr (8B,"
          + " 256 per GPU) is warned that they do not fit, benchplan's own defaults are not")
  void defaultThresholdsWarning() {
    ValidateInputs own =
        ValidateInputs.resolve(
            options(null, none(InputFlags.Defaults.BENCHPLAN, Map.of())),
            RecipeSettings.none(),
            false);
    assertThat(own.warnings()).isEmpty();
    ValidateInputs aicr =
        ValidateInputs.resolve(
            options(null, none(InputFlags.Defaults.AICR, Map.of())), RecipeSettings.none(), false);
    assertThat(aicr.warnings())
        .singleElement()
        .satisfies(
            w ->
                assertThat(w)
                    .contains(
                        "no overlay: the default thresholds (inference-throughput >= 5000, inference-ttft-p99 <= 200)")
                    .contains(
                        "this run uses Qwen/Qwen3-8B (aicr-default) at 256 per GPU (aicr-default)")
                    .contains("inference-throughput >= 50000, inference-ttft-p99 <= 2000"));
  }

  @Test
  @DisplayName("the recipe's componentRefs: dynamo-platform and its version")
  void componentRefs() throws Exception {
    RecipeSettings r = recipe(GB200);
    assertThat(r.componentRefs()).isTrue();
    assertThat(r.dynamoPlatform()).isTrue();
    assertThat(r.dynamoPlatformVersion()).isEqualTo("1.2.1");
    RecipeSettings noDynamo =
        recipe(
            "kind: RecipeMetadata\nspec: {componentRefs: [{name: gpu-operator}],"
                + " validation: {performance: {checks: [inference-perf], constraints: [{name: inference-throughput,"
                + " value: \">= 1\"}]}}}");
    assertThat(noDynamo.componentRefs()).isTrue();
    assertThat(noDynamo.dynamoPlatform()).isFalse();
  }
}
