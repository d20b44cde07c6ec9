package dev.benchplan.plan;

import dev.benchplan.aiperf.config.EndpointType;
import dev.benchplan.aiperf.version.VersionRequest;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.InputRanges;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything a caller may choose beyond the workload and the deployment; null means "let the rules
 * decide". Build with {@link #builder()}.
 *
 * @param expRoot the experiment root; plans go to {@code <expRoot>/inputs/benchmark-plans/}
 * @param seriesId an explicit series ID, or null to derive one
 * @param experiment trace_fidelity, static_shape or capacity, or null for the source's default
 * @param measurementMode closed_loop or open_loop to pick the load axis, or null
 * @param trace a trace named on the command line, or null
 * @param traceWindow an explicit replay window, or null
 * @param maxConcurrency declared maximum of a powers-of-two concurrency grid, or null
 * @param maxRequestRate declared maximum of a powers-of-two request-rate grid, or null
 * @param warmupRequests warmup requests, or null for the default
 * @param seed random seed, or null for the default
 * @param measurementLimitS per-run measurement limit in seconds (at most 1800), or null for 1800
 * @param requestTimeoutS per-request timeout in seconds, or null for the default
 * @param endpointType chat or completions, or null for chat
 * @param streaming false to disable streaming, or null (on)
 * @param repetitions measured runs per load point, or null for 1
 * @param repeatRationale why more than one run is necessary, or null
 * @param pilot true for the pre-authorized once-per-series noise-floor pilot (n = 3)
 * @param aiperf how to find the AIPerf version
 * @param reuse an existing series plan to reuse, or null for a new series
 * @param smokeMaxAgeS the oldest smoke-test artifact a plan accepts, in seconds, or null for {@link
 *     dev.benchplan.workload.SmokeEvidence#DEFAULT_MAX_AGE}
 * @param origin what makes the plan (tool, clock source, invocation), or null for one built in code
 * @param allowShortPoints accept load points below the steady-state minimum, recorded as such
 *     (agent-docs/rules/benchmarking/steady-state.md)
 * @param engine the engine asked for with {@code --engine}, or null for {@code auto}
 * @param datasetEntries synthetic prompts to generate (validate: AICR's 100), or null for one per
 *     request
 * @param temperature sampling temperature sent with every request (validate: AICR's 0), or null for
 *     the server's default
 * @param repeatDecision an analysis's repeat decision ({@code repeat_decision.json}, path +
 *     SHA-256) that pre-authorizes the noise-floor pilot of the series it names, or null
 */
public record PlanOptions(
    Path expRoot,
    @Nullable String seriesId,
    @Nullable ExperimentType experiment,
    @Nullable MeasurementMode measurementMode,
    @Nullable Path trace,
    @Nullable TraceWindow traceWindow,
    @Nullable Integer maxConcurrency,
    @Nullable BigDecimal maxRequestRate,
    @Nullable Integer warmupRequests,
    @Nullable Long seed,
    @Nullable Integer measurementLimitS,
    @Nullable Integer requestTimeoutS,
    @Nullable EndpointType endpointType,
    @Nullable Boolean streaming,
    @Nullable Integer repetitions,
    @Nullable String repeatRationale,
    boolean pilot,
    VersionRequest aiperf,
    @Nullable ReuseRequest reuse,
    @Nullable Long smokeMaxAgeS,
    @Nullable PlanOrigin origin,
    boolean allowShortPoints,
    @Nullable EngineRequest engine,
    @Nullable Integer datasetEntries,
    @Nullable BigDecimal temperature,
    @Nullable RepeatDecisionRequest repeatDecision) {
  public PlanOptions {
    Objects.requireNonNull(expRoot, "expRoot");
    Objects.requireNonNull(aiperf, "aiperf");
  }

  /**
   * Blocks (OPTION_OUT_OF_RANGE) every numeric option outside its range ({@link InputRanges}),
   * naming the option, the value and the range. The limit, timeout and repetitions are checked by
   * the rules that use them.
   */
  void checkRanges(RuleLog log) {
    range(
        "--max-concurrency",
        maxConcurrency,
        InputRanges.integer("", 1, InputRanges.MAX_CONCURRENCY),
        log);
    if (maxRequestRate != null) {
      range(
          "--max-request-rate",
          maxRequestRate,
          new InputRanges.Field(
              "", false, InputRanges.MIN_REQUEST_RATE, false, InputRanges.MAX_REQUEST_RATE),
          log);
    }
    range(
        "--warmup-requests",
        warmupRequests,
        InputRanges.integer("", 0, InputRanges.MAX_WARMUP_REQUESTS),
        log);
    range("--seed", seed, InputRanges.integer("", 0, InputRanges.MAX_SEED), log);
    range(
        "--smoke-max-age",
        smokeMaxAgeS,
        InputRanges.integer("", 0, InputRanges.MAX_SMOKE_MAX_AGE_S),
        log);
  }

  private static void range(
      String option, @Nullable Number value, InputRanges.Field f, RuleLog log) {
    if (value == null) {
      return;
    }
    BigDecimal v = value instanceof BigDecimal d ? d : BigDecimal.valueOf(value.longValue());
    if (!f.accepts(v)) {
      log.block(
          BlockerCode.OPTION_OUT_OF_RANGE,
          option + " " + InputRanges.shown(v) + ": out of range, expected " + f.describe());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds {@link PlanOptions}; only the experiment root has a default ({@link
   * PlanPaths#DEFAULT_EXP_ROOT}).
   */
  public static final class Builder {
    private Path expRoot = Path.of(PlanPaths.DEFAULT_EXP_ROOT);
    private @Nullable String seriesId;
    private @Nullable ExperimentType experiment;
    private @Nullable MeasurementMode measurementMode;
    private @Nullable Path trace;
    private @Nullable TraceWindow traceWindow;
    private @Nullable Integer maxConcurrency;
    private @Nullable BigDecimal maxRequestRate;
    private @Nullable Integer warmupRequests;
    private @Nullable Long seed;
    private @Nullable Integer measurementLimitS;
    private @Nullable Integer requestTimeoutS;
    private @Nullable EndpointType endpointType;
    private @Nullable Boolean streaming;
    private @Nullable Integer repetitions;
    private @Nullable String repeatRationale;
    private boolean pilot;
    private VersionRequest aiperf = VersionRequest.none();
    private @Nullable ReuseRequest reuse;
    private @Nullable Long smokeMaxAgeS;
    private @Nullable PlanOrigin origin;
    private boolean allowShortPoints;
    private @Nullable EngineRequest engine;
    private @Nullable Integer datasetEntries;
    private @Nullable BigDecimal temperature;
    private @Nullable RepeatDecisionRequest repeatDecision;

    private Builder() {}

    public Builder repeatDecision(@Nullable RepeatDecisionRequest v) {
      repeatDecision = v;
      return this;
    }

    public Builder allowShortPoints(boolean v) {
      allowShortPoints = v;
      return this;
    }

    public Builder engine(@Nullable EngineRequest v) {
      engine = v;
      return this;
    }

    public Builder expRoot(Path v) {
      expRoot = v;
      return this;
    }

    public Builder seriesId(String v) {
      seriesId = v;
      return this;
    }

    public Builder experiment(ExperimentType v) {
      experiment = v;
      return this;
    }

    public Builder measurementMode(MeasurementMode v) {
      measurementMode = v;
      return this;
    }

    public Builder trace(Path v) {
      trace = v;
      return this;
    }

    public Builder traceWindow(@Nullable TraceWindow v) {
      traceWindow = v;
      return this;
    }

    public Builder maxConcurrency(Integer v) {
      maxConcurrency = v;
      return this;
    }

    public Builder maxRequestRate(BigDecimal v) {
      maxRequestRate = v;
      return this;
    }

    public Builder warmupRequests(Integer v) {
      warmupRequests = v;
      return this;
    }

    public Builder seed(Long v) {
      seed = v;
      return this;
    }

    public Builder measurementLimitS(@Nullable Integer v) {
      measurementLimitS = v;
      return this;
    }

    public Builder requestTimeoutS(@Nullable Integer v) {
      requestTimeoutS = v;
      return this;
    }

    public Builder endpointType(EndpointType v) {
      endpointType = v;
      return this;
    }

    public Builder streaming(@Nullable Boolean v) {
      streaming = v;
      return this;
    }

    public Builder repetitions(@Nullable Integer v) {
      repetitions = v;
      return this;
    }

    public Builder repeatRationale(@Nullable String v) {
      repeatRationale = v;
      return this;
    }

    public Builder pilot(boolean v) {
      pilot = v;
      return this;
    }

    public Builder aiperf(VersionRequest v) {
      aiperf = v;
      return this;
    }

    public Builder reuse(@Nullable ReuseRequest v) {
      reuse = v;
      return this;
    }

    public Builder smokeMaxAgeS(@Nullable Long v) {
      smokeMaxAgeS = v;
      return this;
    }

    public Builder origin(PlanOrigin v) {
      origin = v;
      return this;
    }

    public Builder datasetEntries(Integer v) {
      datasetEntries = v;
      return this;
    }

    public Builder temperature(BigDecimal v) {
      temperature = v;
      return this;
    }

    public PlanOptions build() {
      return new PlanOptions(
          expRoot,
          seriesId,
          experiment,
          measurementMode,
          trace,
          traceWindow,
          maxConcurrency,
          maxRequestRate,
          warmupRequests,
          seed,
          measurementLimitS,
          requestTimeoutS,
          endpointType,
          streaming,
          repetitions,
          repeatRationale,
          pilot,
          aiperf,
          reuse,
          smokeMaxAgeS,
          origin,
          allowShortPoints,
          engine,
          datasetEntries,
          temperature,
          repeatDecision);
    }
  }
}
