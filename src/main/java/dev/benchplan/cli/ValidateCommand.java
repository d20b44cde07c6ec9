package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ErrorReport;
import dev.benchplan.validate.InputFlags;
import dev.benchplan.validate.ValidateInputs;
import dev.benchplan.validate.ValidateOptions;
import dev.benchplan.validate.ValidateResult;
import dev.benchplan.validate.ValidateText;
import dev.benchplan.validate.ValidateTimeouts;
import dev.benchplan.validate.ValidateVerdict;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchplan validate}: the one-shot inference performance gate for a cluster. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "One-shot inference performance gate for a cluster (AICR's inference-perf check).",
      "",
      "Reads the constraints of a recipe overlay (or the defaults: throughput >= 5000 tokens/s,"
          + " TTFT p99 <= 200 ms, 10%% tolerance) and its inputs (inference-model,"
          + " inference-concurrency-per-gpu, inference-routing-mode, inference-model-cache-storage-class),"
          + " each resolved as flag > recipe > BENCHPLAN_VALIDATE_* variable > default and recorded with"
          + " its source; skips when the check is not requested or Dynamo is not in the recipe; benchmarks"
          + " the one successful DGD with a frontend Service (refusing when several qualify unless --dgd"
          + " names one) or deploys a default DGD (one vLLM worker per free GPU on the node with the"
          + " most, its runtime following the Dynamo platform version) in a fresh namespace; plans,"
          + " renders and runs AIPerf with AICR's load (max(1000, 8 x C) requests, C warmup, ISL = OSL ="
          + " 128, 100 dataset entries, seed 100, temperature 0); gates; cleans up what it created."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  pass, or skip (check not requested; Dynamo not in the recipe; CRD absent and the recipe"
          + " names no dynamo-platform)",
      "  1  a constraint failed",
      "  2  invalid input, or several DGDs qualify (nothing written)",
      "  3  cluster, deployment or run error (the verdict names the step); the recipe names"
          + " dynamo-platform but the DGD CRD is absent"
    })
public final class ValidateCommand implements Callable<Integer> {
  @Mixin FormatMixin format;
  @Spec CommandSpec spec;

  @Mixin ContextMixin context;

  @Option(
      names = "--recipe",
      paramLabel = "OVERLAY",
      description =
          "AICR recipe overlay with validation.performance (default: built-in constraints).")
  Path recipe;

  @Option(
      names = "--allow-unknown-constraints",
      description =
          "List the recipe's unknown inference-* constraint names as ignored instead of refusing"
              + " them (exit 2): for an overlay newer than benchplan.")
  boolean allowUnknownConstraints;

  @Option(
      names = "--dgd",
      paramLabel = "NAME|NS/NAME",
      description = "The DGD to benchmark when several qualify.")
  String dgd;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description = "Discover DGDs only in this namespace.")
  String namespace;

  @Option(
      names = "--model",
      paramLabel = "MODEL",
      description =
          "Model to deploy (default "
              + ValidateOptions.DEFAULT_MODEL
              + "); with an existing DGD it"
              + " must be what the DGD serves.")
  String model;

  @Option(
      names = "--node-selector",
      paramLabel = "KEY=VALUE",
      description = "Only nodes with this label host the default deployment (repeatable).")
  Map<String, String> nodeSelector = new LinkedHashMap<>();

  @Option(
      names = "--concurrency-per-worker",
      paramLabel = "N",
      converter = NumericOptions.Concurrency.class,
      description =
          "Concurrency per worker replica, "
              + NumericOptions.Concurrency.RANGE
              + " (default: 16; excludes --concurrency-per-gpu).")
  Integer concurrencyPerWorker;

  @Option(
      names = "--concurrency-per-gpu",
      paramLabel = "N",
      converter = NumericOptions.Concurrency.class,
      description =
          "Concurrency per GPU, "
              + NumericOptions.Concurrency.RANGE
              + " (AICR's inference-concurrency-per-gpu; --defaults aicr: 256).")
  Integer concurrencyPerGpu;

  @Option(
      names = "--routing-mode",
      paramLabel = "MODE",
      description = "Frontend routing: dynamo-router (default; gateway-epp is not supported yet).")
  String routingMode;

  @Option(
      names = "--model-cache-storage-class",
      paramLabel = "CLASS",
      description =
          "StorageClass of the model-weights cache PVC (default: the recipe's"
              + " inference-model-cache-storage-class, then BENCHPLAN_VALIDATE_MODEL_CACHE_STORAGE_CLASS, else the"
              + " cluster's default class).")
  String modelCacheStorageClass;

  @Option(
      names = "--defaults",
      paramLabel = "SET",
      defaultValue = "benchplan",
      description =
          "Built-in defaults: benchplan (Qwen/Qwen3-0.6B, 16 per worker) or aicr (Qwen/Qwen3-8B,"
              + " 256 per GPU) (default: ${DEFAULT-VALUE}).")
  String defaults;

  @Option(
      names = "--isl",
      paramLabel = "TOKENS",
      defaultValue = "128",
      converter = NumericOptions.Tokens.class,
      description =
          "Input tokens, " + NumericOptions.Tokens.RANGE + " (default: ${DEFAULT-VALUE}).")
  int isl;

  @Option(
      names = "--osl",
      paramLabel = "TOKENS",
      defaultValue = "128",
      converter = NumericOptions.Tokens.class,
      description =
          "Output tokens, " + NumericOptions.Tokens.RANGE + " (default: ${DEFAULT-VALUE}).")
  int osl;

  @Option(
      names = "--repeats",
      paramLabel = "N",
      defaultValue = "1",
      converter = NumericOptions.Repeats.class,
      description =
          "Measure N times ("
              + NumericOptions.Repeats.RANGE
              + "; one AIPerf Job per repeat, each within the pod-log bound) and gate on"
              + " the median of each gated metric; every repeat is listed, and repeats that disagree on a gate are"
              + " flagged unstable (default: ${DEFAULT-VALUE}).")
  int repeats;

  @Option(names = "--keep", description = "Keep what validate created (no cleanup).")
  boolean keep;

  @Option(
      names = "--report-dir",
      paramLabel = "DIR",
      defaultValue = "validate-report",
      converter = DirectoryConverter.class,
      description =
          "Where verdict.json, ctrf-report.json, junit.xml, the plan and the run record go"
              + " (default: ${DEFAULT-VALUE}).")
  Path reportDir;

  @Option(
      names = "--aiperf-version",
      paramLabel = "X.Y.Z",
      description =
          "Pin the AIPerf version (default: resolved from the package index, as plan does).")
  String aiperfVersion;

  @Option(
      names = "--aiperf-index-url",
      paramLabel = "URL",
      hidden = true,
      description = "The package index JSON URL for AIPerf version resolution.")
  String aiperfIndexUrl;

  @Option(
      names = "--runtime-image",
      paramLabel = "IMAGE",
      description =
          "Dynamo vLLM runtime image of the default deployment (default: the Dynamo platform"
              + " version's, from the recipe's componentRefs or the cluster's operator, else "
              + ValidateOptions.DEFAULT_RUNTIME_IMAGE
              + ").")
  String runtimeImage;

  @Option(
      names = "--hf-token-secret",
      paramLabel = "SECRET",
      description = "Secret (name) with a Hugging Face token for the default deployment's workers.")
  String hfTokenSecret;

  @Option(
      names = "--no-model-cache",
      negatable = false,
      description =
          "Do not cache the model weights on a PVC for the default deployment (workers then"
              + " download them themselves).")
  boolean noModelCache;

  @Option(
      names = "--model-cache-size",
      paramLabel = "QUANTITY",
      defaultValue = ValidateOptions.DEFAULT_MODEL_CACHE_SIZE,
      description =
          "Size of the model-cache PVC, a Kubernetes quantity (default: ${DEFAULT-VALUE}).")
  String modelCacheSize;

  @Option(
      names = "--timeout-old-namespace",
      paramLabel = "DURATION",
      defaultValue = "5m",
      converter = DurationConverter.class,
      description = "Wait for an earlier validate namespace to go (default: ${DEFAULT-VALUE}).")
  Duration timeoutOldNamespace;

  @Option(
      names = "--timeout-dgd-ready",
      paramLabel = "DURATION",
      defaultValue = "10m",
      converter = DurationConverter.class,
      description = "Wait for the default DGD to be ready (default: ${DEFAULT-VALUE}).")
  Duration timeoutDgdReady;

  @Option(
      names = "--timeout-endpoint-ready",
      paramLabel = "DURATION",
      defaultValue = "5m",
      converter = DurationConverter.class,
      description = "Wait for the frontend to serve the model (default: ${DEFAULT-VALUE}).")
  Duration timeoutEndpointReady;

  @Option(
      names = "--timeout-pod-scheduling",
      paramLabel = "DURATION",
      defaultValue = "5m",
      converter = DurationConverter.class,
      description = "Wait for the AIPerf pod to be scheduled (default: ${DEFAULT-VALUE}).")
  Duration timeoutPodScheduling;

  @Option(
      names = "--timeout-job",
      paramLabel = "DURATION",
      defaultValue = "15m",
      converter = DurationConverter.class,
      description = "Bound of the AIPerf Job (default: ${DEFAULT-VALUE}).")
  Duration timeoutJob;

  @Option(
      names = "--timeout-ready-request",
      paramLabel = "SECONDS",
      defaultValue = "120",
      converter = NumericOptions.RequestTimeoutSeconds.class,
      description =
          "Bound of each readiness request of the AIPerf Job (model list, first chat"
              + " completion), inside --timeout-endpoint-ready ("
              + NumericOptions.RequestTimeoutSeconds.RANGE
              + " s, or e.g. 2m; default: ${DEFAULT-VALUE})."
              + " A fresh worker's first completion can take ~45 s and starts over when cut off.")
  int timeoutReadyRequest;

  @Option(
      names = "--timeout-model-cache",
      paramLabel = "DURATION",
      defaultValue = "13m",
      converter = DurationConverter.class,
      description =
          "Bound of the Job that downloads the model into the cache (default: ${DEFAULT-VALUE}).")
  Duration timeoutModelCache;

  @Option(
      names = "--timeout-cleanup",
      paramLabel = "DURATION",
      defaultValue = "5m",
      converter = DurationConverter.class,
      description = "Wait for each deleted object to be gone (default: ${DEFAULT-VALUE}).")
  Duration timeoutCleanup;

  @Override
  public Integer call() throws Exception {
    InputFlags.Defaults set =
        switch (defaults) {
          case "benchplan" -> InputFlags.Defaults.BENCHPLAN;
          case "aicr" -> InputFlags.Defaults.AICR;
          default ->
              throw BenchplanException.invalid(
                  ErrorLocation.option("--defaults"),
                  "option --defaults: expected benchplan or aicr, got '" + defaults + "'");
        };
    var parsed = spec.commandLine().getParseResult();
    InputFlags flags =
        new InputFlags(
            concurrencyPerGpu,
            concurrencyPerWorker != null,
            parsed.hasMatchedOption("--isl"),
            parsed.hasMatchedOption("--osl"),
            routingMode,
            modelCacheStorageClass,
            set,
            System.getenv());
    ValidateOptions options =
        ValidateOptions.builder(reportDir)
            .kubeContext(context.context())
            .recipe(recipe)
            .allowUnknownConstraints(allowUnknownConstraints)
            .dgd(dgd)
            .namespace(namespace)
            .model(model)
            .nodeSelector(nodeSelector)
            .concurrencyPerWorker(
                concurrencyPerWorker == null
                    ? ValidateInputs.DEFAULT_CONCURRENCY_PER_WORKER
                    : concurrencyPerWorker)
            .isl(isl)
            .osl(osl)
            .keep(keep)
            .aiperfVersion(aiperfVersion)
            .aiperfIndexUrl(aiperfIndexUrl)
            .runtimeImage(runtimeImage)
            .hfTokenSecret(hfTokenSecret)
            .timeouts(
                new ValidateTimeouts(
                    timeoutOldNamespace,
                    timeoutDgdReady,
                    timeoutEndpointReady,
                    timeoutPodScheduling,
                    timeoutJob,
                    timeoutCleanup,
                    Duration.ofSeconds(timeoutReadyRequest),
                    timeoutModelCache))
            .repeats(repeats)
            .flags(flags)
            // the StorageClass flag reaches the inputs through the flags (ValidateInputs)
            .modelCache(!noModelCache, modelCacheSize, null)
            .build();
    PrintWriter err = spec.commandLine().getErr();
    String version = new VersionProvider().getVersion()[0];
    ValidateResult result =
        dev.benchplan.kube.validate.ValidateFactory.service(err, version).execute(options);
    if (result.verdict().equals("invalid")) {
      // nothing was written: an invalid-input error like any other command's (the service said why
      // on stderr)
      if (format.json()) {
        Printer.printError(
            spec.commandLine().getOut(),
            ErrorReport.of(
                ErrorReport.INVALID_INPUT,
                result.exitCode(),
                Objects.requireNonNullElse(result.verdictDocument().reason(), "invalid input"),
                ErrorLocation.NONE));
      }
      return result.exitCode();
    }
    return Printer.print(spec.commandLine(), format, new Output(result), result.exitCode());
  }

  /** The result of {@code validate}: in JSON, the verdict document. */
  record Output(ValidateResult result) implements CommandOutput {
    @JsonValue
    ValidateVerdict json() {
      return result.verdictDocument();
    }

    @Override
    public void printText(PrintWriter out) {
      ValidateText.lines(result.verdictDocument()).forEach(out::println);
    }
  }
}
