package dev.benchplan.validate;

import dev.benchplan.aiperf.version.AiperfVersion;
import dev.benchplan.error.ErrorLocation;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Everything {@code benchplan validate} was asked to do.
 *
 * @param kubeContext kubeconfig context, null for the current one
 * @param recipe the AICR recipe overlay holding the constraints, null for the defaults
 * @param dgd the DGD to benchmark when several qualify ({@code NAME} or {@code NAMESPACE/NAME})
 * @param namespace restricts discovery to one namespace, null for all namespaces
 * @param model the model given on the command line, null when not given
 * @param nodeSelector labels a GPU node must carry to be chosen for the default deployment
 * @param concurrencyPerWorker concurrency per worker replica (16 by default)
 * @param isl input sequence length in tokens
 * @param osl output sequence length in tokens
 * @param keep keep what validate created (no cleanup)
 * @param reportDir where the verdict, CTRF and JUnit reports, plan and run record go
 * @param aiperfVersion an operator pin of the AIPerf version, null to resolve it as {@code plan}
 *     does
 * @param aiperfIndexUrl the package index JSON URL for AIPerf version resolution, null for the
 *     default
 * @param runtimeImage the Dynamo vLLM runtime image of the default deployment, or null to follow
 *     the Dynamo platform version ({@link RuntimeImage})
 * @param hfTokenSecret the name of a Secret with a Hugging Face token for the workers, or null
 * @param timeouts the bound of every waiting phase
 * @param repeats how many times to measure ({@code --repeats}; the gate takes the median)
 * @param flags the inputs resolved with the recipe ({@link ValidateInputs}): which were given, the
 *     {@code BENCHPLAN_VALIDATE_*} environment, {@code --defaults}
 * @param modelCache whether the default deployment caches the model weights on a PVC ({@code
 *     --no-model-cache} turns it off)
 * @param modelCacheSize the cache PVC's size, a Kubernetes quantity ({@code --model-cache-size})
 * @param modelCacheStorageClass the StorageClass of the cache PVC: {@code
 *     --model-cache-storage-class}, else the recipe's {@code inference-model-cache-storage-class},
 *     else null for the cluster's default class
 * @param allowUnknownConstraints list the recipe's unknown {@code inference-*} constraint names as
 *     ignored instead of refusing them ({@code --allow-unknown-constraints}: overlays newer than
 *     benchplan)
 */
public record ValidateOptions(
    @Nullable String kubeContext,
    @Nullable Path recipe,
    @Nullable String dgd,
    @Nullable String namespace,
    @Nullable String model,
    Map<String, String> nodeSelector,
    int concurrencyPerWorker,
    int isl,
    int osl,
    boolean keep,
    Path reportDir,
    @Nullable String aiperfVersion,
    @Nullable String aiperfIndexUrl,
    @Nullable String runtimeImage,
    @Nullable String hfTokenSecret,
    ValidateTimeouts timeouts,
    int repeats,
    InputFlags flags,
    boolean modelCache,
    @Nullable String modelCacheSize,
    @Nullable String modelCacheStorageClass,
    boolean allowUnknownConstraints) {

  /** {@code --repeats}: the most measurements one validate takes (one Job each). */
  public static final int MAX_REPEATS = 10;

  /** {@code --isl} and {@code --osl} when not given: tokens. */
  public static final int DEFAULT_TOKENS = 128;

  /** The cache PVC's size when none is given: AICR's. */
  public static final String DEFAULT_MODEL_CACHE_SIZE = "100Gi";

  /** The model deployed (and assumed) when none is given: small, public, fast to load. */
  public static final String DEFAULT_MODEL = "Qwen/Qwen3-0.6B";

  /**
   * The runtime image of the default deployment when neither the recipe nor the cluster names the
   * Dynamo platform version: pinned, the one AICR's template uses today.
   */
  public static final String DEFAULT_RUNTIME_IMAGE =
      "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1-cuda13";

  /**
   * A Kubernetes quantity validate accepts for a volume size: a positive number and a
   * binary/decimal suffix.
   */
  private static final Pattern QUANTITY =
      Pattern.compile("([0-9]+(\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?");

  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern DNS1123 = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DGD_REF =
      Pattern.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?/)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
  private static final Pattern LABEL_KEY =
      Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  private static final Pattern LABEL_VALUE =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");

  public ValidateOptions {
    Objects.requireNonNull(reportDir, "reportDir");
    Objects.requireNonNull(timeouts, "timeouts");
    nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(new TreeMap<>(nodeSelector));
    flags = flags == null ? InputFlags.legacy() : flags;
    modelCacheSize = modelCacheSize == null ? DEFAULT_MODEL_CACHE_SIZE : modelCacheSize.strip();
    var q = QUANTITY.matcher(modelCacheSize);
    if (!q.matches() || new java.math.BigDecimal(q.group(1)).signum() <= 0) {
      throw invalid(
          "--model-cache-size",
          "a positive Kubernetes quantity such as 100Gi or 500G",
          modelCacheSize);
    }
    if (modelCacheStorageClass != null
        && (modelCacheStorageClass.length() > 253
            || !DNS1123_SUBDOMAIN.matcher(modelCacheStorageClass).matches())) {
      throw invalid(
          "--model-cache-storage-class",
          "a StorageClass name (DNS-1123 subdomain)",
          modelCacheStorageClass);
    }
    if (concurrencyPerWorker < 1) {
      throw invalid("--concurrency-per-worker", "a positive integer", concurrencyPerWorker);
    }
    if (repeats < 1 || repeats > MAX_REPEATS) {
      throw invalid("--repeats", "1 to " + MAX_REPEATS, repeats);
    }
    if (isl < 1) {
      throw invalid("--isl", "a positive number of tokens", isl);
    }
    if (osl < 1) {
      throw invalid("--osl", "a positive number of tokens", osl);
    }
    if (namespace != null && (namespace.length() > 63 || !DNS1123.matcher(namespace).matches())) {
      throw invalid("--namespace", "a DNS-1123 label", namespace);
    }
    if (dgd != null && (dgd.length() > 253 || !DGD_REF.matcher(dgd).matches())) {
      throw invalid("--dgd", "NAME or NAMESPACE/NAME (DNS-1123)", dgd);
    }
    if (model != null && model.isBlank()) {
      throw invalid("--model", "a model name", "an empty string");
    }
    if (aiperfVersion != null && !AiperfVersion.isPlanForm(aiperfVersion)) {
      throw invalid(
          "--aiperf-version", "an exact release such as 0.4.0 or 0.6.0.post1", aiperfVersion);
    }
    if (hfTokenSecret != null
        && (hfTokenSecret.length() > 253 || !DNS1123.matcher(hfTokenSecret).matches())) {
      throw invalid("--hf-token-secret", "a Secret name (DNS-1123)", hfTokenSecret);
    }
    if (runtimeImage != null
        && (runtimeImage.isBlank()
            || runtimeImage.endsWith(":latest")
            || (!runtimeImage.contains(":") && !runtimeImage.contains("@")))) {
      throw invalid(
          "--runtime-image", "an image pinned to a tag or digest (never :latest)", runtimeImage);
    }
    nodeSelector.forEach(
        (k, v) -> {
          if (!LABEL_KEY.matcher(k).matches() || k.length() > 316) {
            throw invalid("--node-selector", "KEY=VALUE with a valid label key", k + "=" + v);
          }
          if (!LABEL_VALUE.matcher(v).matches() || v.length() > 63) {
            throw invalid("--node-selector", "KEY=VALUE with a valid label value", k + "=" + v);
          }
        });
  }

  /**
   * Starts options writing their reports to {@code reportDir}, the rest as {@code validate} without
   * options has them: no context, recipe, DGD, namespace or model named, {@value
   * ValidateInputs#DEFAULT_CONCURRENCY_PER_WORKER} per worker, {@value #DEFAULT_TOKENS} tokens in
   * and out, cleanup, the default timeouts, one measurement, the inputs as before the resolved
   * inputs ({@link InputFlags#legacy()}) and no model cache. Set what differs by name, then {@link
   * Builder#build()}.
   */
  public static Builder builder(Path reportDir) {
    return new Builder(reportDir);
  }

  /** A builder holding these options, to change some of them. */
  public Builder toBuilder() {
    return new Builder(reportDir)
        .kubeContext(kubeContext)
        .recipe(recipe)
        .dgd(dgd)
        .namespace(namespace)
        .model(model)
        .nodeSelector(nodeSelector)
        .concurrencyPerWorker(concurrencyPerWorker)
        .isl(isl)
        .osl(osl)
        .keep(keep)
        .aiperfVersion(aiperfVersion)
        .aiperfIndexUrl(aiperfIndexUrl)
        .runtimeImage(runtimeImage)
        .hfTokenSecret(hfTokenSecret)
        .timeouts(timeouts)
        .repeats(repeats)
        .flags(flags)
        .modelCache(modelCache, modelCacheSize, modelCacheStorageClass);
  }

  /**
   * The one way to assemble {@link ValidateOptions} by name; the record's constructor checks it.
   */
  public static final class Builder {
    private final Path reportDir;
    private @Nullable String kubeContext;
    private @Nullable Path recipe;
    private @Nullable String dgd;
    private @Nullable String namespace;
    private @Nullable String model;
    private Map<String, String> nodeSelector = Map.of();
    private int concurrencyPerWorker = ValidateInputs.DEFAULT_CONCURRENCY_PER_WORKER;
    private int isl = DEFAULT_TOKENS;
    private int osl = DEFAULT_TOKENS;
    private boolean keep;
    private @Nullable String aiperfVersion;
    private @Nullable String aiperfIndexUrl;
    private @Nullable String runtimeImage;
    private @Nullable String hfTokenSecret;
    private ValidateTimeouts timeouts = ValidateTimeouts.defaults();
    private int repeats = 1;
    private InputFlags flags = InputFlags.legacy();
    private boolean modelCache;
    private @Nullable String modelCacheSize;
    private @Nullable String modelCacheStorageClass;
    private boolean allowUnknownConstraints;

    /** See {@link ValidateOptions#allowUnknownConstraints()}. */
    public Builder allowUnknownConstraints(boolean allow) {
      this.allowUnknownConstraints = allow;
      return this;
    }

    private Builder(Path reportDir) {
      this.reportDir = reportDir;
    }

    /** See {@link ValidateOptions#kubeContext()}. */
    public Builder kubeContext(@Nullable String kubeContext) {
      this.kubeContext = kubeContext;
      return this;
    }

    /** See {@link ValidateOptions#recipe()}. */
    public Builder recipe(@Nullable Path recipe) {
      this.recipe = recipe;
      return this;
    }

    /** See {@link ValidateOptions#dgd()}. */
    public Builder dgd(@Nullable String dgd) {
      this.dgd = dgd;
      return this;
    }

    /** See {@link ValidateOptions#namespace()}. */
    public Builder namespace(@Nullable String namespace) {
      this.namespace = namespace;
      return this;
    }

    /** See {@link ValidateOptions#model()}. */
    public Builder model(@Nullable String model) {
      this.model = model;
      return this;
    }

    /** See {@link ValidateOptions#nodeSelector()}. */
    public Builder nodeSelector(Map<String, String> nodeSelector) {
      this.nodeSelector = nodeSelector;
      return this;
    }

    /** See {@link ValidateOptions#concurrencyPerWorker()}. */
    public Builder concurrencyPerWorker(int concurrencyPerWorker) {
      this.concurrencyPerWorker = concurrencyPerWorker;
      return this;
    }

    /** See {@link ValidateOptions#isl()}. */
    public Builder isl(int isl) {
      this.isl = isl;
      return this;
    }

    /** See {@link ValidateOptions#osl()}. */
    public Builder osl(int osl) {
      this.osl = osl;
      return this;
    }

    /** See {@link ValidateOptions#keep()}. */
    public Builder keep(boolean keep) {
      this.keep = keep;
      return this;
    }

    /** See {@link ValidateOptions#aiperfVersion()}. */
    public Builder aiperfVersion(@Nullable String aiperfVersion) {
      this.aiperfVersion = aiperfVersion;
      return this;
    }

    /** See {@link ValidateOptions#aiperfIndexUrl()}. */
    public Builder aiperfIndexUrl(@Nullable String aiperfIndexUrl) {
      this.aiperfIndexUrl = aiperfIndexUrl;
      return this;
    }

    /** See {@link ValidateOptions#runtimeImage()}. */
    public Builder runtimeImage(@Nullable String runtimeImage) {
      this.runtimeImage = runtimeImage;
      return this;
    }

    /** See {@link ValidateOptions#hfTokenSecret()}. */
    public Builder hfTokenSecret(@Nullable String hfTokenSecret) {
      this.hfTokenSecret = hfTokenSecret;
      return this;
    }

    /** See {@link ValidateOptions#timeouts()}. */
    public Builder timeouts(ValidateTimeouts timeouts) {
      this.timeouts = timeouts;
      return this;
    }

    /** See {@link ValidateOptions#repeats()}. */
    public Builder repeats(int repeats) {
      this.repeats = repeats;
      return this;
    }

    /** See {@link ValidateOptions#flags()}. */
    public Builder flags(InputFlags flags) {
      this.flags = flags;
      return this;
    }

    /**
     * Whether the default deployment caches the model, the cache's size (null for {@value
     * ValidateOptions#DEFAULT_MODEL_CACHE_SIZE}) and StorageClass (null for the recipe's or the
     * cluster's default).
     */
    public Builder modelCache(
        boolean modelCache,
        @Nullable String modelCacheSize,
        @Nullable String modelCacheStorageClass) {
      this.modelCache = modelCache;
      this.modelCacheSize = modelCacheSize;
      this.modelCacheStorageClass = modelCacheStorageClass;
      return this;
    }

    /** The options; the record's constructor checks them. */
    public ValidateOptions build() {
      return new ValidateOptions(
          kubeContext,
          recipe,
          dgd,
          namespace,
          model,
          nodeSelector,
          concurrencyPerWorker,
          isl,
          osl,
          keep,
          reportDir,
          aiperfVersion,
          aiperfIndexUrl,
          runtimeImage,
          hfTokenSecret,
          timeouts,
          repeats,
          flags,
          modelCache,
          modelCacheSize,
          modelCacheStorageClass,
          allowUnknownConstraints);
    }
  }

  /** The model to deploy or to expect: the one given, else {@link #DEFAULT_MODEL}. */
  public String modelOrDefault() {
    return model == null ? DEFAULT_MODEL : model;
  }

  /** Whether the user named the model (so it must match what a discovered DGD serves). */
  public boolean modelGiven() {
    return model != null;
  }

  private static dev.benchplan.error.BenchplanException invalid(
      String option, String expected, Object got) {
    return dev.benchplan.error.BenchplanException.invalid(
        ErrorLocation.option(option),
        "option " + option + ": expected " + expected + ", got '" + got + "'");
  }
}
