package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.aiperf.config.EndpointType;
import dev.benchplan.aiperf.version.AiperfVersionResolver;
import dev.benchplan.aiperf.version.HttpIndexFetcher;
import dev.benchplan.aiperf.version.VersionRequest;
import dev.benchplan.error.ExitCode;
import dev.benchplan.error.InputErrors;
import dev.benchplan.plan.EngineRequest;
import dev.benchplan.plan.ExperimentType;
import dev.benchplan.plan.Intent;
import dev.benchplan.plan.MeasurementMode;
import dev.benchplan.plan.PlanClock;
import dev.benchplan.plan.PlanOptions;
import dev.benchplan.plan.PlanOrigin;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.plan.PlanResult;
import dev.benchplan.plan.PlanService;
import dev.benchplan.plan.Question;
import dev.benchplan.plan.ReuseRequest;
import dev.benchplan.plan.TraceWindow;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.workload.InputRanges;
import dev.benchplan.workload.ScannerTraceInspector;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code benchplan plan}: write an immutable, SHA-256-addressed series plan from a user workload.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Write an immutable, SHA-256-addressed series plan from a user workload, a deployment ledger"
          + " and a performance question, to <EXP_ROOT>/inputs/benchmark-plans/<series-id>.json.",
      "Every decision is recorded with its rule (agent-docs/rules/); a violated rule is a blocker:"
          + " exit 2, nothing written."
    })
public final class PlanCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin FormatMixin format;

  @Option(
      names = "--workload",
      required = true,
      paramLabel = "FILE",
      description = "The user workload (YAML).")
  Path workload;

  @Option(
      names = "--ledger",
      required = true,
      paramLabel = "FILE",
      description = "The deployment ledger (YAML or JSON) of the deployed, smoke-tested candidate.")
  Path ledger;

  @Option(
      names = "--question",
      required = true,
      paramLabel = "TEXT",
      description = "The performance question this series answers.")
  String question;

  @Option(
      names = "--target-region",
      paramLabel = "TEXT",
      description = "The target operating region, e.g. 'TTFT p99 <= 500 ms at 8-32 users'.")
  String targetRegion;

  @Option(
      names = "--intent",
      defaultValue = "characterization",
      paramLabel = "characterization|comparison",
      description = "Absolute characterization or direct comparison (default: ${DEFAULT-VALUE}).")
  Intent intent;

  @Option(
      names = "--reference",
      paramLabel = "ID",
      description = "A reference candidate of a comparison (repeatable; required for comparison).")
  List<String> references = new ArrayList<>();

  @Option(
      names = "--experiment",
      paramLabel = "trace_fidelity|static_shape|capacity",
      description = "The experiment (default: from the workload source).")
  ExperimentType experiment;

  @Option(
      names = "--measurement-mode",
      paramLabel = "closed_loop|open_loop|fixed_schedule",
      description = "Pick the load axis when the rules would not (default: decided by the rules).")
  MeasurementMode measurementMode;

  @Option(
      names = "--exp-root",
      defaultValue = PlanPaths.DEFAULT_EXP_ROOT,
      paramLabel = "DIR",
      converter = DirectoryConverter.class,
      description = "Experiment root (default: ${DEFAULT-VALUE}).")
  Path expRoot;

  @Option(
      names = "--series-id",
      paramLabel = "ID",
      description = "Series ID [a-z0-9][a-z0-9._-]{0,79} (default: profile name + date + hash).")
  String seriesId;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "A Mooncake-format trace (takes precedence over artifacts.supporting_traces).")
  Path trace;

  @Option(
      names = "--trace-window",
      paramLabel = "START_MS:END_MS",
      description =
          "Replay only this window of the trace (inclusive); recorded as a" + " transformation.")
  String traceWindow;

  @Option(
      names = "--max-concurrency",
      paramLabel = "N",
      converter = NumericOptions.Concurrency.class,
      description =
          "Declared maximum of a powers-of-two concurrency grid ("
              + NumericOptions.Concurrency.RANGE
              + ").")
  Integer maxConcurrency;

  @Option(
      names = "--max-request-rate",
      paramLabel = "RPS",
      converter = NumericOptions.RequestRate.class,
      description =
          "Declared maximum of a powers-of-two request-rate grid ("
              + NumericOptions.RequestRate.RANGE
              + ").")
  BigDecimal maxRequestRate;

  @Option(
      names = "--warmup-requests",
      paramLabel = "N",
      converter = NumericOptions.WarmupRequests.class,
      description = "Warmup requests (" + NumericOptions.WarmupRequests.RANGE + ").")
  Integer warmupRequests;

  @Option(
      names = "--seed",
      paramLabel = "N",
      converter = NumericOptions.Seed.class,
      description = "Random seed, " + NumericOptions.Seed.RANGE + " (default: 100).")
  Long seed;

  @Option(
      names = "--measurement-limit",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Per-run measurement limit, at most "
              + InputRanges.MAX_MEASUREMENT_LIMIT_S / 60
              + "m (default: "
              + InputRanges.MAX_MEASUREMENT_LIMIT_S / 60
              + "m).")
  Duration measurementLimit;

  @Option(
      names = "--smoke-max-age",
      paramLabel = "DURATION",
      converter = NumericOptions.SmokeMaxAge.class,
      description =
          "The oldest smoke-test artifact the plan accepts, "
              + NumericOptions.SmokeMaxAge.RANGE
              + " (default: 72h); older ones block with SMOKE_STALE. Past 1h the plan warns with"
              + " its age.")
  Duration smokeMaxAge;

  @Option(
      names = "--request-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Per-request timeout.")
  Duration requestTimeout;

  @Option(
      names = "--endpoint-type",
      paramLabel = "chat|completions",
      description = "The API called (default: chat).")
  EndpointType endpointType;

  @Option(names = "--no-streaming", description = "Do not stream responses (loses TTFT and ITL).")
  boolean noStreaming;

  @Option(
      names = "--repetitions",
      paramLabel = "N",
      converter = NumericOptions.Repetitions.class,
      description =
          "Measured runs per load point, "
              + NumericOptions.Repetitions.RANGE
              + " (default 1; more needs --repeat-rationale).")
  Integer repetitions;

  @Option(
      names = "--repeat-rationale",
      paramLabel = "TEXT",
      description = "Why another run is necessary for a consequential decision.")
  String repeatRationale;

  @Option(
      names = "--pilot",
      description = "The once-per-series noise-floor pilot: 3 runs of one configuration.")
  boolean pilot;

  @Option(
      names = "--engine",
      paramLabel = "auto|job|aiperf-operator",
      description =
          "How the load is generated: job (one AIPerf pod), aiperf-operator (AIPerf's own"
              + " operator, many pods) or auto (job when one pod drives every point; the default).")
  String engine;

  @Option(
      names = "--allow-short-points",
      description =
          "Accept load points below the steady-state minimum (recorded in the plan;"
              + " analysis marks them not steady state).")
  boolean allowShortPoints;

  @Option(
      names = "--aiperf-version",
      paramLabel = "X.Y.Z",
      description = "Operator pin of the AIPerf version (wins over every other mechanism).")
  String aiperfVersion;

  @Option(
      names = "--reference-recipe",
      paramLabel = "PERF_YAML",
      description = "Reproduce a recipe: use the AIPerf version its perf.yaml pins.")
  Path referenceRecipe;

  @Option(
      names = "--aiperf-index-url",
      paramLabel = "URL",
      description =
          "The package index JSON document for project aiperf (default: $"
              + AiperfVersionResolver.INDEX_URL_ENV
              + ").")
  String indexUrl;

  @Option(
      names = "--aiperf-image",
      paramLabel = "IMAGE",
      description =
          "AIPerf image (default: " + AiperfVersionResolver.IMAGE_REPOSITORY + ":<version>).")
  String aiperfImage;

  @Option(
      names = "--reuse-plan",
      paramLabel = "PATH",
      description = "Reuse this existing series plan (needs --reuse-sha256); writes nothing.")
  Path reusePlan;

  @Option(
      names = "--reuse-sha256",
      paramLabel = "SHA256",
      description = "The SHA-256 the reused plan must hash to.")
  String reuseSha256;

  @Option(
      names = "--repeat-decision",
      paramLabel = "FILE",
      description =
          "An analysis's repeat_decision.json (decision necessary) that pre-authorizes the"
              + " noise-floor pilot of the series it names (needs --repeat-decision-sha256).")
  Path repeatDecision;

  @Option(
      names = "--repeat-decision-sha256",
      paramLabel = "SHA256",
      description = "The SHA-256 the repeat decision file must hash to.")
  String repeatDecisionSha256;

  @Override
  public Integer call() {
    if ((repeatDecision == null) != (repeatDecisionSha256 == null)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--repeat-decision and"
              + " --repeat-decision-sha256 go together: the decision is identified by path and SHA-256");
    }
    if ((reusePlan == null) != (reuseSha256 == null)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--reuse-plan and --reuse-sha256 go together: reuse needs the plan's exact path and SHA-256");
    }
    Map<String, String> env = System.getenv();
    PlanOptions options =
        options(
            env,
            new PlanOrigin(
                PlanOrigin.runningTool(),
                PlanClock.source(env),
                PlanOrigin.plan(
                    RecordedInvocation.of(spec.commandLine().getParseResult(), expRoot))));
    Question q = new Question(question, intent, targetRegion, references);
    PrintWriter err = spec.commandLine().getErr();
    PlanResult result;
    try {
      result =
          new PlanService()
              .planFiles(
                  workload,
                  ledger,
                  q,
                  options,
                  PlanClock.fromEnvironment(env),
                  new HttpIndexFetcher(),
                  new ScannerTraceInspector());
    } catch (PlanBlockedException e) {
      for (Blocker b : e.blockers()) {
        err.println("benchplan: blocker " + b.code() + ": " + b.message());
      }
      err.println("benchplan: " + e.blockers().size() + " blocker(s); nothing written");
      err.flush();
      return Printer.print(
          spec.commandLine(), format, new BlockersOutput(e.blockers()), ExitCode.INVALID);
    }
    return Printer.print(spec.commandLine(), format, Output.of(result), ExitCode.OK);
  }

  /**
   * Re-derives, offline and without writing, the plan a recorded invocation wrote: its paths
   * anchored to {@code expRoot}, the recorded clock and origin; the package index is never asked (a
   * plan resolved through it is re-derived only when its version was pinned).
   *
   * @return the plan's exact bytes
   * @throws PlanBlockedException when the recorded inputs no longer plan
   */
  static byte[] replay(
      List<String> recorded, Path expRoot, java.time.Clock clock, PlanOrigin origin) {
    PlanCommand c = new PlanCommand();
    CommandLine cl = new CommandLine(c);
    cl.parseArgs(RecordedInvocation.anchored(cl, recorded, expRoot).toArray(String[]::new));
    PlanOptions options = c.options(Map.of(), origin);
    Question q = new Question(c.question, c.intent, c.targetRegion, c.references);
    dev.benchplan.plan.PlanRequest request =
        new dev.benchplan.plan.PlanRequest(
            dev.benchplan.workload.InputDocument.read(c.workload, "user workload"),
            dev.benchplan.workload.InputDocument.read(c.ledger, "deployment ledger"),
            null,
            q,
            options,
            clock,
            uri -> {
              throw new java.io.IOException(
                  "verify re-derives offline; the package index is not asked");
            },
            new ScannerTraceInspector());
    return new PlanService().derive(request);
  }

  private PlanOptions options(Map<String, String> env, PlanOrigin origin) {
    return PlanOptions.builder()
        .expRoot(expRoot)
        .seriesId(seriesId)
        .experiment(experiment)
        .measurementMode(measurementMode)
        .trace(trace)
        .traceWindow(traceWindow == null ? null : window(traceWindow))
        .maxConcurrency(maxConcurrency)
        .maxRequestRate(maxRequestRate)
        .warmupRequests(warmupRequests)
        .seed(seed)
        .measurementLimitS(seconds(measurementLimit, "--measurement-limit"))
        .requestTimeoutS(seconds(requestTimeout, "--request-timeout"))
        .endpointType(endpointType)
        .streaming(noStreaming ? Boolean.FALSE : null)
        .repetitions(repetitions)
        .repeatRationale(repeatRationale)
        .pilot(pilot)
        .aiperf(
            new VersionRequest(
                aiperfVersion,
                referenceRecipe,
                indexUri(
                    indexUrl != null ? indexUrl : env.get(AiperfVersionResolver.INDEX_URL_ENV)),
                aiperfImage))
        .reuse(reusePlan == null ? null : new ReuseRequest(reusePlan, reuseSha256))
        .repeatDecision(
            repeatDecision == null
                ? null
                : new dev.benchplan.plan.RepeatDecisionRequest(
                    repeatDecision, repeatDecisionSha256))
        .smokeMaxAgeS(smokeMaxAge == null ? null : smokeMaxAge.toSeconds())
        .origin(origin)
        .allowShortPoints(allowShortPoints)
        .engine(
            engine == null
                ? null
                : EngineRequest.parse(engine)
                    .orElseThrow(
                        () ->
                            new CommandLine.ParameterException(
                                spec.commandLine(),
                                "--engine " + engine + ": expected auto, job or aiperf-operator")))
        .build();
  }

  private TraceWindow window(String text) {
    try {
      return TraceWindow.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--trace-window " + e.getMessage());
    }
  }

  private @Nullable Integer seconds(Duration d, String option) {
    if (d == null) {
      return null;
    }
    if (d.toMillis() % 1000 != 0 || d.toSeconds() > Integer.MAX_VALUE) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), option + " " + d + ": expected whole seconds");
    }
    return (int) d.toSeconds();
  }

  private @Nullable URI indexUri(@Nullable String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return new URI(text.trim());
    } catch (URISyntaxException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--aiperf-index-url '" + text + "': not a URL (" + InputErrors.describe(e) + ")");
    }
  }

  /** The {@code --format json} result. */
  record Output(
      @JsonProperty("plan_path") String planPath,
      @JsonProperty("sha256") String sha256,
      @JsonProperty("series_id") String seriesId,
      @JsonProperty("plan_id") @Nullable String planId,
      @JsonProperty("workload_source") String workloadSource,
      @JsonProperty("aiperf_version") String aiperfVersion,
      @JsonProperty("warnings") List<String> warnings,
      @JsonProperty("reused") boolean reused,
      @JsonProperty("gates") List<GateOutput> gates)
      implements CommandOutput {
    static Output of(PlanResult r) {
      return new Output(
          r.planPath().toString(),
          r.sha256(),
          r.seriesId(),
          r.planId(),
          r.workloadSource(),
          r.aiperfVersion(),
          r.warnings(),
          r.reused(),
          GateOutput.of(r.plan().objectives().gates()));
    }

    @Override
    public void printText(PrintWriter out) {
      out.println((reused ? "reused series plan: " : "plan written: ") + planPath);
      out.println("sha256:          " + sha256);
      out.println("series:          " + seriesId);
      out.println("plan id:         " + planId);
      out.println("workload source: " + workloadSource);
      out.println("aiperf version:  " + aiperfVersion);
      GateOutput.printText(out, gates);
      for (String w : warnings) {
        out.println("warning: " + w);
      }
    }
  }

  /**
   * The {@code --format json} result of a blocked plan (schemas/plan-blockers.schema.json); in
   * text, the blockers go to stderr only.
   */
  record BlockersOutput(@JsonProperty("blockers") List<Blocker> blockers) implements CommandOutput {
    @Override
    public void printText(PrintWriter out) {}
  }
}
