package dev.benchplan.kube.run;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.artifacts.ArtifactFile;
import dev.benchplan.artifacts.ArtifactManifest;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.GateOptions;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.kube.rbac.RbacTargets;
import dev.benchplan.progress.RunProgress;
import dev.benchplan.render.AiperfJobContract;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.run.PlanReference;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.run.ShutdownHooks;
import dev.benchplan.runrecord.RunRecordDocument;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code run} of a deploy root rendered for the {@code aiperf-operator} engine: checks that
 * AIPerf's operator is installed (its CRD and JobSet's), applies each AIPerfJob in turn, shows its
 * status, sets {@code spec.cancel} on Ctrl-C or timeout, brings the results back from the
 * operator's results API once its ready marker is listed (through the API server's service proxy:
 * no local port, no pod exec, one {@code services/proxy get} permission in the operator's
 * namespace), checks every file against its listed size, hashes it on arrival, writes the plain
 * Job's {@code runs/<run-id>/aiperf/} + {@code artifacts.sha256} layout, gates, and deletes the
 * AIPerfJobs it created (the operator keeps its own copy of the results for its retention period).
 */
final class OperatorRun {
  /**
   * What the run needs to know about the operator beyond the deploy root (tests point it
   * elsewhere).
   */
  record Settings(List<String> crds, Duration resultsWait, Duration poll, Duration requestTimeout) {
    Settings {
      crds = List.copyOf(crds);
    }

    /** The operator as AIPerf's chart installs it. */
    static Settings defaults() {
      return new Settings(
          List.of(AiperfJobContract.CRD, AiperfJobContract.JOBSET_CRD),
          Duration.ofMinutes(5),
          Duration.ofSeconds(2),
          Duration.ofMinutes(10));
    }
  }

  static final ResourceDefinitionContext AIPERFJOBS =
      ClusterAccess.context(
          AiperfJobContract.GROUP,
          AiperfJobContract.VERSION,
          AiperfJobContract.PLURAL,
          AiperfJobContract.KIND);

  /** Slack on top of the AIPerfJob's own timeout before benchplan cancels it. */
  static final Duration TIMEOUT_MARGIN = Duration.ofSeconds(60);

  static final String TRANSPORT =
      "the API server's service proxy (services/proxy get), no port-forward";

  private final ClusterAccess client;
  private final Settings settings;
  private final ShutdownHooks hooks;
  private final Clock clock;
  private final Duration progressEvery;

  OperatorRun(
      ClusterAccess client,
      Settings settings,
      ShutdownHooks hooks,
      Clock clock,
      Duration progressEvery) {
    this.client = client;
    this.settings = settings;
    this.hooks = hooks;
    this.clock = clock;
    this.progressEvery = progressEvery;
  }

  /** True when {@code request}'s deploy root holds AIPerfJobs (render's engine aiperf-operator). */
  static boolean applies(RunRequest request) {
    return Files.isRegularFile(jobsFile(request)) && !Files.isRegularFile(request.perfYaml());
  }

  static Path jobsFile(RunRequest request) {
    return request.deployRoot().resolve("benchmark").resolve(AiperfJobContract.FILE);
  }

  /** One AIPerfJob as rendered and as it ended. */
  private record Ran(
      String name,
      String uid,
      @Nullable String phase,
      @Nullable Long epoch,
      String directory,
      List<ArtifactFile> files,
      @Nullable JsonNode marker,
      @Nullable AiperfExport export) {
    /** Its tree in the run directory: {@code aiperf} or {@code aiperf/<directory>}. */
    String runDirectoryPath() {
      return RunDirectory.AIPERF_DIR + (directory.isEmpty() ? "" : "/" + directory);
    }
  }

  /** The rendered AIPerfJobs and what run decided from them before touching the cluster. */
  private record Rendered(
      Path file,
      List<ObjectNode> maps,
      List<ObjectNode> jobs,
      String runId,
      PlanReference plan,
      RunRecordDocument.@Nullable Pair pair,
      ConstraintSet constraints,
      GateOptions options,
      RunDirectory dir,
      String namespace,
      Service results,
      String dgd,
      RunRecordDocument.@Nullable SmokeAge smokeAge) {
    JsonNode annotations() {
      return jobs.get(0).at("/metadata/annotations");
    }
  }

  /** What applying and collecting every AIPerfJob brought back, in the staged tree. */
  private record Executed(Path tree, List<Ran> ran, Instant applied) {}

  /** Everything run.json is built from (besides the files beside it). */
  private record Ended(
      RunRequest request,
      Rendered rendered,
      Executed executed,
      Verdict verdict,
      Instant start,
      Instant collected,
      ArtifactManifest manifest) {}

  RunOutcome run(RunRequest request, RunProgress sink) {
    Instant start = clock.instant();
    ProgressReporter progress = new ProgressReporter(sink, clock, start);
    Rendered r = rendered(request);
    preflight(request, r, progress);
    Executed x = execute(request, r, sink, progress, start);
    Verdict verdict = gate(r, x.ran());
    Instant collected = clock.instant();
    ArtifactManifest manifest = manifest(x.ran());
    Map<String, byte[]> files = new LinkedHashMap<>();
    Path single = x.tree().resolve("profile_export_aiperf.json");
    if (x.ran().size() == 1 && Files.isRegularFile(single)) {
      try {
        files.put("profile_export_aiperf.json", Files.readAllBytes(single));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Ended ended = new Ended(request, r, x, verdict, start, collected, manifest);
    RunFinisher.Finished done =
        RunFinisher.finish(
            new RunFinisher.Finish(
                r.dir(),
                x.tree(),
                manifest,
                files,
                verdict,
                start,
                collected,
                request.replace(),
                clock.instant()),
            all -> record(ended, all));
    progress.report("done", verdict.verdict().json() + " -> " + done.runDir());
    return new RunOutcome(
        r.runId(),
        done.runDir(),
        verdict,
        verdict.exitCode(),
        "completed",
        done.record(),
        cleaned(request, r, x.ran()));
  }

  /** Reads the rendered AIPerfJobs, verifies their plan, and decides gates, namespace, results. */
  private Rendered rendered(RunRequest request) {
    Path file = jobsFile(request);
    List<ObjectNode> docs = read(file);
    // a replayed trace's ConfigMap comes first; the AIPerfJobs mount it (or a PVC) in every pod
    List<ObjectNode> maps =
        docs.stream().filter(d -> "ConfigMap".equals(d.path("kind").asString(""))).toList();
    List<ObjectNode> jobs =
        docs.stream().filter(d -> !"ConfigMap".equals(d.path("kind").asString(""))).toList();
    if (jobs.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": holds no AIPerfJob: expected what benchplan render wrote");
    }
    ObjectNode first = jobs.get(0);
    JsonNode annotations = first.at("/metadata/annotations");
    String runId = first.at("/metadata/labels").path(JobContract.RUN_ID).asString("");
    Path benchmark = file.toAbsolutePath().normalize().getParent();
    PlanReference plan =
        PlanReference.verify(
            file,
            benchmark == null || benchmark.getParent() == null ? file : benchmark.getParent(),
            annotations.path(JobContract.PLAN_PATH).asString(null),
            annotations.path(JobContract.PLAN_SHA256).asString(null));
    // plan's smoke-age rule again, before anything is created in the cluster or on disk
    RunRecordDocument.@Nullable SmokeAge smokeAge =
        dev.benchplan.run.RunSmokeAge.check(
            plan.verified(),
            file,
            request.deployRoot(),
            annotations.path(JobContract.LEDGER).asString(null),
            annotations.path(JobContract.LEDGER_SHA256).asString(null),
            request.smokeAge());
    // checked before anything is applied: a bad or split label is the render's input, exit 2
    RunRecordDocument.Pair pair = pair(file, jobs);
    ConstraintSet constraints = RunStart.constraints(request, plan.gates(), plan.path().toString());
    GateOptions options = RunStart.options(request, plan.gates());
    RunDirectory dir = RunStart.directory(request, runId);
    String namespace =
        RunStart.namespace(request, renderedNamespace(first), client.defaultNamespace());
    Service results =
        Service.parse(
            annotations
                .path(AiperfJobContract.RESULTS_SERVICE)
                .asString(AiperfJobContract.DEFAULT_RESULTS_SERVICE),
            file);
    return new Rendered(
        file,
        maps,
        jobs,
        runId,
        plan,
        pair,
        constraints,
        options,
        dir,
        namespace,
        results,
        annotations.path(JobContract.DGD).asString(""),
        smokeAge);
  }

  /**
   * Permissions, the operator's CRDs, and no AIPerfJob or ConfigMap of the same names (deleted
   * under --replace): all before anything is applied.
   */
  private void preflight(RunRequest request, Rendered r, ProgressReporter progress) {
    String namespace = r.namespace();
    progress.report(
        "preflight",
        "namespace "
            + namespace
            + ", "
            + r.jobs().size()
            + " AIPerfJob(s), operator results at "
            + r.results());
    RunStart.permissions(
        client,
        RbacTargets.runOperator(namespace, r.dgd().split("/", 2)[0], r.results().namespace()),
        request,
        namespace,
        renderedNamespace(r.jobs().get(0)),
        progress);
    for (String crd : settings.crds()) {
      boolean there;
      try {
        there = client.crdEstablished(KubeCall.RUN_OPERATOR_CRD_GET, crd);
      } catch (KubernetesClientException e) {
        throw ApiErrors.map("get CustomResourceDefinition " + crd, e);
      }
      if (!there) {
        throw BenchplanException.invalid(
            ErrorLocation.file(r.file()),
            r.file()
                + ": engine "
                + AiperfJobContract.ENGINE
                + " needs AIPerf's operator,"
                + " but the cluster has no established CustomResourceDefinition "
                + crd
                + "; nothing was applied:"
                + " expected AIPerf's operator installed (its Helm chart aiperf-operator, with JobSet), or a plan"
                + " with --engine job");
      }
    }
    for (ObjectNode map : r.maps()) {
      String name = map.at("/metadata/name").asString();
      boolean exists;
      try {
        exists = client.getConfigMap(KubeCall.RUN_CONFIGMAP_GET, namespace, name) != null;
      } catch (KubernetesClientException e) {
        throw ApiErrors.map("get ConfigMap " + namespace + "/" + name, e);
      }
      if (exists) {
        if (!request.replace()) {
          throw alreadyExists(r, "ConfigMap", name);
        }
        deleteMapQuietly(namespace, name);
      }
    }
    for (ObjectNode job : r.jobs()) {
      String name = job.at("/metadata/name").asString();
      if (get(namespace, name) != null) {
        if (!request.replace()) {
          throw alreadyExists(r, "AIPerfJob", name);
        }
        delete(namespace, name);
      }
    }
  }

  private static BenchplanException alreadyExists(Rendered r, String kind, String name) {
    return BenchplanException.invalid(
        ErrorLocation.file(r.file()),
        r.file()
            + ": "
            + kind
            + " "
            + r.namespace()
            + "/"
            + name
            + " already exists;"
            + " nothing was applied: re-render for a new run-id, or use --replace");
  }

  /**
   * Applies the trace ConfigMaps, then each AIPerfJob in turn (watched, collected, deleted), with
   * Ctrl-C cancelling the current one; on any failure the staged tree is removed.
   */
  private Executed execute(
      RunRequest request, Rendered r, RunProgress sink, ProgressReporter progress, Instant start) {
    String namespace = r.namespace();
    AtomicReference<String> current = new AtomicReference<>();
    List<Ran> ran = new ArrayList<>();
    Path tree = null;
    Instant applied = null;
    try (RunGuard guard =
        RunGuard.register(
            hooks,
            g -> {
              // spec.cancel first: once interrupted, the watching thread deletes the AIPerfJob,
              // and a cancel sent after that finds nothing (OperatorRunIT.interruptCancels)
              String name = current.get();
              String cancelled = name == null ? null : cancel(namespace, name);
              g.interrupt();
              if (name != null) {
                sink.report(
                    "interrupted",
                    Duration.between(start, clock.instant()),
                    cancelled + (request.keep() ? "" : "; " + deleteQuietly(namespace, name)));
              }
              if (!request.keep()) {
                r.maps().forEach(m -> deleteMapQuietly(namespace, name(m)));
              }
              r.dir().abandon();
            })) {
      try {
        tree = r.dir().stageArtifacts();
        for (ObjectNode map : r.maps()) {
          applyMap(namespace, map, progress);
        }
        for (int i = 0; i < r.jobs().size(); i++) {
          ObjectNode job = r.jobs().get(i).deepCopy();
          String name = name(job);
          job.withObject("/metadata").put("namespace", namespace);
          GenericKubernetesResource created = create(namespace, name, job);
          current.set(name);
          applied = applied == null ? clock.instant() : applied;
          progress.report(
              "applied",
              "AIPerfJob " + (i + 1) + "/" + r.jobs().size() + " " + namespace + "/" + name);
          try {
            ran.add(watchAndCollect(request, r, job, created, tree, progress, guard));
          } finally {
            if (!request.keep()) {
              deleteQuietly(namespace, name);
            }
            current.set(null);
          }
        }
      } catch (RuntimeException e) {
        if (tree != null) {
          RunDirectory.deleteQuietly(tree.getParent());
        }
        throw e;
      } finally {
        if (!request.keep()) {
          r.maps().forEach(m -> deleteMapQuietly(namespace, name(m)));
        }
      }
    }
    return new Executed(tree, ran, Objects.requireNonNull(applied, "applied"));
  }

  private void applyMap(String namespace, ObjectNode map, ProgressReporter progress) {
    ObjectNode m = map.deepCopy();
    m.withObject("/metadata").put("namespace", namespace);
    String name = m.at("/metadata/name").asString();
    try {
      // the trace ConfigMap is render's byte-stable document: unmarshalled as written, not rebuilt
      client.createConfigMap(
          KubeCall.RUN_CONFIGMAP_CREATE,
          namespace,
          client.unmarshal(
              Json.JSON.writeValueAsString(m), io.fabric8.kubernetes.api.model.ConfigMap.class));
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("create ConfigMap " + namespace + "/" + name, e);
    }
    progress.report(
        "applied",
        "ConfigMap "
            + namespace
            + "/"
            + name
            + " (the replayed trace, SHA-256 "
            + m.at("/metadata/annotations").path(JobContract.TRACE_SHA256).asString("")
            + ")");
  }

  private GenericKubernetesResource create(String namespace, String name, ObjectNode job) {
    try {
      // AIPerfJob is a custom resource with no fabric8 model: created as the generic resource
      return client.createCustom(
          KubeCall.RUN_AIPERFJOB_CREATE,
          AIPERFJOBS,
          namespace,
          client.unmarshal(Json.JSON.writeValueAsString(job), GenericKubernetesResource.class));
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("create AIPerfJob " + namespace + "/" + name, e);
    }
  }

  /** Waits for one AIPerfJob to end, then brings its results into the staged tree. */
  private Ran watchAndCollect(
      RunRequest request,
      Rendered r,
      ObjectNode job,
      GenericKubernetesResource created,
      Path tree,
      ProgressReporter progress,
      RunGuard guard) {
    String namespace = r.namespace();
    String name = name(job);
    Duration bound =
        RunStart.bound(request, job.at("/spec/timeoutSeconds").asLong(0), TIMEOUT_MARGIN);
    GenericKubernetesResource end = await(namespace, name, bound, progress, guard);
    String phase = phase(end);
    String dirName =
        job.at("/metadata/annotations").path(AiperfJobContract.RUN_DIRECTORY).asString("");
    if (!"Completed".equals(phase)) {
      String error = end == null ? null : status(end).path("error").asString(null);
      throw BenchplanException.runtime(
          "AIPerfJob "
              + namespace
              + "/"
              + name
              + " ended "
              + phase
              + (error == null ? "" : ": " + error)
              + "; no run directory written");
    }
    Long epoch =
        status(end).path("runEpoch").isNumber() ? status(end).path("runEpoch").asLong() : null;
    progress.report(
        "collecting", "AIPerfJob " + name + " from the operator's results API (" + TRANSPORT + ")");
    Path target = dirName.isEmpty() ? tree : tree.resolve(dirName);
    Collected c = collect(r.results(), namespace, name, epoch, target, r.dir(), tree);
    AiperfExport export = null;
    Path summary = target.resolve("profile_export_aiperf.json");
    if (Files.isRegularFile(summary)) {
      // named as verdict.json records it: relative to the run directory, not the staging folder
      export =
          AiperfExportReader.read(summary)
              .named(Path.of(RunDirectory.AIPERF_DIR).resolve(tree.relativize(summary).toString()));
    }
    return new Ran(
        name, created.getMetadata().getUid(), phase, epoch, dirName, c.files(), c.marker(), export);
  }

  /** Every run gated; the run's verdict is the first that did not pass, else the last. */
  private static Verdict gate(Rendered r, List<Ran> ran) {
    Verdict verdict = null;
    for (Ran x : ran) {
      Verdict v =
          x.export() == null
              ? GateEvaluator.runFailed(
                  "AIPerfJob " + x.name() + " stored no profile_export_aiperf.json",
                  r.constraints(),
                  r.options(),
                  dev.benchplan.gate.VerdictSource.withoutExport(x.runDirectoryPath(), null))
              : GateEvaluator.evaluate(x.export(), r.constraints(), r.options());
      if (verdict == null || verdict.verdict() == Status.PASS) {
        verdict = v;
      }
    }
    return Objects.requireNonNull(verdict, "verdict");
  }

  /** Every AIPerfJob's files, named relative to the run's aiperf/ tree. */
  private static ArtifactManifest manifest(List<Ran> ran) {
    List<ArtifactFile> all = new ArrayList<>();
    for (Ran r : ran) {
      for (ArtifactFile f : r.files()) {
        all.add(
            new ArtifactFile(
                r.directory().isEmpty() ? f.path() : r.directory() + "/" + f.path(),
                f.size(),
                f.sha256()));
      }
    }
    return new ArtifactManifest(all);
  }

  /** What was deleted (or kept under --keep). */
  private static List<String> cleaned(RunRequest request, Rendered r, List<Ran> ran) {
    List<String> cleaned = new ArrayList<>();
    String namespace = r.namespace();
    for (ObjectNode m : r.maps()) {
      cleaned.add(
          (request.keep() ? "kept" : "deleted")
              + " ConfigMap "
              + namespace
              + "/"
              + m.at("/metadata/name").asString()
              + (request.keep() ? " (--keep)" : ""));
    }
    for (Ran x : ran) {
      cleaned.add(
          request.keep()
              ? "kept AIPerfJob " + namespace + "/" + x.name() + " (--keep)"
              : "deleted AIPerfJob "
                  + namespace
                  + "/"
                  + x.name()
                  + " (the operator keeps its results for its"
                  + " retention period)");
    }
    return cleaned;
  }

  /** The operator's results Service, {@code NAMESPACE/NAME:PORT}. */
  record Service(String namespace, String name, String port) {
    static Service parse(String text, Path file) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("([a-z0-9-]+)/([a-z0-9-]+):([a-z0-9-]+)").matcher(text);
      if (!m.matches()) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": annotation "
                + AiperfJobContract.RESULTS_SERVICE
                + " is '"
                + text
                + "': expected NAMESPACE/SERVICE:PORT");
      }
      return new Service(m.group(1), m.group(2), m.group(3));
    }

    @Override
    public String toString() {
      return namespace + "/" + name + ":" + port;
    }
  }

  private record Collected(List<ArtifactFile> files, @Nullable JsonNode marker) {}

  /**
   * Waits for the ready marker in the run's listing, then fetches every listed file into {@code
   * target}, counting and hashing the bytes as they arrive.
   */
  private Collected collect(
      Service svc,
      String namespace,
      String job,
      @Nullable Long epoch,
      Path target,
      RunDirectory dir,
      Path tree) {
    String listPath =
        epoch == null
            ? "/api/v1/results/" + namespace + "/" + job
            : AiperfJobContract.resultsPath(namespace, job, epoch);
    Instant until = clock.instant().plus(settings.resultsWait());
    JsonNode listing;
    while (true) {
      listing = listing(svc, listPath);
      if (listing != null && names(listing).contains(AiperfJobContract.READY_MARKER)) {
        break;
      }
      if (clock.instant().isAfter(until)) {
        throw BenchplanException.runtime(
            "AIPerfJob "
                + namespace
                + "/"
                + job
                + " completed, but the operator's"
                + " results API never listed its ready marker "
                + AiperfJobContract.READY_MARKER
                + " within "
                + settings.resultsWait().toSeconds()
                + " s ("
                + svc
                + listPath
                + "); no run directory written");
      }
      sleep(settings.poll());
    }
    List<ArtifactFile> files = new ArrayList<>();
    JsonNode marker = null;
    try {
      Files.createDirectories(target);
      for (JsonNode f : listing.path("files")) {
        String name = f.path("name").asString();
        String problem = ArtifactFile.pathProblem(name);
        if (problem != null) {
          throw BenchplanException.runtime(
              "the operator's results API lists '"
                  + name
                  + "' for AIPerfJob "
                  + job
                  + ": "
                  + problem);
        }
        long listed = f.path("size_bytes").asLong(-1);
        Path out = target.resolve(name);
        Files.createDirectories(out.getParent());
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        ClusterAccess.ProxyAnswer answer;
        try (OutputStream os = new DigestOutputStream(Files.newOutputStream(out), sha)) {
          answer = resultsGet(svc, listPath + "/" + name, os);
        } catch (KubernetesClientException e) {
          throw ApiErrors.map(
              "GET " + listPath + "/" + name + " through the service proxy of " + svc, e);
        }
        String hex = HexFormat.of().formatHex(sha.digest());
        if (answer.code() != 200) {
          throw short_(
              dir,
              tree,
              job,
              name,
              "HTTP "
                  + answer.code()
                  + ": "
                  + Objects.requireNonNull(answer.error())
                      .strip()); // a non-200 answer carries its body
        }
        if (listed >= 0 && answer.bytes() != listed) {
          throw short_(
              dir, tree, job, name, answer.bytes() + " bytes arrived, the listing says " + listed);
        }
        files.add(new ArtifactFile(name, answer.bytes(), hex));
        if (name.equals(AiperfJobContract.READY_MARKER)) {
          marker = Json.JSON.readTree(Files.readAllBytes(out));
        }
      }
    } catch (IOException e) {
      throw BenchplanException.runtime(
          "AIPerfJob "
              + namespace
              + "/"
              + job
              + ": results could not be fetched from "
              + svc
              + ": "
              + e.getMessage(),
          e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    if (marker != null && marker.path("was_cancelled").asBoolean(false)) {
      throw BenchplanException.runtime(
          "AIPerfJob "
              + namespace
              + "/"
              + job
              + ": the operator's ready marker says"
              + " the run was cancelled (terminal phase "
              + marker.path("terminal_phase").asString("?")
              + "); no run directory written");
    }
    return new Collected(files, marker);
  }

  private BenchplanException short_(
      RunDirectory dir, Path tree, String job, String name, String what) {
    return dir.keptAside(
        tree,
        clock.instant(),
        "AIPerfJob " + job + ": results file " + name + " arrived short (" + what + ")",
        null);
  }

  /** GET {@code path} of the operator's results API through the Service proxy into {@code out}. */
  private ClusterAccess.ProxyAnswer resultsGet(Service svc, String path, OutputStream out)
      throws IOException {
    return client.proxyGet(
        KubeCall.RUN_OPERATOR_RESULTS,
        svc.namespace(),
        svc.name(),
        svc.port(),
        path,
        out,
        settings.requestTimeout().toMillis());
  }

  private @Nullable JsonNode listing(Service svc, String path) {
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    ClusterAccess.ProxyAnswer answer;
    try {
      answer = resultsGet(svc, path, body);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("GET " + path + " through the service proxy of " + svc, e);
    } catch (IOException e) {
      throw BenchplanException.runtime(
          "the operator's results API at "
              + svc
              + " did not answer "
              + path
              + ": "
              + e.getMessage(),
          e);
    }
    if (answer.code() == 404) {
      return null; // nothing stored yet
    }
    if (answer.code() != 200) {
      throw BenchplanException.runtime(
          "the operator's results API at "
              + svc
              + " answered "
              + path
              + " with HTTP "
              + answer.code()
              + ": "
              + Objects.requireNonNull(answer.error())
                  .strip()); // a non-200 answer carries its body
    }
    return Json.JSON.readTree(body.toByteArray());
  }

  private static List<String> names(JsonNode listing) {
    List<String> out = new ArrayList<>();
    listing.path("files").forEach(f -> out.add(f.path("name").asString()));
    return out;
  }

  /**
   * Waits for a terminal phase; on the bound, sets spec.cancel and waits for the operator to say
   * so.
   */
  private GenericKubernetesResource await(
      String namespace, String name, Duration bound, ProgressReporter progress, RunGuard guard) {
    LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
    Instant until = clock.instant().plus(bound);
    String shown = null;
    Instant lastShown = Instant.MIN;
    boolean cancelled = false;
    GenericKubernetesResource last = null;
    try (ClusterAccess.Informer<GenericKubernetesResource> informer =
        client.informCustom(
            KubeCall.RUN_AIPERFJOB_WATCH, AIPERFJOBS, namespace, name, events::add)) {
      while (true) {
        Object o = events.poll(settings.poll().toMillis(), TimeUnit.MILLISECONDS);
        if (o instanceof GenericKubernetesResource r) {
          last = r;
        }
        if (guard.interrupted()) {
          throw BenchplanException.runtime(
              "interrupted: AIPerfJob "
                  + namespace
                  + "/"
                  + name
                  + " cancelled; no run directory written");
        }
        if (informer.hasSynced() && informer.list().isEmpty() && last != null) {
          throw BenchplanException.runtime(
              "AIPerfJob "
                  + namespace
                  + "/"
                  + name
                  + " was deleted by someone else"
                  + " while it ran; no run directory written");
        }
        if (last != null) {
          String line = describe(last);
          if (!line.equals(shown)
              && (shown == null
                  || Duration.between(lastShown, clock.instant()).compareTo(progressEvery) >= 0
                  || terminal(phase(last)))) {
            progress.report("running", name + ": " + line);
            shown = line;
            lastShown = clock.instant();
          }
          if (terminal(phase(last))) {
            if (cancelled && "Cancelled".equals(phase(last))) {
              throw BenchplanException.runtime(
                  "timeout: AIPerfJob "
                      + namespace
                      + "/"
                      + name
                      + " did not finish"
                      + " within "
                      + bound.toSeconds()
                      + " s; spec.cancel set, the operator cancelled it; no run"
                      + " directory written");
            }
            return last;
          }
        }
        if (!cancelled && clock.instant().isAfter(until)) {
          progress.report("timeout", name + ": " + cancel(namespace, name));
          cancelled = true;
          until = clock.instant().plus(Duration.ofSeconds(60));
        } else if (cancelled && clock.instant().isAfter(until)) {
          throw BenchplanException.runtime(
              "timeout: AIPerfJob "
                  + namespace
                  + "/"
                  + name
                  + " did not finish within "
                  + bound.toSeconds()
                  + " s; spec.cancel set, the operator did not confirm within 60 s");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BenchplanException.runtime(
          "interrupted while watching AIPerfJob " + namespace + "/" + name, e);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("watch AIPerfJob " + namespace + "/" + name, e);
    }
  }

  /** metadata.namespace of a rendered document, or null when it names none. */
  private static @Nullable String renderedNamespace(ObjectNode doc) {
    JsonNode ns = doc.at("/metadata/namespace");
    return ns.isString() ? ns.asString() : null;
  }

  private static String name(ObjectNode doc) {
    return doc.at("/metadata/name").asString();
  }

  static boolean terminal(@Nullable String phase) {
    return "Completed".equals(phase) || "Failed".equals(phase) || "Cancelled".equals(phase);
  }

  private static JsonNode status(GenericKubernetesResource r) {
    Object s = r.getAdditionalProperties().get("status");
    return s == null ? Json.JSON.createObjectNode() : Json.JSON.valueToTree(s);
  }

  static @Nullable String phase(GenericKubernetesResource r) {
    return r == null ? null : status(r).path("phase").asString(null);
  }

  /** phase, currentPhase and requestsCompleted/requestsTotal as one progress line. */
  static String describe(GenericKubernetesResource r) {
    JsonNode s = status(r);
    StringBuilder sb = new StringBuilder(s.path("phase").asString("Pending"));
    if (s.hasNonNull("currentPhase")) {
      sb.append(", ").append(s.path("currentPhase").asString());
    }
    if (s.hasNonNull("requestsCompleted") || s.hasNonNull("requestsTotal")) {
      sb.append(", ")
          .append(s.path("requestsCompleted").asLong(0))
          .append('/')
          .append(
              s.hasNonNull("requestsTotal") ? Long.toString(s.path("requestsTotal").asLong()) : "?")
          .append(" requests");
    }
    if (s.hasNonNull("error")) {
      sb.append(": ").append(s.path("error").asString());
    }
    return sb.toString();
  }

  private String cancel(String namespace, String name) {
    try {
      client.patchCustom(
          KubeCall.RUN_AIPERFJOB_CANCEL,
          AIPERFJOBS,
          namespace,
          name,
          "{\"spec\":{\"cancel\":true}}");
      return "set spec.cancel on AIPerfJob " + namespace + "/" + name;
    } catch (KubernetesClientException e) {
      return "could not set spec.cancel on AIPerfJob "
          + namespace
          + "/"
          + name
          + ": "
          + ApiErrors.map("patch AIPerfJob " + namespace + "/" + name, e).getMessage();
    }
  }

  private GenericKubernetesResource get(String namespace, String name) {
    try {
      return client.getCustom(KubeCall.RUN_AIPERFJOB_CREATE, AIPERFJOBS, namespace, name);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("get AIPerfJob " + namespace + "/" + name, e);
    }
  }

  private void delete(String namespace, String name) {
    try {
      client.deleteCustom(KubeCall.RUN_AIPERFJOB_DELETE, AIPERFJOBS, namespace, name);
      client.awaitCustom(
          KubeCall.RUN_AIPERFJOB_WATCH, AIPERFJOBS, namespace, name, Objects::isNull, 60_000);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("delete AIPerfJob " + namespace + "/" + name, e);
    }
  }

  private String deleteQuietly(String namespace, String name) {
    try {
      delete(namespace, name);
      return "deleted AIPerfJob " + namespace + "/" + name;
    } catch (RuntimeException e) {
      return "could not delete AIPerfJob " + namespace + "/" + name + ": " + e.getMessage();
    }
  }

  private String deleteMapQuietly(String namespace, String name) {
    try {
      client.deleteConfigMap(KubeCall.RUN_CONFIGMAP_DELETE, namespace, name);
      return "deleted ConfigMap " + namespace + "/" + name;
    } catch (RuntimeException e) {
      return "could not delete ConfigMap " + namespace + "/" + name + ": " + e.getMessage();
    }
  }

  private static List<ObjectNode> read(Path file) {
    List<ObjectNode> out = new ArrayList<>();
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": cannot read: " + e.getMessage());
    }
    for (JsonNode d : YamlDocuments.read(text)) {
      boolean traceMap =
          d instanceof ObjectNode m
              && "v1".equals(m.path("apiVersion").asString(""))
              && "ConfigMap".equals(m.path("kind").asString(""))
              && m.at("/metadata/annotations").has(JobContract.TRACE_SHA256);
      if (traceMap) {
        out.add((ObjectNode) d);
        continue;
      }
      if (!(d instanceof ObjectNode o)
          || !AiperfJobContract.KIND.equals(o.path("kind").asString(""))
          || !AiperfJobContract.API_VERSION.equals(o.path("apiVersion").asString(""))) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": document "
                + (out.size() + 1)
                + " is not an "
                + AiperfJobContract.API_VERSION
                + " "
                + AiperfJobContract.KIND
                + ": expected what benchplan render wrote");
      }
      out.add(o);
    }
    if (out.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": holds no AIPerfJob: expected what benchplan render wrote");
    }
    return out;
  }

  /**
   * The AB/BA pair render put on every AIPerfJob ({@link JobContract#PAIR}), as run.json records
   * it, or null when the run is not half of a pair. The AIPerfJobs of one run are one arm: a label
   * on some and not others, or labels that differ, were edited after render (exit 2).
   */
  static RunRecordDocument.@Nullable Pair pair(Path file, List<ObjectNode> jobs) {
    String first = null;
    for (int i = 0; i < jobs.size(); i++) {
      JsonNode value = jobs.get(i).at("/metadata/annotations").path(JobContract.PAIR);
      String text = value.isString() ? value.asString() : null;
      if (i == 0) {
        first = text;
      } else if (!Objects.equals(first, text)) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": AIPerfJob "
                + jobs.get(i).at("/metadata/name").asString("#" + (i + 1))
                + " has "
                + (text == null ? "no " + JobContract.PAIR : JobContract.PAIR + " " + text)
                + ", the first has "
                + (first == null ? "none" : first)
                + ": expected one pair label on every AIPerfJob of a run, as render wrote it");
      }
    }
    try {
      return RunRecordDocument.Pair.of(first);
    } catch (BenchplanException e) {
      throw BenchplanException.invalid(ErrorLocation.file(file), file + ": " + e.getMessage(), e);
    }
  }

  /**
   * run.json of an operator run: what the AIPerfJobs were, how each ended, every file's SHA-256.
   */
  private RunRecordDocument record(Ended e, Map<String, byte[]> files) {
    Rendered r = e.rendered();
    PlanReference plan = r.plan();
    JsonNode a = r.annotations();
    ObjectNode firstJob = r.jobs().get(0);
    String image = firstJob.at("/spec/image").asString(null);
    RunRecordDocument.Aiperf aiperf =
        RunRecord.aiperf(
            plan,
            a.path(JobContract.AIPERF_VERSION).asString(null),
            e.executed().ran().stream()
                .map(Ran::export)
                .filter(Objects::nonNull)
                .map(AiperfExport::aiperfVersion)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null),
            image,
            null);
    List<String> ineligible =
        RunRecord.ineligibleReasons(e.verdict(), aiperf, "the AIPerfJob's image " + image);
    Ran firstRan = e.executed().ran().get(0);
    long timeoutS = firstJob.at("/spec/timeoutSeconds").asLong(0);
    return new RunRecordDocument(
        RunRecord.SCHEMA_VERSION,
        r.runId(),
        plan.seriesId(),
        plan.planId(),
        new RunRecordDocument.FileRef(plan.path().toString(), plan.sha256()),
        new RunRecordDocument.FileRef(
            r.file().toAbsolutePath().toString(), Sha256.ofFile(r.file())),
        new RunRecordDocument.Cluster(
            client.contextName() == null ? e.request().context() : client.contextName(),
            client.serverUrl(),
            r.namespace()),
        a.path(JobContract.ENDPOINT).asString(""),
        r.dgd(),
        new RunRecordDocument.Job(
            firstRan.name(),
            firstRan.uid(),
            timeoutS > 0 ? timeoutS : null,
            List.of("phase=" + firstRan.phase())),
        null,
        image,
        aiperf,
        new RunRecordDocument.Times(
            e.start().toString(),
            e.executed().applied().toString(),
            null,
            null,
            null,
            e.collected().toString(),
            e.collected().toString()),
        isolation(r),
        new RunRecordDocument.Artifacts(
            "operator:" + r.results(),
            firstRan.export() == null ? null : "operator-results-api",
            "collected: every file the operator's results store listed for each AIPerfJob ("
                + e.manifest().files().size()
                + " files, "
                + e.manifest().totalBytes()
                + " bytes), after its ready marker, through "
                + TRANSPORT
                + "; each checked against its listed size and SHA-256 hashed on arrival (the API gives no"
                + " checksums); artifacts.sha256 lists them",
            RunRecord.fileShas(files)),
        "completed",
        e.verdict().message(),
        e.verdict().verdict().json(),
        e.verdict().exitCode(),
        ineligible.isEmpty(),
        List.copyOf(ineligible),
        e.request().keep(),
        null, // measured_runs: the operator's runs are listed under operator.jobs
        r.pair(),
        RunRecordDocument.Engine.AIPERF_OPERATOR,
        operator(r, e.executed().ran()),
        r.smokeAge(),
        RunRecordDocument.Candidate.of(
            a.path(JobContract.LEDGER_SHA256).asString(null),
            r.dgd(),
            a.path(JobContract.DGD_SHA256).asString(null),
            a.path(JobContract.ENDPOINT).asString(null)));
  }

  /** The operator places the pods: benchplan's isolation preflight is the plain Job engine's. */
  private static RunRecordDocument.Isolation isolation(Rendered r) {
    String[] dgdParts = r.dgd().split("/", 2);
    return new RunRecordDocument.Isolation(
        r.annotations().path(JobContract.ENDPOINT).asString(""),
        new RunRecordDocument.NamespaceCheck(
            r.namespace(), null, "not checked (engine aiperf-operator)"),
        new RunRecordDocument.OtherBenchmarks("namespace", List.of()),
        new RunRecordDocument.DgdPods(
            dgdParts[0], dgdParts.length > 1 ? dgdParts[1] : "", List.of()),
        List.of(),
        new RunRecordDocument.Client(null, null),
        List.of(),
        List.of(
            "isolation not verified: AIPerf's operator places the controller and worker"
                + " pods (with the plain Job's anti-affinity in spec.podTemplate); benchplan's isolation preflight is the"
                + " plain Job engine's"),
        false);
  }

  /** run.json's operator: the results API, the transport, each AIPerfJob as it ended. */
  private static RunRecordDocument.Operator operator(Rendered r, List<Ran> ran) {
    List<RunRecordDocument.OperatorJob> jobs = new ArrayList<>();
    for (Ran x : ran) {
      jobs.add(
          new RunRecordDocument.OperatorJob(
              x.name(),
              x.uid(),
              x.phase(),
              x.epoch(),
              x.runDirectoryPath(),
              x.files().size(),
              x.files().stream().mapToLong(ArtifactFile::size).sum(),
              x.marker()));
    }
    return new RunRecordDocument.Operator(r.results().toString(), TRANSPORT, jobs);
  }

  private void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BenchplanException.runtime("interrupted while waiting for the operator's results");
    }
  }
}
