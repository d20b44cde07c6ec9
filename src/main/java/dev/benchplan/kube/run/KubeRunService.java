package dev.benchplan.kube.run;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.AiperfPodLog;
import dev.benchplan.analysis.input.RunDiagnostics;
import dev.benchplan.artifacts.ArtifactChannel;
import dev.benchplan.artifacts.ArtifactChannelException;
import dev.benchplan.artifacts.ArtifactManifest;
import dev.benchplan.diagnostics.AiperfLogWarnings;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.GateOptions;
import dev.benchplan.gate.RunVerdicts;
import dev.benchplan.gate.Verdict;
import dev.benchplan.gate.VerdictSource;
import dev.benchplan.json.Sha256;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.kube.rbac.RbacTargets;
import dev.benchplan.progress.RunProgress;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.MeasuredRuns;
import dev.benchplan.run.PerfYaml;
import dev.benchplan.run.PlanReference;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.run.RunService;
import dev.benchplan.run.ShutdownHooks;
import dev.benchplan.runrecord.RunRecordDocument;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** {@link RunService} against a real (or mock) Kubernetes API server through fabric8. */
final class KubeRunService implements RunService {
  /** Slack on top of the Job's activeDeadlineSeconds before the run gives up itself. */
  static final Duration DEADLINE_MARGIN = Duration.ofSeconds(60);

  /** Bound when the Job has no deadline and no --timeout was given (30 min measurement + start). */
  static final Duration DEFAULT_RUN_BOUND = Duration.ofMinutes(35);

  private final KubeClients clients;
  private final java.util.function.Function<ClusterAccess, PodLogSource> logSources;
  private final ShutdownHooks hooks;
  private final Clock clock;
  private final Settings settings;

  /**
   * How a run paces itself: progress lines every {@code progressEvery}, a bound of {@code
   * cleanupWait} on each deletion, the operator engine's and the artifact collector's settings.
   */
  record Settings(
      Duration progressEvery,
      Duration cleanupWait,
      OperatorRun.Settings operator,
      ArtifactCollector.Settings collector) {
    /** The command's: progress every 10 s, a minute per deletion, the engines' defaults. */
    static final Settings CLI = of(Duration.ofSeconds(10), Duration.ofSeconds(60));

    /** These two bounds with the operator engine's and the artifact collector's defaults. */
    static Settings of(Duration progressEvery, Duration cleanupWait) {
      return new Settings(
          progressEvery,
          cleanupWait,
          OperatorRun.Settings.defaults(),
          ArtifactCollector.Settings.defaults());
    }

    Settings withOperator(OperatorRun.Settings o) {
      return new Settings(progressEvery, cleanupWait, o, collector);
    }

    Settings withCollector(ArtifactCollector.Settings c) {
      return new Settings(progressEvery, cleanupWait, operator, c);
    }
  }

  KubeRunService(
      KubeClients clients,
      java.util.function.Function<ClusterAccess, PodLogSource> logSources,
      ShutdownHooks hooks,
      Clock clock,
      Settings settings) {
    this.clients = clients;
    this.logSources = logSources;
    this.hooks = hooks;
    this.clock = clock;
    this.settings = settings;
  }

  @Override
  public RunOutcome run(RunRequest request, RunProgress sink) {
    if (OperatorRun.applies(request)) {
      // engine aiperf-operator: AIPerfJobs instead of perf.yaml (render decided, from the plan)
      KubernetesClient opened = clients.open(request.context());
      try {
        return new OperatorRun(
                ClusterAccess.of(opened),
                settings.operator(),
                hooks,
                clock,
                settings.progressEvery())
            .run(request, sink);
      } finally {
        clients.release(opened);
      }
    }
    Instant start = clock.instant();
    ProgressReporter progress = new ProgressReporter(sink, clock, start);
    PerfYaml perf = PerfYaml.read(request.perfYaml());
    PlanReference plan = PlanReference.verify(perf);
    // plan's smoke-age rule again, before anything is created in the cluster or on disk
    RunRecordDocument.@org.jspecify.annotations.Nullable SmokeAge smokeAge =
        dev.benchplan.run.RunSmokeAge.check(
            plan.verified(),
            perf.file(),
            request.deployRoot(),
            perf.optionalAnnotation(JobContract.LEDGER),
            perf.optionalAnnotation(JobContract.LEDGER_SHA256),
            request.smokeAge());
    ConstraintSet constraints =
        RunStart.constraints(request, plan.gates(), perf.annotation(JobContract.PLAN_PATH));
    RunDirectory dir = RunStart.directory(request, perf.runId());

    KubernetesClient opened = clients.open(request.context());
    ClusterAccess client = ClusterAccess.of(opened);
    try {
      String namespace = RunStart.namespace(request, perf.namespace(), client.defaultNamespace());
      progress.report("preflight", "namespace " + namespace + ", Job " + perf.jobName());
      boolean onClaim =
          perf.annotation(JobContract.ARTIFACTS) != null
              && perf.annotation(JobContract.ARTIFACTS).startsWith("pvc:");
      RunStart.permissions(
          client,
          RbacTargets.run(namespace, perf.annotation(JobContract.DGD).split("/", 2)[0], onClaim),
          request,
          namespace,
          perf.namespace(),
          progress);
      Preflight.Result pre = Preflight.run(client, perf, namespace, request.replace());
      Cleanup cleanup =
          new Cleanup(
              client, namespace, perf.jobName(), perf.configMapNames(), settings.cleanupWait());
      // a tree past the log bound comes back from the claim through collector pods, removed by
      // cleanup too
      ArtifactCollector collectorPods =
          onClaim
              ? new ArtifactCollector(client, namespace, perf, settings.collector(), progress)
              : null;
      if (collectorPods != null) {
        cleanup.andThen(collectorPods::cleanup);
      }
      try (RunGuard guard =
          RunGuard.register(
              hooks,
              g -> {
                g.interrupt();
                if (!request.keep()) {
                  sink.report(
                      "interrupted",
                      Duration.between(start, clock.instant()),
                      "cleaning up: " + cleanup.run());
                }
                dir.abandon();
              })) {
        if (pre.existingJob() || !pre.existingConfigMaps().isEmpty()) {
          progress.report("replace", String.join("; ", cleanup.deleteExisting()));
        }
        Job created = apply(client, perf, namespace, cleanup);
        Instant applied = clock.instant();
        CollectWarmUp.start();
        progress.report(
            "applied",
            "Job "
                + namespace
                + "/"
                + perf.jobName()
                + " and "
                + perf.configMapNames().size()
                + " ConfigMap(s)");
        try {
          Duration runBound =
              RunStart.bound(request, perf.activeDeadlineSeconds(), DEADLINE_MARGIN);
          PodLogSource logs = logSources.apply(client);
          JobWatch.Result watched =
              new JobWatch(
                      client,
                      namespace,
                      perf.jobName(),
                      created.getMetadata().getUid(),
                      clock,
                      logs,
                      progress,
                      settings.progressEvery())
                  .await(applied, request.scheduleTimeout(), runBound);
          if (guard.interrupted()) {
            throw BenchplanException.runtime(
                "interrupted: Job "
                    + namespace
                    + "/"
                    + perf.jobName()
                    + (request.keep() ? " kept (--keep)" : " and its ConfigMaps deleted")
                    + "; no run directory written");
          }
          progress.report("collecting", watched.completed() ? null : watched.message());
          Pod pod = watched.pod();
          String podName = pod == null ? null : pod.getMetadata().getName();
          String log = null;
          String logProblem = null;
          if (podName != null) {
            try {
              log = logs.fetch(namespace, podName, JobContract.CONTAINER);
            } catch (BenchplanException e) {
              logProblem = e.getMessage();
            }
          }
          Collected c =
              collect(
                  clock,
                  request,
                  perf,
                  plan,
                  constraints,
                  pre,
                  client.contextName() == null ? request.context() : client.contextName(),
                  client.serverUrl(),
                  log,
                  logProblem,
                  "pod " + namespace + "/" + podName + " log",
                  namespace,
                  dir,
                  created,
                  watched,
                  start,
                  applied,
                  collectorPods,
                  smokeAge);
          List<String> cleaned =
              request.keep()
                  ? List.of(
                      "kept Job "
                          + namespace
                          + "/"
                          + perf.jobName()
                          + " and its ConfigMaps (--keep)")
                  : cleanup.run();
          progress.report("done", c.verdict().verdict().json() + " -> " + c.runDir());
          return new RunOutcome(
              perf.runId(),
              c.runDir(),
              c.verdict(),
              c.exitCode(),
              c.exitReason(),
              c.run(),
              cleaned);
        } catch (RuntimeException e) {
          if (!request.keep()) {
            cleanup.run();
          }
          throw e;
        }
      }
    } finally {
      clients.release(opened);
    }
  }

  /** Creates the ConfigMaps and then the Job; on a failure, removes what was created and throws. */
  private Job apply(ClusterAccess client, PerfYaml perf, String namespace, Cleanup cleanup) {
    String current = null;
    try {
      for (ConfigMap read : perf.configMaps()) {
        ConfigMap cm =
            new ConfigMapBuilder(read)
                .editMetadata()
                .withNamespace(namespace)
                .endMetadata()
                .build();
        current = "create ConfigMap " + namespace + "/" + cm.getMetadata().getName();
        client.createConfigMap(KubeCall.RUN_CONFIGMAP_CREATE, namespace, cm);
      }
      Job job =
          new JobBuilder(perf.job()).editMetadata().withNamespace(namespace).endMetadata().build();
      current = "create Job " + namespace + "/" + perf.jobName();
      return client.createJob(KubeCall.RUN_JOB_CREATE, namespace, job);
    } catch (KubernetesClientException e) {
      BenchplanException mapped = ApiErrors.map(current, e);
      cleanup.run(); // never leave half an apply behind
      throw mapped;
    }
  }

  /** What collection produced. */
  record Collected(
      Path runDir, Verdict verdict, int exitCode, String exitReason, RunRecordDocument run) {}

  /**
   * From the Job's log (fetched by {@code run}, or a saved one: {@link LogRecovery}) to the
   * published run directory: the artifact tree, the verdicts, the diagnostics, run.json.
   */
  static Collected collect(
      Clock clock,
      RunRequest request,
      PerfYaml perf,
      PlanReference plan,
      ConstraintSet constraints,
      Preflight.Result pre,
      @Nullable String context,
      @Nullable String server,
      @Nullable String log,
      @Nullable String logProblem,
      String logWhat,
      String namespace,
      RunDirectory dir,
      Job created,
      JobWatch.Result watched,
      Instant start,
      Instant applied,
      @org.jspecify.annotations.Nullable ArtifactCollector collectorPods,
      RunRecordDocument.@org.jspecify.annotations.Nullable SmokeAge smokeAge) {
    AiperfPodLog parsed = log == null ? null : AiperfPodLog.parse(log);
    // a plan's error_rate gate (the workload's error_rate_max) is the gate's maximum error rate
    GateOptions options = RunStart.options(request, plan.gates());
    Map<String, byte[]> files = new LinkedHashMap<>();
    Path tree = null;
    ArtifactManifest manifest = null;
    if (log != null && ArtifactChannel.present(log)) {
      // every file AIPerf wrote, verified against the pod's manifest before anything is published
      tree = dir.stageArtifacts();
      try (BufferedReader r = new BufferedReader(new StringReader(log))) {
        manifest = ArtifactChannel.decode(r, tree, logWhat);
      } catch (ArtifactChannelException e) {
        throw dir.keptAside(tree, clock.instant(), e.getMessage(), e);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    } else if (log != null && collectorPods != null && ArtifactChannel.tooLarge(log)) {
      // past the log bound, on the claim: collector pods bring it back through the same verified
      // channel
      ArtifactManifest expected = ArtifactChannel.volumeManifest(log, logWhat);
      tree = dir.stageArtifacts();
      try {
        manifest = collectorPods.collect(tree, expected);
      } catch (BenchplanException e) {
        throw dir.keptAside(tree, clock.instant(), e.getMessage(), e);
      } finally {
        collectorPods.cleanup();
      }
    }
    MeasuredRuns measured = measuredRuns(perf);
    RunVerdicts perRun = null;
    if (tree != null) {
      // every measured run AIPerf wrote is gated on its own (issue 12)
      try {
        perRun = RunVerdicts.gateTree(tree, Path.of(RunDirectory.AIPERF_DIR), constraints, options);
      } catch (BenchplanException e) {
        perRun = null; // no run in the tree: the verdict below says what is missing
      }
    }
    Verdict verdict;
    AiperfExport export = null;
    String exitReason = watched.reason();
    // verdict.json names its sources relative to the run directory that holds it (issue 14)
    String logPath = "pod.log";
    String logSha = log == null ? null : Sha256.hex(log.getBytes(StandardCharsets.UTF_8));
    boolean several = measured != null && measured.count() > 1;
    if (watched.completed() && measured != null && several && perRun != null) {
      int found = perRun.runs().size();
      if (found != measured.count()) {
        exitReason = "no-summary";
        verdict =
            GateEvaluator.runFailed(
                    "the Job planned "
                        + measured.count()
                        + " measured run(s) ("
                        + measured.points().size()
                        + " load point(s) x "
                        + measured.repetitions()
                        + " repetition(s), "
                        + measured.mechanism()
                        + "), AIPerf's tree holds "
                        + found,
                    constraints,
                    options,
                    VerdictSource.withoutExport(RunDirectory.AIPERF_DIR, null))
                .withRuns(perRun);
      } else {
        verdict = perRun.overall(RunDirectory.AIPERF_DIR);
      }
    } else if (watched.completed() && parsed != null && parsed.succeeded()) {
      try {
        export =
            AiperfExportReader.parse(parsed.summaryBytes(), Path.of("profile_export_aiperf.json"));
        verdict = GateEvaluator.evaluate(export, constraints, options);
        if (perRun != null) {
          verdict = verdict.withRuns(perRun);
        }
      } catch (BenchplanException e) {
        exitReason = "bad-summary";
        verdict =
            GateEvaluator.runFailed(
                "the AIPerf summary in the pod log is unusable: " + e.getMessage(),
                constraints,
                options,
                VerdictSource.withoutExport(logPath, logSha));
      }
    } else {
      String why;
      if (watched.completed()) {
        exitReason =
            parsed == null
                ? "no-log"
                : parsed.exitCode() != null && parsed.exitCode() != 0
                    ? "aiperf-failed"
                    : "no-summary";
        why =
            parsed == null
                ? "the pod log could not be read: " + logProblem
                : parsed.exitCode() != null && parsed.exitCode() != 0
                    ? "AIPerf exited "
                        + parsed.exitCode()
                        + (parsed.summary() == null ? " (" + parsed.summaryProblem() + ")" : "")
                    : parsed.summaryProblem()
                        + (parsed.exitCode() == null ? "; no AIPerf exit line either" : "");
      } else {
        why = watched.message();
      }
      if (parsed != null && !parsed.tail().isBlank()) {
        why += "; log tail:\n" + parsed.tail();
      }
      verdict =
          GateEvaluator.runFailed(
              why, constraints, options, VerdictSource.withoutExport(logPath, logSha));
    }
    int exitCode = verdict.exitCode();
    Instant collectedAt = clock.instant();

    if (tree != null) {
      // the per-request records and AIPerf's log: a suspected stalled worker is reported, a
      // client-bound
      // run makes the verdict an error (issues 17, 18)
      verdict =
          GateEvaluator.withFindings(
              verdict,
              RunDiagnostics.diagnoseAll(
                      tree, log == null ? AiperfLogWarnings.absent() : AiperfLogWarnings.parse(log))
                  .findings());
      exitCode = verdict.exitCode();
    }
    if (log != null) {
      files.put("pod.log", log.getBytes(StandardCharsets.UTF_8));
    }
    if (parsed != null && parsed.summary() != null) {
      files.put("profile_export_aiperf.json", parsed.summaryBytes());
    }
    String exitReasonFinal = exitReason;
    Verdict verdictFinal = verdict;
    int exitCodeFinal = exitCode;
    AiperfExport exportFinal = export;
    RunVerdicts perRunFinal = perRun;
    String synthetic = tree == null ? null : dev.benchplan.artifacts.SyntheticMarker.label(tree);
    RunFinisher.Finished done =
        RunFinisher.finish(
            new RunFinisher.Finish(
                dir,
                tree,
                manifest,
                files,
                verdict,
                start,
                collectedAt,
                request.replace(),
                clock.instant()),
            all ->
                RunRecord.build(
                    new RunRecord.Facts(
                        request,
                        perf,
                        plan,
                        context,
                        server,
                        namespace,
                        created,
                        watched,
                        pre,
                        exportFinal,
                        parsed,
                        verdictFinal,
                        exitReasonFinal,
                        exitCodeFinal,
                        start,
                        applied,
                        collectedAt,
                        all,
                        measured,
                        perRunFinal,
                        synthetic,
                        smokeAge)));
    return new Collected(done.runDir(), verdict, exitCode, exitReason, done.record());
  }

  /** The Job's measured-runs annotation, or null when it has none (or an unreadable one). */
  static @Nullable MeasuredRuns measuredRuns(PerfYaml perf) {
    String json = perf.optionalAnnotation(JobContract.MEASURED_RUNS);
    if (json == null) {
      return null;
    }
    try {
      return MeasuredRuns.parse(json);
    } catch (RuntimeException e) {
      return null;
    }
  }

  static @Nullable String podNode(@Nullable Pod pod) {
    return pod == null || pod.getSpec() == null ? null : pod.getSpec().getNodeName();
  }

  static @Nullable Instant scheduledAt(@Nullable Pod pod) {
    if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition c : pod.getStatus().getConditions()) {
      if ("PodScheduled".equals(c.getType())
          && "True".equals(c.getStatus())
          && c.getLastTransitionTime() != null) {
        return parseTime(c.getLastTransitionTime());
      }
    }
    return null;
  }

  static @Nullable Instant parseTime(String s) {
    try {
      return s == null ? null : Instant.parse(s);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  static List<String> conditions(Job job) {
    List<String> out = new ArrayList<>();
    if (job == null || job.getStatus() == null || job.getStatus().getConditions() == null) {
      return out;
    }
    for (JobCondition c : job.getStatus().getConditions()) {
      out.add(
          c.getType()
              + "="
              + c.getStatus()
              + (c.getReason() == null ? "" : " (" + c.getReason() + ")"));
    }
    return out;
  }

  static @Nullable ContainerStatus aiperfStatus(@Nullable Pod pod) {
    return JobWatch.containerStatus(pod);
  }
}
