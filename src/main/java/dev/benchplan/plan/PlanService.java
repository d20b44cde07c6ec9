package dev.benchplan.plan;

import dev.benchplan.aiperf.config.EndpointType;
import dev.benchplan.aiperf.version.AiperfVersionResolver;
import dev.benchplan.aiperf.version.VersionRequest;
import dev.benchplan.aiperf.version.VersionResolution;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.DeploymentLedgerReader;
import dev.benchplan.workload.DeploymentRecord;
import dev.benchplan.workload.GpuAllocation;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.MetricCatalog;
import dev.benchplan.workload.Slo;
import dev.benchplan.workload.SmokeEvidence;
import dev.benchplan.workload.SourceSelection;
import dev.benchplan.workload.TraceInspector;
import dev.benchplan.workload.UserWorkload;
import dev.benchplan.workload.UserWorkloadReader;
import dev.benchplan.workload.WorkloadSource;
import dev.benchplan.workload.WorkloadSourceSelector;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds a series plan from a {@link PlanRequest} and writes it once, or reuses an existing series.
 * Every decision is recorded in {@code rules_applied} with its rule file; every violated rule is a
 * blocker, and a blocked request writes nothing.
 */
public final class PlanService {
  /** Tokens per hash block in Mooncake traces. */
  static final int TRACE_BLOCK_SIZE = 512;

  /**
   * Reads the workload and ledger files (YAML or JSON; relative paths inside them resolve against
   * their own folders), then plans. Unreadable files are blockers WORKLOAD_UNREADABLE and
   * LEDGER_UNREADABLE.
   *
   * @throws PlanBlockedException (exit 2) with every blocker found; nothing was written
   */
  public PlanResult planFiles(
      Path workloadFile,
      Path ledgerFile,
      Question question,
      PlanOptions options,
      java.time.Clock clock,
      dev.benchplan.aiperf.version.IndexFetcher fetcher,
      TraceInspector inspector) {
    RuleLog log = new RuleLog();
    InputDocument workload =
        readDocument(workloadFile, "user workload", BlockerCode.WORKLOAD_UNREADABLE, log);
    InputDocument ledger =
        readDocument(ledgerFile, "deployment ledger", BlockerCode.LEDGER_UNREADABLE, log);
    stopIfBlocked(log);
    return plan(
        new PlanRequest(workload, ledger, null, question, options, clock, fetcher, inspector));
  }

  private static @Nullable InputDocument readDocument(
      Path file, String what, BlockerCode code, RuleLog log) {
    try {
      return InputDocument.read(file, what);
    } catch (BenchplanException e) {
      log.block(code, e.getMessage());
      return null;
    }
  }

  /**
   * Plans.
   *
   * @return the written (or reused) plan
   * @throws PlanBlockedException (exit 2) with every blocker found; nothing was written
   */
  public PlanResult plan(PlanRequest request) {
    return plan(request, true);
  }

  /**
   * Derives the plan a request gives without writing or reusing anything, and without the "already
   * exists" check: what {@code verify} compares a written plan against.
   *
   * @return the plan's exact bytes
   * @throws PlanBlockedException (exit 2) with every blocker found
   */
  public byte[] derive(PlanRequest request) {
    PlanResult r = plan(request, false);
    return CanonicalJson.bytes(PlanJson.tree(r.plan()));
  }

  private PlanResult plan(PlanRequest asked, boolean write) {
    // one instant, in the whole seconds created_at records: verify re-derives on a clock fixed at
    // created_at, so a sub-second clock gave the smoke artifact another age (3 s planned, 2 s
    // re-derived)
    PlanRequest request = asked.atWholeSecond();
    RuleLog log = new RuleLog();
    PlanOptions o = request.options();
    Question q = request.question();
    checkQuestion(q, o, log);
    FreeTextSecrets.check(q, o, log);
    o.checkRanges(log);
    // required here: the reader dereferences it
    Optional<UserWorkload> workload =
        UserWorkloadReader.read(Objects.requireNonNull(request.workload()), log);
    Optional<DeploymentRecord> deployment =
        request.deployment() != null
            ? Optional.of(request.deployment())
            : DeploymentLedgerReader.read(
                Objects.requireNonNull(request.ledger()), log); // one of the two is given
    SeriesStore.ExistingPlan existing =
        o.reuse() == null || !write ? null : SeriesStore.loadForReuse(o.reuse(), log).orElse(null);
    // in the order planning reaches them; each runs early when planning stops before it
    IndependentChecks independent =
        new IndependentChecks()
            .add(l -> deployment.ifPresent(d -> smokeProvenance(request, d, l)))
            .add(l -> seriesIdTaken(o, existing, write, l))
            .add(l -> workload.ifPresent(w -> TraceReplayChecks.errorRateLimit(w, l)))
            .add(
                l -> {
                  if (o.repeatDecision() != null) {
                    RepeatDecisionFile.read(o.repeatDecision(), l);
                  }
                })
            .add(l -> aiperf(request, existing, l));
    stopIfBlocked(log, independent);
    UserWorkload w = workload.orElseThrow();
    DeploymentRecord d = deployment.orElseThrow();
    recordInputs(w, d, o.expRoot(), log);
    SmokeEvidence.Provenance smokeProvenance = smokeProvenance(request, d, log);
    seriesIdTaken(o, existing, write, log);
    independent.reached(2);

    boolean gridDeclared = o.maxConcurrency() != null || o.maxRequestRate() != null;
    Optional<SourceSelection> selected =
        WorkloadSourceSelector.select(w, o.trace(), gridDeclared, d, log);
    stopIfBlocked(log, independent);
    SourceSelection selection = selected.orElseThrow(); // no selection means a blocker was logged
    BenchmarkPlan.Trace traceReport = null;
    TraceFacts facts = null;
    if (selection.source() == WorkloadSource.user_trace) {
      traceReport =
          inspectTrace(request.traceInspector(), selection, d, o.traceWindow(), o.expRoot(), log);
      stopIfBlocked(log, independent);
      facts =
          TraceFacts.of(
              Objects.requireNonNull(traceReport)); // no report means a blocker, stopped above
    } else if (o.traceWindow() != null) {
      log.block(
          BlockerCode.TRACE_WINDOW_INVALID,
          "--trace-window "
              + o.traceWindow()
              + " needs a user trace; the workload source is "
              + selection.source());
    }
    boolean latencySlos = w.slos().stream().anyMatch(Slo::isLatencyBound);
    Optional<ExperimentPlanner.Result> experiment =
        ExperimentPlanner.plan(
            new ExperimentPlanner.Inputs(selection, w, d, o, facts, latencySlos), log);
    BenchmarkPlan.Endpoint endpoint = endpoint(o, w.slos(), log);
    BenchmarkPlan.Objectives objectives = ObjectivePlanner.plan(w.slos(), d.gpuTotal(), log);
    BigDecimal errorRateLimit = TraceReplayChecks.errorRateLimit(w, log);
    if (facts != null) {
      TraceReplayChecks.check(facts, o.traceWindow(), d.maxContextLength(), errorRateLimit, log);
    }
    List<BenchmarkPlan.SampleBasis> samples =
        experiment.isEmpty()
            ? List.of()
            : ObjectivePlanner.samples(
                objectives.gates(),
                experiment.get().experiment().expectedMeasuredRequests(),
                sampleBasis(experiment.get()),
                log);
    String seriesLabel =
        existing != null
            ? existing.seriesId()
            : o.seriesId() != null ? o.seriesId() : "this series";
    RepeatDecisionFile.Approved decision =
        o.repeatDecision() == null
            ? null
            : RepeatDecisionFile.read(o.repeatDecision(), log).orElse(null);
    Optional<BenchmarkPlan.RunPolicy> runPolicy =
        RunPolicyPlanner.plan(
            o,
            seriesLabel,
            experiment.map(e -> e.experiment().loadPoints()).orElse(1),
            decision,
            log);
    BenchmarkPlan.Trace replayed = traceReport;
    Optional<BenchmarkPlan.LoadGenerator> loadGenerator =
        experiment.flatMap(
            x ->
                LoadGeneratorPlanner.plan(
                    x.experiment(),
                    replayed,
                    SteadyStateRule.check(
                        new SteadyStateRule.Inputs(
                            x.experiment(),
                            x.synthetic(),
                            d.smoke(),
                            o,
                            w.document().at("/traffic/request_count"),
                            w.document().at("/traffic/duration_s")),
                        log),
                    o.engine(),
                    log));
    Optional<BenchmarkPlan.Aiperf> pinned = aiperf(request, existing, log);
    stopIfBlocked(log);
    BenchmarkPlan.Aiperf aiperf = pinned.orElseThrow(); // empty means a blocker was logged

    recordScope(q, d, existing, log);
    BenchmarkPlan draft =
        BenchmarkPlan.builder()
            .planId("pending")
            .seriesId("pending")
            .createdAt(Instant.now(request.clock()).truncatedTo(ChronoUnit.SECONDS).toString())
            .question(q)
            .userWorkload(userWorkload(w, o.expRoot()))
            .deployment(deployment(d, o.expRoot(), smokeProvenance))
            .workload(workloadSection(selection, traceReport, experiment.get()))
            .experiment(experiment.get().experiment())
            .samples(samples)
            .runPolicy(runPolicy.orElseThrow())
            .endpoint(endpoint)
            .objectives(objectives)
            .aiperf(aiperf)
            .rulesApplied(List.of())
            .warnings(List.of())
            .seriesIdentity(SeriesIdentity.POINTERS)
            .provenance(provenance(o, w, d, traceReport, aiperf, q, objectives, log))
            .loadGenerator(loadGenerator.orElseThrow())
            .build();
    if (decision != null) {
      RepeatDecisionFile.checkSeries(decision, PlanJson.tree(draft), o.expRoot(), log);
      RepeatDecisionFile.checkOnePilotPerLoadPoint(decision, o.expRoot(), log);
      stopIfBlocked(log);
    }
    String seriesId = seriesId(draft, w, o, existing, request, write, log);
    stopIfBlocked(log);
    BenchmarkPlan plan =
        draft.toBuilder()
            .seriesId(seriesId)
            .rulesApplied(log.decisions())
            .warnings(log.warnings())
            .build();
    plan = plan.withPlanId(seriesId + "." + Sha256.hex(PlanJson.canonical(plan)).substring(0, 12));
    ObjectNode tree = PlanJson.tree(plan);
    List<SchemaValidator.Problem> problems =
        SchemaValidator.bundled(SeriesStore.SCHEMA).validate(tree);
    for (SchemaValidator.Problem p : problems) {
      log.block(
          BlockerCode.PLAN_SCHEMA, "the plan does not match " + SeriesStore.SCHEMA + " at " + p);
    }
    stopIfAnyBlocked(log);
    byte[] bytes = CanonicalJson.bytes(tree);

    if (existing != null) {
      return reuse(existing, PlanJson.parse(bytes), d, log);
    }
    Path path = SeriesStore.planPath(o.expRoot(), seriesId);
    if (write && !SeriesStore.create(path, bytes)) {
      blockExists(path, log);
      stopIfBlocked(log);
    }
    return new PlanResult(
        path,
        Sha256.hex(bytes),
        seriesId,
        plan.planId(),
        selection.source().name(),
        aiperf.version(),
        log.warnings(),
        false,
        plan);
  }

  private static BenchmarkPlan.Provenance provenance(
      PlanOptions o,
      UserWorkload w,
      DeploymentRecord d,
      BenchmarkPlan.@Nullable Trace trace,
      BenchmarkPlan.Aiperf aiperf,
      Question q,
      BenchmarkPlan.Objectives objectives,
      RuleLog log) {
    PlanOrigin origin = o.origin() != null ? o.origin() : PlanOrigin.inCode();
    if (objectives.gates().isEmpty()) {
      log.warn(
          RuleFile.EVIDENCE_ELIGIBILITY,
          "the plan has no gates: its runs will verdict skip"
              + " (a run whose error rate is above the limit still fails) and count as"
              + " characterisation only");
    }
    Map<String, String> inputs = new java.util.LinkedHashMap<>();
    inputs.put("/user_workload/sha256", w.document().sha256());
    inputs.put("/deployment/ledger_sha256", d.sourceSha256());
    inputs.put("/deployment/dgd_sha256", d.dgdSha256());
    if (d.smoke() instanceof SmokeEvidence.Artifact a) {
      inputs.put("/deployment/smoke_test/sha256", a.sha256());
    }
    if (trace != null) {
      inputs.put("/workload/trace/sha256", trace.sha256());
    }
    List<BenchmarkPlan.BundledInput> bundled = new java.util.ArrayList<>();
    inputs.forEach(
        (pointer, sha) ->
            BundledExamples.named(sha)
                .ifPresent(name -> bundled.add(new BenchmarkPlan.BundledInput(pointer, name))));
    if (!bundled.isEmpty()) {
      log.warn(
          RuleFile.EVIDENCE_ELIGIBILITY,
          "built on benchplan's bundled example(s) "
              + bundled.stream().map(BenchmarkPlan.BundledInput::example).toList()
              + ": evidence built on an example is not evidence about a deployment");
    }
    boolean revisionPinned = w.modelRevision() != null && !w.modelRevision().isBlank();
    if (!revisionPinned && q.intent() == Intent.comparison) {
      log.warn(
          RuleFile.SERIES_BOUNDARIES,
          "user_workload.model_revision is not pinned: in a"
              + " comparison series the model can change between runs; pin the revision");
    }
    String pinning = aiperf.image().contains("@sha256:") ? "digest" : "tag";
    if (pinning.equals("tag") && o.aiperf().image() != null) {
      log.warn(
          RuleFile.TOOL_VERSION,
          "--aiperf-image "
              + aiperf.image()
              + " is pinned by tag,"
              + " which can be moved; pin it by digest (@sha256:...) — run records the digest the"
              + " pod ran");
    }
    return new BenchmarkPlan.Provenance(
        Map.of(PlanPaths.EXP_ROOT, "../.."),
        origin.tool(),
        origin.clockSource(),
        origin.invocation(),
        List.copyOf(bundled),
        revisionPinned,
        pinning);
  }

  private static void checkQuestion(Question q, PlanOptions o, RuleLog log) {
    if (q.text() == null || q.text().isBlank()) {
      log.block(
          BlockerCode.QUESTION_MISSING,
          "--question: a plan answers a stated" + " performance question; give it in one sentence");
    }
    if (q.intent() == Intent.comparison && q.references().isEmpty()) {
      log.block(
          BlockerCode.COMPARISON_REFERENCE_MISSING,
          "--intent comparison"
              + " needs at least one --reference ID naming the candidate(s) compared against");
    }
    if (o.seriesId() != null && !SeriesIds.valid(o.seriesId())) {
      log.block(
          BlockerCode.SERIES_ID_INVALID,
          "--series-id '"
              + o.seriesId()
              + "': expected [a-z0-9][a-z0-9._-]{0,79} (filesystem-safe, at most 80 characters)");
    }
  }

  /** A path as the plan records it: relative to the experiment root (names stay names). */
  private static String recorded(@Nullable Path expRoot, String location) {
    return expRoot != null && location != null && Path.of(location).isAbsolute()
        ? PlanPaths.relative(expRoot, location)
        : location;
  }

  private static void recordInputs(UserWorkload w, DeploymentRecord d, Path expRoot, RuleLog log) {
    log.decide(
        RuleFile.USER_WORKLOAD,
        "user_workload = "
            + recorded(expRoot, w.document().location())
            + " (sha256 "
            + w.document().sha256()
            + ")",
        "the workload is identified by path and SHA-256 and frozen"
            + " from here on; user values are kept exactly");
    SmokeEvidence smoke = d.smoke();
    if (smoke instanceof SmokeEvidence.Artifact a) {
      log.decide(
          RuleFile.DEPLOYMENT_LEDGER,
          "deployment.smoke_test = " + recorded(expRoot, a.path()),
          "the smoke"
              + " test artifact exists, hashes to the ledger's SHA-256 "
              + a.sha256()
              + " and reports"
              + " success for "
              + a.model());
    } else if (smoke instanceof SmokeEvidence.InClusterReadiness r) {
      log.decide(
          RuleFile.DEPLOYMENT_LEDGER,
          "deployment.smoke_test.kind = in_cluster_readiness",
          r.declaredBy() + ": " + r.description());
    }
    RuleFile rule = RuleFile.USER_WORKLOAD;
    if (w.kubeContext() != null && !w.kubeContext().equals(d.kubeContext())) {
      log.warn(
          rule,
          "the workload names kube context '"
              + w.kubeContext()
              + "', the deployment"
              + " runs in '"
              + d.kubeContext()
              + "'; the plan measures the deployment");
    }
    if (w.namespace() != null && !w.namespace().equals(d.namespace())) {
      log.warn(
          rule,
          "the workload names namespace '"
              + w.namespace()
              + "', the deployment runs"
              + " in '"
              + d.namespace()
              + "'; the plan measures the deployment");
    }
    if (!w.hardware().isEmpty() && !sameGpus(w.hardware(), d.gpus())) {
      log.warn(
          rule,
          "the workload's hardware "
              + gpus(w.hardware())
              + " differs from the"
              + " deployment's GPUs "
              + gpus(d.gpus()));
    }
    if (w.modelSource() != null && !w.modelSource().equalsIgnoreCase(d.servedModel())) {
      log.warn(
          rule,
          "the workload's model '"
              + w.modelSource()
              + "' differs from the served"
              + " model '"
              + d.servedModel()
              + "'");
    }
    if (w.dgdSha256() != null && !w.dgdSha256().equals(d.dgdSha256())) {
      log.warn(
          rule,
          "the deployed DGD (sha256 "
              + d.dgdSha256()
              + ") is not the workload's DGD"
              + " (sha256 "
              + w.dgdSha256()
              + ", origin "
              + w.origin()
              + ")");
    }
  }

  private static boolean sameGpus(List<GpuAllocation> a, List<GpuAllocation> b) {
    Comparator<GpuAllocation> order =
        Comparator.comparing(GpuAllocation::gpuType).thenComparingInt(GpuAllocation::gpuCount);
    return a.stream().sorted(order).toList().equals(b.stream().sorted(order).toList());
  }

  private static String gpus(List<GpuAllocation> g) {
    return g.stream().map(x -> x.gpuCount() + " x " + x.gpuType()).toList().toString();
  }

  private static BenchmarkPlan.@Nullable Trace inspectTrace(
      TraceInspector inspector,
      SourceSelection selection,
      DeploymentRecord d,
      @Nullable TraceWindow window,
      Path expRoot,
      RuleLog log) {
    RuleFile rule = RuleFile.PROXY_WORKLOAD_SELECTION;
    TraceInspector.Inspection inspection;
    Path trace =
        Objects.requireNonNull(selection.trace()); // called for a user_trace source, which names it
    try {
      inspection =
          inspector.inspect(
              trace,
              TRACE_BLOCK_SIZE,
              d.maxContextLength(),
              window == null ? null : window.startMs(),
              window == null ? null : window.endMs());
    } catch (BenchplanException e) {
      log.block(
          BlockerCode.TRACE_MISSING,
          "trace named at " + selection.traceOrigin() + ": " + e.getMessage());
      return null;
    }
    BenchmarkPlan.Trace read = PlanJson.read(inspection.report(), BenchmarkPlan.Trace.class);
    BenchmarkPlan.Trace report =
        new BenchmarkPlan.Trace(
            PlanPaths.relative(expRoot, trace),
            read.sha256(),
            read.bytes(),
            read.rows(),
            read.blankLines(),
            read.timestampMs(),
            read.inputLength(),
            read.outputLength(),
            read.hashIds(),
            read.context(),
            read.window(),
            read.valid(),
            read.problemsTotal(),
            read.problems());
    TraceFacts f = TraceFacts.of(report);
    if (!inspection.valid()) {
      log.block(
          BlockerCode.TRACE_INVALID,
          "trace "
              + selection.trace()
              + " (named at "
              + selection.traceOrigin()
              + "): "
              + f.problemsTotal()
              + " invalid row problem(s), first: "
              + String.join("; ", f.firstProblems())
              + " — fix the trace; rows are never silently"
              + " dropped (`benchplan trace inspect` lists them all)");
      return null;
    }
    log.decide(
        rule,
        "workload.trace = " + report.path() + " (sha256 " + report.sha256() + ")",
        f.rows()
            + " rows, timestamps "
            + f.minMs()
            + ".."
            + f.maxMs()
            + " ms ("
            + ExperimentPlanner.minutes(f.spanMs() == null ? 0 : f.spanMs())
            + "), input_length p50 "
            + orUnknown(report.inputLength().p50())
            + " / p99 "
            + orUnknown(report.inputLength().p99())
            + ", prefix-cache hit rate "
            + orUnknown(report.hashIds().infiniteCacheHitRate())
            + " with "
            + TRACE_BLOCK_SIZE
            + "-token blocks; recorded in full from the trace report");
    return report; // rows over the context: TraceReplayChecks, on the rows replayed
  }

  private static String orUnknown(Object value) {
    return value == null ? "?" : value.toString();
  }

  private static BenchmarkPlan.Endpoint endpoint(PlanOptions o, List<Slo> slos, RuleLog log) {
    EndpointType type = o.endpointType() == null ? EndpointType.chat : o.endpointType();
    boolean streaming = o.streaming() == null || o.streaming();
    RuleFile rule = RuleFile.SERIES_BOUNDARIES;
    if (!streaming) {
      List<String> needing =
          slos.stream().map(Slo::metric).filter(MetricCatalog::needsStreaming).distinct().toList();
      if (!needing.isEmpty()) {
        log.block(
            BlockerCode.STREAMING_REQUIRED,
            "--no-streaming, but the objectives use "
                + needing
                + ", which AIPerf measures only on streamed responses");
      } else if (slos.isEmpty()) {
        log.warn(
            rule,
            "streaming is off: the Pareto view loses time_to_first_token and"
                + " inter_token_latency");
      }
    }
    log.decide(
        rule,
        "endpoint = " + type + " " + type.path() + ", streaming " + streaming,
        (o.endpointType() == null
                ? "chat completions by default"
                : "requested with --endpoint-type")
            + "; "
            + (streaming
                ? "streaming is on: TTFT and ITL exist only on streamed responses"
                : "streaming off as requested"));
    return new BenchmarkPlan.Endpoint(type.name(), type.path(), streaming);
  }

  private static String sampleBasis(ExperimentPlanner.Result r) {
    BenchmarkPlan.Experiment e = r.experiment();
    return switch (e.limitControl()) {
      case "trace_span" ->
          "a fixed-schedule replay measures every one of its " + e.requestCount() + " rows";
      case "duration" ->
          e.measurementMode().equals(MeasurementMode.open_loop.name())
              ? "the lowest rate point x the duration ("
                  + e.durationS()
                  + " s) — an expectation under"
                  + " Poisson arrivals, per load point and run"
              : "a closed-loop run bounded only by its duration";
      default -> "the planned request count per load point and run";
    };
  }

  private Optional<BenchmarkPlan.Aiperf> aiperf(
      PlanRequest request, SeriesStore.@Nullable ExistingPlan existing, RuleLog log) {
    VersionRequest v = request.options().aiperf();
    if (existing != null && v.pinnedVersion() == null && v.referenceRecipe() == null) {
      BenchmarkPlan.Aiperf a =
          PlanJson.read(existing.tree().path("aiperf"), BenchmarkPlan.Aiperf.class);
      log.decide(
          RuleFile.TOOL_VERSION,
          "aiperf.version = " + a.version() + " (the series' version)",
          "one AIPerf version for every run of a series; reusing " + existing.path());
      return Optional.of(a);
    }
    Optional<VersionResolution> r =
        new AiperfVersionResolver(request.indexFetcher(), request.clock()).resolve(v, log);
    if (r.isEmpty()) {
      return Optional.empty();
    }
    VersionResolution res = r.get();
    log.decide(
        RuleFile.TOOL_VERSION,
        "aiperf.image = " + res.image(),
        v.image() != null
            ? "requested with --aiperf-image"
            : "the AIPerf release image of the pinned version");
    return Optional.of(
        new BenchmarkPlan.Aiperf(
            res.version(),
            res.image(),
            new BenchmarkPlan.Resolution(
                res.mechanism(),
                res.query(),
                res.outputSha256(),
                res.versionsSeen(),
                res.excluded().stream()
                    .map(x -> new BenchmarkPlan.ExcludedVersion(x.version(), x.reason()))
                    .toList(),
                res.date(),
                res.sourceCommit(),
                res.note())));
  }

  private static void recordScope(
      Question q, DeploymentRecord d, SeriesStore.@Nullable ExistingPlan existing, RuleLog log) {
    if (q.intent() == Intent.comparison) {
      log.decide(
          RuleFile.SERIES_BOUNDARIES,
          "question.references = " + q.references(),
          existing != null
              ? "a direct comparison inside series " + existing.seriesId()
              : "a new series: every reference must be measured under this plan; no gains or"
                  + " losses are claimed across series");
    } else {
      log.decide(
          RuleFile.SERIES_BOUNDARIES,
          "question.intent = characterization",
          "an absolute characterization of one candidate");
    }
    log.decide(
        RuleFile.BENCHMARK_ISOLATION,
        "endpoint under test = "
            + d.endpointUrl()
            + " (DGD "
            + d.namespace()
            + "/"
            + d.dgdName()
            + ", model "
            + d.servedModel()
            + ")",
        "exactly one"
            + " endpoint is named; exclusive use of it and of its GPUs is checked by the run preflight");
    log.decide(
        RuleFile.EVIDENCE_ELIGIBILITY,
        "evidence = runs executed from this plan file (path +" + " SHA-256)",
        "only runs produced through the canonical AIPerf path from this plan, with"
            + " raw outputs unchanged, may support a claim in this series");
  }

  private static BenchmarkPlan.UserWorkloadRef userWorkload(UserWorkload w, Path expRoot) {
    return new BenchmarkPlan.UserWorkloadRef(
        recorded(expRoot, w.document().location()),
        w.document().sha256(),
        w.profileName(),
        w.profileType(),
        w.modelSource(),
        w.modelRevision(),
        w.origin());
  }

  /**
   * The plan's deployment section for a candidate: the one mapping from a {@link DeploymentRecord}
   * to {@code /deployment}, used by plan and by render when it binds the candidate of a run (paths
   * as the record holds them; render compares only the non-path fields).
   */
  public static BenchmarkPlan.Deployment deployment(DeploymentRecord d) {
    return deployment(d, null, null);
  }

  private static BenchmarkPlan.Deployment deployment(
      DeploymentRecord d, @Nullable Path expRoot, SmokeEvidence.@Nullable Provenance provenance) {
    BenchmarkPlan.SmokeTest smoke;
    if (d.smoke() instanceof SmokeEvidence.Artifact a) {
      smoke =
          new BenchmarkPlan.SmokeTest(
              a.kind(),
              recorded(expRoot, a.path()),
              a.sha256(),
              true,
              a.model(),
              a.url(),
              a.timestamp(),
              null,
              provenance == null ? null : provenance.ageS(),
              provenance == null ? null : provenance.target());
    } else {
      SmokeEvidence.InClusterReadiness r = (SmokeEvidence.InClusterReadiness) d.smoke();
      Map<String, String> declaration =
          new TreeMap<>(
              Map.of(
                  "declared_by",
                  r.declaredBy(),
                  "description",
                  r.description(),
                  "dgd",
                  d.namespace() + "/" + d.dgdName()));
      smoke =
          new BenchmarkPlan.SmokeTest(
              r.kind(),
              "in-cluster-readiness:" + d.namespace() + "/" + d.dgdName(),
              Sha256.hex(CanonicalJson.bytes(declaration)),
              true,
              d.servedModel(),
              d.endpointUrl(),
              null,
              declaration,
              null,
              null);
    }
    return new BenchmarkPlan.Deployment(
        recorded(expRoot, d.source()),
        d.sourceSha256(),
        d.dgdName(),
        d.kubeContext(),
        d.namespace(),
        recorded(expRoot, d.dgdPath()),
        d.dgdSha256(),
        d.frontendService(),
        d.frontendPort(),
        d.endpointUrl(),
        d.servedModel(),
        d.tokenizer(),
        d.gpus(),
        d.gpuTotal(),
        d.maxContextLength(),
        smoke,
        d.secrets());
  }

  private static BenchmarkPlan.Workload workloadSection(
      SourceSelection s, BenchmarkPlan.@Nullable Trace trace, ExperimentPlanner.Result r) {
    BenchmarkPlan.Proxy proxy = null;
    if (s.recipe() != null) {
      var x = s.recipe();
      proxy =
          new BenchmarkPlan.Proxy(
              x.id(),
              s.rationale(),
              s.mismatches(),
              x.model(),
              x.framework(),
              x.isl(),
              x.osl(),
              x.concurrencyPerGpu(),
              x.recipeGpus(),
              x.origin());
    }
    return new BenchmarkPlan.Workload(
        s.source().name(),
        s.rationale(),
        s.traceOrigin(),
        trace,
        r.synthetic(),
        proxy,
        r.transformations());
  }

  private static String seriesId(
      BenchmarkPlan draft,
      UserWorkload w,
      PlanOptions o,
      SeriesStore.@Nullable ExistingPlan existing,
      PlanRequest request,
      boolean write,
      RuleLog log) {
    RuleFile rule = RuleFile.BENCHMARK_PLAN;
    if (existing != null) {
      return existing.seriesId();
    }
    if (o.seriesId() != null) {
      log.decide(rule, "series_id = " + o.seriesId(), "requested with --series-id");
      return o.seriesId();
    }
    String identity = SeriesIdentity.sha256(PlanJson.tree(draft));
    // re-deriving (verify) writes nothing and meets the very plan it checks: no SERIES_EXISTS then
    Optional<SeriesStore.ExistingPlan> same =
        write ? SeriesStore.findByIdentity(o.expRoot(), identity) : Optional.empty();
    if (same.isPresent()) {
      SeriesStore.ExistingPlan e = same.get();
      log.block(
          BlockerCode.SERIES_EXISTS,
          "series "
              + e.seriesId()
              + " ("
              + e.path()
              + ") already"
              + " asks this question: its frozen fields hash to the same series identity "
              + identity
              + "; continue it with: "
              + reuseCommand(request, o, e)
              + " — or start a new series on"
              + " purpose with --series-id NEW-ID");
      return "pending";
    }
    String id =
        SeriesIds.derive(
            w.profileName(),
            Instant.now(request.clock()).atZone(ZoneOffset.UTC).toLocalDate(),
            identity);
    log.decide(
        rule,
        "series_id = " + id,
        "derived from the profile name, the date and the first"
            + " 8 hex digits of the SHA-256 of the series-identity fields ("
            + identity
            + ")");
    if (write && Files.exists(SeriesStore.planPath(o.expRoot(), id))) {
      blockExists(SeriesStore.planPath(o.expRoot(), id), log);
    }
    return id;
  }

  /** The exact command that continues series {@code e} with this request's inputs. */
  private static String reuseCommand(
      PlanRequest request, PlanOptions o, SeriesStore.ExistingPlan e) {
    StringBuilder b = new StringBuilder("benchplan plan");
    if (request.workload() != null) {
      b.append(" --workload ").append(shellQuote(request.workload().location()));
    }
    if (request.ledger() != null) {
      b.append(" --ledger ").append(shellQuote(request.ledger().location()));
    }
    b.append(" --question ").append(shellQuote(request.question().text()));
    if (request.question().intent() != Intent.characterization) {
      b.append(" --intent ").append(request.question().intent());
      request.question().references().forEach(r -> b.append(" --reference ").append(shellQuote(r)));
    }
    if (o.experiment() != null) {
      b.append(" --experiment ").append(o.experiment());
    }
    if (o.measurementMode() != null) {
      b.append(" --measurement-mode ").append(o.measurementMode());
    }
    if (o.trace() != null) {
      b.append(" --trace ").append(shellQuote(o.trace().toString()));
    }
    if (o.traceWindow() != null) {
      b.append(" --trace-window ").append(o.traceWindow());
    }
    if (o.maxConcurrency() != null) {
      b.append(" --max-concurrency ").append(o.maxConcurrency());
    }
    if (o.maxRequestRate() != null) {
      b.append(" --max-request-rate ").append(o.maxRequestRate().toPlainString());
    }
    if (o.warmupRequests() != null) {
      b.append(" --warmup-requests ").append(o.warmupRequests());
    }
    if (o.seed() != null) {
      b.append(" --seed ").append(o.seed());
    }
    if (o.measurementLimitS() != null) {
      b.append(" --measurement-limit ").append(o.measurementLimitS()).append('s');
    }
    if (o.requestTimeoutS() != null) {
      b.append(" --request-timeout ").append(o.requestTimeoutS()).append('s');
    }
    if (o.endpointType() != null) {
      b.append(" --endpoint-type ").append(o.endpointType());
    }
    if (Boolean.FALSE.equals(o.streaming())) {
      b.append(" --no-streaming");
    }
    if (o.repetitions() != null) {
      b.append(" --repetitions ").append(o.repetitions());
    }
    if (o.repeatRationale() != null) {
      b.append(" --repeat-rationale ").append(shellQuote(o.repeatRationale()));
    }
    if (o.pilot()) {
      b.append(" --pilot");
    }
    if (o.smokeMaxAgeS() != null) {
      b.append(" --smoke-max-age ").append(o.smokeMaxAgeS()).append('s');
    }
    if (o.engine() != null && o.engine() != EngineRequest.AUTO) {
      b.append(" --engine ").append(o.engine().label());
    }
    if (o.allowShortPoints()) {
      b.append(" --allow-short-points");
    }
    b.append(" --exp-root ").append(shellQuote(o.expRoot().toString()));
    b.append(" --reuse-plan ").append(shellQuote(e.path().toString()));
    b.append(" --reuse-sha256 ").append(e.sha256());
    return b.toString();
  }

  private static String shellQuote(String s) {
    return s.matches("[A-Za-z0-9_./:=@%+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }

  private static void blockExists(Path path, RuleLog log) {
    log.block(
        BlockerCode.SERIES_EXISTS,
        "plan "
            + path
            + " already exists; a"
            + " series plan is never overwritten — reuse it with --reuse-plan "
            + path
            + " --reuse-sha256 <its SHA-256>, or choose another --series-id");
  }

  private static PlanResult reuse(
      SeriesStore.ExistingPlan existing, JsonNode candidate, DeploymentRecord d, RuleLog log) {
    List<String> diffs = SeriesIdentity.differences(existing.tree(), candidate);
    if (!diffs.isEmpty()) {
      List<String> described =
          diffs.stream().map(p -> SeriesIdentity.describe(existing.tree(), candidate, p)).toList();
      log.block(
          BlockerCode.SERIES_BOUNDARY,
          "this request differs from series "
              + existing.seriesId()
              + " ("
              + existing.path()
              + ") in "
              + diffs.size()
              + " frozen field(s): "
              + String.join("; ", described)
              + "; plan a new series instead");
      stopIfBlocked(log);
    }
    BenchmarkPlan plan = PlanJson.read(existing.tree(), BenchmarkPlan.class);
    if (!d.sourceSha256().equals(plan.deployment().ledgerSha256())) {
      // the plan is the series' and never changes: the candidate of this run is bound at render
      log.warn(
          RuleFile.SERIES_BOUNDARIES,
          "series "
              + existing.seriesId()
              + " continues with"
              + " candidate "
              + d.namespace()
              + "/"
              + d.dgdName()
              + " at "
              + d.endpointUrl()
              + " (ledger "
              + d.source()
              + "); render it with: benchplan render --plan "
              + existing.path()
              + " --plan-sha256 "
              + existing.sha256()
              + " --ledger "
              + d.source()
              + " --deploy-root DIR — without --ledger, render measures the candidate the plan"
              + " records, "
              + plan.deployment().namespace()
              + "/"
              + plan.deployment().dgdName());
    }
    return new PlanResult(
        existing.path(),
        existing.sha256(),
        existing.seriesId(),
        plan.planId(),
        plan.workload().source(),
        plan.aiperf().version(),
        log.warnings(),
        true,
        plan);
  }

  /**
   * Stops when a blocker leaves later steps without input, after running the independent checks
   * planning has not reached yet (so one call reports them too).
   */
  private static void stopIfBlocked(RuleLog log, IndependentChecks independent) {
    if (log.mustStop()) {
      independent.runInto(log);
      throw new PlanBlockedException(log.blockers());
    }
  }

  /** The smoke artifact's provenance, and SMOKE_STALE when it is too old (an independent check). */
  private static SmokeEvidence.@Nullable Provenance smokeProvenance(
      PlanRequest request, DeploymentRecord d, RuleLog log) {
    PlanOptions o = request.options();
    return d.smoke() instanceof SmokeEvidence.Artifact a
        ? SmokeEvidence.provenance(
            a,
            recorded(o.expRoot(), a.path()),
            Instant.now(request.clock()),
            d.endpointUrl(),
            d.kubeContext(),
            o.smokeMaxAgeS() == null ? SmokeEvidence.DEFAULT_MAX_AGE.toSeconds() : o.smokeMaxAgeS(),
            log)
        : null;
  }

  /** SERIES_EXISTS for a --series-id whose plan file is already there (a new series only). */
  private static void seriesIdTaken(
      PlanOptions o, SeriesStore.@Nullable ExistingPlan existing, boolean write, RuleLog log) {
    if (write
        && existing == null
        && o.seriesId() != null
        && Files.exists(SeriesStore.planPath(o.expRoot(), o.seriesId()))) {
      blockExists(SeriesStore.planPath(o.expRoot(), o.seriesId()), log);
    }
  }

  /** Stops when a blocker leaves later steps without input; independent ones wait for the end. */
  private static void stopIfBlocked(RuleLog log) {
    if (log.mustStop()) {
      throw new PlanBlockedException(log.blockers());
    }
  }

  /** Before anything is written: every blocker found, independent ones included, stops the plan. */
  private static void stopIfAnyBlocked(RuleLog log) {
    if (log.blocked()) {
      throw new PlanBlockedException(log.blockers());
    }
  }
}
