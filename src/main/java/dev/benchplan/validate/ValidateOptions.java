package dev.benchplan.validate;

import dev.benchplan.aiperf.version.AiperfVersion;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

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
 * @param aiperfVersion an operator pin of the AIPerf version, null to resolve it as {@code plan} does
 * @param aiperfIndexUrl the package index JSON URL for AIPerf version resolution, null for the default
 * @param runtimeImage the Dynamo vLLM runtime image of the default deployment
 * @param hfTokenSecret the name of a Secret with a Hugging Face token for the workers, or null
 * @param timeouts the bound of every waiting phase
 */
public record ValidateOptions(
    String kubeContext,
    Path recipe,
    String dgd,
    String namespace,
    String model,
    Map<String, String> nodeSelector,
    int concurrencyPerWorker,
    int isl,
    int osl,
    boolean keep,
    Path reportDir,
    String aiperfVersion,
    String aiperfIndexUrl,
    String runtimeImage,
    String hfTokenSecret,
    ValidateTimeouts timeouts) {

  /** The model deployed (and assumed) when none is given: small, public, fast to load. */
  public static final String DEFAULT_MODEL = "Qwen/Qwen3-0.6B";

  /** The runtime image of the default deployment: pinned, the Dynamo release AICR validated. */
  public static final String DEFAULT_RUNTIME_IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0";

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
    runtimeImage = runtimeImage == null ? DEFAULT_RUNTIME_IMAGE : runtimeImage;
    if (concurrencyPerWorker < 1) {
      throw invalid("--concurrency-per-worker", "a positive integer", concurrencyPerWorker);
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
      throw invalid("--aiperf-version", "an exact release such as 0.4.0 or 0.6.0.post1", aiperfVersion);
    }
    if (hfTokenSecret != null
        && (hfTokenSecret.length() > 253 || !DNS1123.matcher(hfTokenSecret).matches())) {
      throw invalid("--hf-token-secret", "a Secret name (DNS-1123)", hfTokenSecret);
    }
    if (runtimeImage.isBlank() || runtimeImage.endsWith(":latest") || (!runtimeImage.contains(":")
        && !runtimeImage.contains("@"))) {
      throw invalid("--runtime-image", "an image pinned to a tag or digest (never :latest)", runtimeImage);
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
        "option " + option + ": expected " + expected + ", got '" + got + "'");
  }
}
