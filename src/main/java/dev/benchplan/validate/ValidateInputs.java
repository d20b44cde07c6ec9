package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The inputs of a validate run, each resolved with the same precedence and recorded with its
 * source: command-line flag &gt; recipe constraint &gt; benchplan's own environment variable
 * ({@code BENCHPLAN_VALIDATE_*}) &gt; built-in default (benchplan's, or AICR's with {@code
 * --defaults aicr}). {@link #TABLE} is the table; the README and the verdict repeat it.
 *
 * @param values input name to its resolved value, in table order
 * @param warnings what the verdict should say about them (ignored names, thresholds without the
 *     inputs they were calibrated for)
 * @param locations input name to where the user gave it (the option, the overlay entry's value, the
 *     variable); absent for defaults
 */
public record ValidateInputs(
    Map<String, ResolvedInput> values,
    List<String> warnings,
    Map<String, ErrorLocation> locations) {
  /** Input names, as the verdict and the plan record them. */
  public static final String MODEL = "model";

  public static final String CONCURRENCY_PER_GPU = "concurrency_per_gpu";
  public static final String CONCURRENCY_PER_WORKER = "concurrency_per_worker";
  public static final String ROUTING_MODE = "routing_mode";
  public static final String MODEL_CACHE_STORAGE_CLASS = "model_cache_storage_class";
  public static final String ISL = "isl";
  public static final String OSL = "osl";

  /** Routing modes: the one honoured and the one not supported yet. */
  public static final String DYNAMO_ROUTER = "dynamo-router";

  public static final String GATEWAY_EPP = "gateway-epp";

  /** AICR's model and load, which its thresholds are calibrated for. */
  public static final String AICR_MODEL = "Qwen/Qwen3-8B";

  public static final int AICR_CONCURRENCY_PER_GPU = 256;

  /** benchplan's own (the seed's) per-worker concurrency. */
  public static final int DEFAULT_CONCURRENCY_PER_WORKER = 16;

  /** ISL and OSL of AICR's load. */
  public static final int DEFAULT_TOKENS = 128;

  /**
   * One row of the precedence table: the flag, the recipe constraint, the environment variable,
   * benchplan's default and AICR's default (null where a tier does not exist).
   */
  public record Row(
      String input,
      String flag,
      @Nullable String recipe,
      @Nullable String env,
      @Nullable Object benchplanDefault,
      @Nullable Object aicrDefault) {}

  /** The precedence table, in resolution order of the tiers (flag, recipe, env, default). */
  public static final List<Row> TABLE =
      List.of(
          new Row(
              MODEL,
              "--model",
              RecipeSettings.MODEL,
              InputFlags.ENV_PREFIX + "MODEL",
              ValidateOptions.DEFAULT_MODEL,
              AICR_MODEL),
          new Row(
              CONCURRENCY_PER_GPU,
              "--concurrency-per-gpu",
              RecipeSettings.CONCURRENCY_PER_GPU,
              InputFlags.ENV_PREFIX + "CONCURRENCY_PER_GPU",
              null,
              AICR_CONCURRENCY_PER_GPU),
          new Row(
              CONCURRENCY_PER_WORKER,
              "--concurrency-per-worker",
              null,
              InputFlags.ENV_PREFIX + "CONCURRENCY_PER_WORKER",
              DEFAULT_CONCURRENCY_PER_WORKER,
              null),
          new Row(
              ROUTING_MODE,
              "--routing-mode",
              RecipeSettings.ROUTING_MODE,
              InputFlags.ENV_PREFIX + "ROUTING_MODE",
              DYNAMO_ROUTER,
              DYNAMO_ROUTER),
          new Row(
              MODEL_CACHE_STORAGE_CLASS,
              "--model-cache-storage-class",
              RecipeSettings.MODEL_CACHE_STORAGE_CLASS,
              InputFlags.ENV_PREFIX + "MODEL_CACHE_STORAGE_CLASS",
              null,
              null),
          new Row(ISL, "--isl", null, null, DEFAULT_TOKENS, DEFAULT_TOKENS),
          new Row(OSL, "--osl", null, null, DEFAULT_TOKENS, DEFAULT_TOKENS));

  /** AICR's character set for a model id. */
  private static final Pattern MODEL_ID = Pattern.compile("[A-Za-z0-9._/-]+");

  private static final Pattern STORAGE_CLASS =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  public ValidateInputs {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    warnings = List.copyOf(warnings);
    locations = Map.copyOf(locations);
  }

  /**
   * Resolves every input. A malformed value is invalid input naming where it came from (the option,
   * the overlay entry, the variable); {@code gateway-epp} is invalid input, not supported yet.
   *
   * @param thresholdsFromRecipe whether the gated thresholds come from the overlay (not benchplan's
   *     built-in ones)
   */
  public static ValidateInputs resolve(
      ValidateOptions o, RecipeSettings recipe, boolean thresholdsFromRecipe) {
    InputFlags f = o.flags();
    Map<String, String> env = f.env();
    Map<String, ResolvedInput> out = new LinkedHashMap<>();
    List<String> warnings = new ArrayList<>();
    if (!recipe.unknown().isEmpty()) {
      warnings.add(
          recipe.source()
              + ": constraint name(s) this benchplan does not know, ignored: "
              + String.join(", ", recipe.unknown()));
    }

    Map<String, ErrorLocation> at = new LinkedHashMap<>();
    Row m = row(MODEL);
    ResolvedInput model = pick(m, o.model(), recipe, env, f.defaults());
    ErrorLocation modelAt = locate(m, model, recipe);
    at.put(MODEL, modelAt);
    checkModel(model, modelAt);
    out.put(MODEL, model);

    // concurrency: one basis, per GPU or per worker; the flags exclude each other, so do the
    // variables
    Row g = row(CONCURRENCY_PER_GPU);
    Row w = row(CONCURRENCY_PER_WORKER);
    // both load rows have a variable
    ErrorLocation perGpuVar = ErrorLocation.field(Objects.requireNonNull(g.env()));
    ErrorLocation perWorkerVar = ErrorLocation.field(Objects.requireNonNull(w.env()));
    // the recipe's value is checked even when a flag wins: a malformed overlay fails closed, as
    // AICR's does
    String recipePerGpuText = recipe.get(g.recipe());
    Integer recipePerGpu =
        recipePerGpuText == null
            ? null
            : positive(
                recipePerGpuText,
                recipe.where(g.recipe()) + "/value: " + g.recipe(),
                recipe.location(g.recipe()));
    ResolvedInput load;
    if (f.concurrencyPerGpu() != null) {
      load = new ResolvedInput(f.concurrencyPerGpu(), "flag", g.flag());
    } else if (f.concurrencyPerWorkerGiven()) {
      load = new ResolvedInput(o.concurrencyPerWorker(), "flag", w.flag());
    } else if (recipePerGpu != null) {
      load =
          new ResolvedInput(
              recipePerGpu, "recipe", recipe.where(g.recipe()) + " (" + g.recipe() + ")");
    } else if (env.containsKey(g.env()) && env.containsKey(w.env())) {
      throw BenchplanException.invalid(
          perGpuVar,
          "environment variables " + g.env() + " and " + w.env() + " exclude each other: set one");
    } else if (env.containsKey(g.env())) {
      load =
          new ResolvedInput(
              positive(
                  Objects.requireNonNull(env.get(g.env())),
                  "environment variable " + g.env(),
                  perGpuVar),
              "env",
              g.env());
    } else if (env.containsKey(w.env())) {
      load =
          new ResolvedInput(
              positive(
                  Objects.requireNonNull(env.get(w.env())),
                  "environment variable " + w.env(),
                  perWorkerVar),
              "env",
              w.env());
    } else if (f.defaults() == InputFlags.Defaults.AICR) {
      load =
          new ResolvedInput(AICR_CONCURRENCY_PER_GPU, f.defaults().source(), "AICR's default load");
    } else {
      load =
          new ResolvedInput(
              DEFAULT_CONCURRENCY_PER_WORKER, f.defaults().source(), "benchplan's default load");
    }
    String loadOrigin =
        Objects.requireNonNull(load.origin()); // every load above names where it came from
    boolean perGpu =
        loadOrigin.equals(g.flag())
            || loadOrigin.equals(g.env())
            || load.source().equals("recipe")
            || load.source().equals(InputFlags.Defaults.AICR.source());
    out.put(perGpu ? CONCURRENCY_PER_GPU : CONCURRENCY_PER_WORKER, load);
    at.put(
        perGpu ? CONCURRENCY_PER_GPU : CONCURRENCY_PER_WORKER,
        locate(perGpu ? g : w, load, recipe));

    ResolvedInput routing = pick(row(ROUTING_MODE), f.routingMode(), recipe, env, f.defaults());
    ErrorLocation routingAt = locate(row(ROUTING_MODE), routing, recipe);
    at.put(ROUTING_MODE, routingAt);
    String mode = routing.text();
    if (GATEWAY_EPP.equals(mode)) {
      throw BenchplanException.invalid(
          routingAt,
          routing.origin()
              + ": "
              + ROUTING_MODE.replace('_', '-')
              + " "
              + GATEWAY_EPP
              + " is not supported yet: use "
              + DYNAMO_ROUTER);
    }
    if (!DYNAMO_ROUTER.equals(mode)) {
      throw BenchplanException.invalid(
          routingAt,
          routing.origin()
              + ": expected "
              + DYNAMO_ROUTER
              + " (or "
              + GATEWAY_EPP
              + ", not supported yet), got '"
              + mode
              + "'");
    }
    out.put(ROUTING_MODE, routing);

    ResolvedInput cache =
        pick(row(MODEL_CACHE_STORAGE_CLASS), f.modelCacheStorageClass(), recipe, env, f.defaults());
    ErrorLocation cacheAt = locate(row(MODEL_CACHE_STORAGE_CLASS), cache, recipe);
    at.put(MODEL_CACHE_STORAGE_CLASS, cacheAt);
    String cacheClass = cache.text();
    if (cacheClass == null) {
      cache =
          new ResolvedInput(null, cache.source(), "none given: the cluster's default StorageClass");
    } else if (cacheClass.length() > 253 || !STORAGE_CLASS.matcher(cacheClass).matches()) {
      throw BenchplanException.invalid(
          cacheAt,
          cache.origin()
              + ": expected a StorageClass name (DNS-1123 subdomain), got '"
              + cache.text()
              + "'");
    }
    out.put(MODEL_CACHE_STORAGE_CLASS, cache);

    out.put(
        ISL,
        f.islGiven()
            ? new ResolvedInput(o.isl(), "flag", "--isl")
            : new ResolvedInput(o.isl(), f.defaults().source(), "AICR's load: 128 input tokens"));
    out.put(
        OSL,
        f.oslGiven()
            ? new ResolvedInput(o.osl(), "flag", "--osl")
            : new ResolvedInput(o.osl(), f.defaults().source(), "AICR's load: 128 output tokens"));

    String calibration =
        thresholdsFromRecipe
            ? calibration(model, load, perGpu)
            : defaultThresholds(model, load, perGpu);
    if (calibration != null) {
      warnings.add(calibration);
    }
    at.values().removeIf(l -> l.equals(ErrorLocation.NONE));
    return new ValidateInputs(out, warnings, at);
  }

  /** Where a resolved input was given: its option, its overlay entry's value, its variable. */
  private static ErrorLocation locate(Row r, ResolvedInput in, RecipeSettings recipe) {
    return switch (in.source()) {
      case "flag" -> ErrorLocation.option(r.flag());
      case "recipe" -> recipe.location(r.recipe());
      case "env" -> r.env() == null ? ErrorLocation.NONE : ErrorLocation.field(r.env());
      default -> ErrorLocation.NONE;
    };
  }

  /** Where the user gave {@code input}, or {@link ErrorLocation#NONE} for a default. */
  public ErrorLocation location(String input) {
    return locations.getOrDefault(input, ErrorLocation.NONE);
  }

  /**
   * Without an overlay the gate is benchplan's default (>= 5000 tok/s, TTFT p99 <= 200 ms), set for
   * Qwen/Qwen3-0.6B at 16 per worker: the warning when this run uses another model or load (e.g.
   * {@code --defaults aicr}, whose 2048 in flight on 8 GPUs put TTFT p99 near 600 ms on healthy
   * H100 nodes); null when it does not.
   */
  private static @Nullable String defaultThresholds(
      ResolvedInput model, ResolvedInput load, boolean perGpu) {
    boolean sameModel = ValidateOptions.DEFAULT_MODEL.equals(model.text());
    boolean sameLoad =
        !perGpu && Integer.valueOf(DEFAULT_CONCURRENCY_PER_WORKER).equals(load.value());
    if (sameModel && sameLoad) {
      return null;
    }
    return "no overlay: the default thresholds (inference-throughput >= 5000, inference-ttft-p99 <= 200) were set"
        + " for "
        + ValidateOptions.DEFAULT_MODEL
        + " at "
        + DEFAULT_CONCURRENCY_PER_WORKER
        + " per worker; this run"
        + " uses "
        + thisRun(model, load, perGpu)
        + ": give thresholds for them in an overlay (AICR's for "
        + AICR_MODEL
        + " at "
        + AICR_CONCURRENCY_PER_GPU
        + " per GPU: inference-throughput >= 50000, inference-ttft-p99 <= 2000)";
  }

  /**
   * The warning when the overlay's thresholds are judged with another model or load than AICR
   * calibrated them for; null when the model and the load are AICR's, or when the overlay names
   * them itself (its thresholds were then set for its own inputs).
   */
  private static @Nullable String calibration(
      ResolvedInput model, ResolvedInput load, boolean perGpu) {
    boolean sameModel = "recipe".equals(model.source()) || AICR_MODEL.equals(model.text());
    boolean sameLoad =
        "recipe".equals(load.source())
            || (perGpu && Integer.valueOf(AICR_CONCURRENCY_PER_GPU).equals(load.value()));
    if (sameModel && sameLoad) {
      return null;
    }
    return "the overlay's thresholds were calibrated by AICR for "
        + AICR_MODEL
        + " at "
        + AICR_CONCURRENCY_PER_GPU
        + " per GPU; this run used "
        + thisRun(model, load, perGpu)
        + ": AICR would use the others"
        + " (give inference-model and inference-concurrency-per-gpu in the overlay, or --defaults aicr)";
  }

  /** The model and load of this run with their sources, as both threshold warnings name them. */
  private static String thisRun(ResolvedInput model, ResolvedInput load, boolean perGpu) {
    return model.text()
        + " ("
        + model.source()
        + ") at "
        + load.value()
        + (perGpu ? " per GPU" : " per worker")
        + " ("
        + load.source()
        + ")";
  }

  /** flag &gt; recipe &gt; env &gt; default, for a text input. */
  private static ResolvedInput pick(
      Row r,
      @Nullable String flag,
      RecipeSettings recipe,
      Map<String, String> env,
      InputFlags.Defaults defaults) {
    if (flag != null) {
      return new ResolvedInput(flag.trim(), "flag", r.flag());
    }
    if (r.recipe() != null && recipe.get(r.recipe()) != null) {
      return new ResolvedInput(
          recipe.get(r.recipe()), "recipe", recipe.where(r.recipe()) + " (" + r.recipe() + ")");
    }
    if (r.env() != null && env.containsKey(r.env())) {
      return new ResolvedInput(env.get(r.env()), "env", "environment variable " + r.env());
    }
    Object d = defaults == InputFlags.Defaults.AICR ? r.aicrDefault() : r.benchplanDefault();
    return new ResolvedInput(
        d,
        defaults.source(),
        defaults == InputFlags.Defaults.AICR ? "AICR's default" : "benchplan's default");
  }

  private static void checkModel(ResolvedInput model, ErrorLocation at) {
    String v = model.text();
    if (v == null || v.isBlank() || v.length() > 256 || !MODEL_ID.matcher(v).matches()) {
      throw BenchplanException.invalid(
          at,
          model.origin()
              + ": expected a Hugging Face model id (letters, digits,"
              + " . _ / -), got '"
              + v
              + "'");
    }
  }

  private static int positive(String text, String where, ErrorLocation at) {
    String t = text.trim();
    try {
      int v = Integer.parseInt(t);
      if (v >= 1 && v <= 100_000) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw BenchplanException.invalid(
        at, where + ": expected a positive integer (1..100000), got '" + t + "'");
  }

  private static Row row(String input) {
    return TABLE.stream().filter(r -> r.input().equals(input)).findFirst().orElseThrow();
  }

  /** The resolved model. */
  public String model() {
    return Objects.requireNonNull(
        Objects.requireNonNull(values.get(MODEL)).text()); // always resolved
  }

  /**
   * Whether the model was given (flag, recipe or environment), so a discovered DGD must serve it.
   */
  public boolean modelGiven() {
    String s = Objects.requireNonNull(values.get(MODEL)).source();
    return s.equals("flag") || s.equals("recipe") || s.equals("env");
  }

  /** The concurrency per GPU, or null when the load is per worker. */
  public @Nullable Integer concurrencyPerGpu() {
    ResolvedInput r = values.get(CONCURRENCY_PER_GPU);
    return r == null ? null : (Integer) r.value();
  }

  /** The concurrency per worker replica, or null when the load is per GPU. */
  public @Nullable Integer concurrencyPerWorker() {
    ResolvedInput r = values.get(CONCURRENCY_PER_WORKER);
    return r == null ? null : (Integer) r.value();
  }

  /** The load basis with its source. */
  public @Nullable ResolvedInput load() {
    return values.containsKey(CONCURRENCY_PER_GPU)
        ? values.get(CONCURRENCY_PER_GPU)
        : values.get(CONCURRENCY_PER_WORKER);
  }

  /** The routing mode ({@code dynamo-router}): the default deployment's frontend routes by it. */
  public String routingMode() {
    // always resolved: it has a default
    return Objects.requireNonNull(Objects.requireNonNull(values.get(ROUTING_MODE)).text());
  }

  /** The StorageClass for the model-weights cache, or null for the cluster's default. */
  public @Nullable String modelCacheStorageClass() {
    return Objects.requireNonNull(values.get(MODEL_CACHE_STORAGE_CLASS)).text();
  }

  /** A copy with one more resolved value (runtime image, load figures, GPUs). */
  public ValidateInputs with(String name, ResolvedInput value) {
    Map<String, ResolvedInput> v = new LinkedHashMap<>(values);
    v.put(name, value);
    return new ValidateInputs(v, warnings, locations);
  }

  /** A copy with one more warning. */
  public ValidateInputs warn(String warning) {
    List<String> w = new ArrayList<>(warnings);
    w.add(warning);
    return new ValidateInputs(values, w, locations);
  }
}
