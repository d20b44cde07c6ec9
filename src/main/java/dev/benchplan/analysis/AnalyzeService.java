package dev.benchplan.analysis;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.analysis.audit.AggregateCrossCheck;
import dev.benchplan.analysis.audit.Provenance;
import dev.benchplan.analysis.compare.Slo;
import dev.benchplan.analysis.evidence.CandidateLabel;
import dev.benchplan.analysis.evidence.Candidates;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.evidence.RunLoader;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.input.RecordScan;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.analysis.report.AnalysisDoc;
import dev.benchplan.analysis.report.AnalysisMarkdown;
import dev.benchplan.analysis.report.FileDoc;
import dev.benchplan.analysis.report.HtmlReport;
import dev.benchplan.analysis.report.Measured;
import dev.benchplan.analysis.report.Plots;
import dev.benchplan.analysis.report.RepeatDecisionDoc;
import dev.benchplan.analysis.report.RunBlock;
import dev.benchplan.analysis.report.RunDocuments;
import dev.benchplan.analysis.report.SeriesDoc;
import dev.benchplan.analysis.series.FindingLine;
import dev.benchplan.analysis.series.FindingsLog;
import dev.benchplan.analysis.series.NoiseFloors;
import dev.benchplan.analysis.series.SeriesAnalysis;
import dev.benchplan.analysis.stats.BootstrapPercentiles;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.io.SideTask;
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.FutureTask;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@code benchplan analyze}: audit every run, summarize it, analyse the valid runs of each series
 * against its history, write the documents (all or nothing) and append one finding per series to
 * {@code <EXP_ROOT>/analysis/performance_findings.jsonl}.
 */
public final class AnalyzeService {
  public static final String AUDIT = "benchmark_audit.json";
  public static final String SUMMARY = "benchmark_summary.json";
  public static final String ANALYSIS = "performance_analysis.json";
  public static final String ANALYSIS_MD = "performance_analysis.md";
  public static final String REPEAT_DECISION = "repeat_decision.json";

  private AnalyzeService() {}

  /**
   * One analyze request.
   *
   * @param runs RUN arguments
   * @param expRoot the experiment root (series history and findings log)
   * @param reportDir where documents go, or null for {@code <EXP_ROOT>/analysis/<analysis-id>/}
   * @param gpus a GPU count for runs that do not record one, or null
   * @param slos {@code --slo} values
   * @param labels {@code --label NAME=DIR}: the candidate of the runs under DIR
   * @param noiseFloor {@code --noise-floor ID|FILE}: a floor named from outside the runs, or null
   */
  public record Request(
      List<Path> runs,
      Path expRoot,
      @Nullable Path reportDir,
      @Nullable Integer gpus,
      List<String> slos,
      List<CandidateLabel> labels,
      @Nullable String noiseFloor) {
    /** A request without labels or a named noise floor. */
    public Request(
        List<Path> runs,
        Path expRoot,
        @Nullable Path reportDir,
        @Nullable Integer gpus,
        List<String> slos) {
      this(runs, expRoot, reportDir, gpus, slos, List.of(), null);
    }

    public Request {
      runs = List.copyOf(runs);
      slos = List.copyOf(slos);
      labels = List.copyOf(labels);
      Objects.requireNonNull(expRoot, "expRoot");
      if (runs.isEmpty()) {
        throw BenchplanException.invalid(
            "analyze: give at least one RUN (a run directory or AIPerf artifact directory)");
      }
      if (gpus != null && gpus <= 0) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--gpus"), "--gpus " + gpus + ": expected a positive GPU count");
      }
    }
  }

  /**
   * What analyze produced.
   *
   * @param analysisId the analysis id
   * @param outputDir where the documents are
   * @param analysis performance_analysis.json
   * @param runs the evidence, in argument order
   * @param findingsLog the findings log appended to
   */
  public record Outcome(
      String analysisId,
      Path outputDir,
      AnalysisDoc analysis,
      List<RunEvidence> runs,
      Path findingsLog) {}

  /**
   * What an analysis computes before anything is written: {@code verify} recomputes it from the
   * recorded runs, SLOs and the findings-log lines that preceded it.
   *
   * @param analysisId the analysis id
   * @param analysis performance_analysis.json
   * @param results one per series
   * @param planned the plan of the first run whose plan was read, or null
   */
  public record Computed(
      String analysisId,
      AnalysisDoc analysis,
      List<SeriesAnalysis.Result> results,
      @Nullable PlanInfo planned) {}

  /** Runs the analysis; bad input throws (exit 2) before anything is written. */
  public static Outcome analyze(Request request) {
    List<Slo> slos = Slo.parseFlags(request.slos());
    // the report's fixed costs, on the core the scan leaves idle
    AnalyzeWarmUp.start(request.runs().stream().anyMatch(RunLocator::isBenchplanRun));
    List<RunEvidence> runs = load(request.runs(), request.gpus(), request.labels());
    // the runs' own documents (the summary's bootstrap intervals) do not depend on the analysis:
    // they are built on the second core while this thread computes it
    FutureTask<List<byte[]>> runDocs =
        SideTask.start("benchplan-run-documents", () -> runDocuments(runs));
    // so are the CDF plots (the records alone): drawn now, not in the tail after the analysis
    FutureTask<Map<String, String>> cdfPlots =
        SideTask.start("benchplan-plots-cdf", () -> Plots.runCdfs(runs));
    List<FindingLine> history = FindingsLog.read(request.expRoot());
    NoiseFloors.Named named =
        request.noiseFloor() == null
            ? null
            : NoiseFloors.explicit(
                request.noiseFloor(), history, FindingsLog.path(request.expRoot()));
    // checked against its schema below, while the plots are drawn
    Computed computed = computeUnchecked(runs, slos, history, request.expRoot(), named);
    String analysisId = computed.analysisId();
    AnalysisDoc analysis = computed.analysis();
    List<SeriesAnalysis.Result> results = computed.results();
    PlanInfo planned = computed.planned();
    // likewise the Pareto plots, while the analysis is written out and hashed
    FutureTask<Map<String, String>> plots =
        SideTask.start("benchplan-plots", () -> Plots.paretos(analysis));

    Path out =
        request.reportDir() != null
            ? request.reportDir()
            : request.expRoot().resolve("analysis").resolve(analysisId);
    // the analysis checked against its schema and written out here while the run documents and
    // the plots are finished on the side
    byte[] analysisBytes = validated(analysis, "performance-analysis.schema.json");
    Map<Path, byte[]> files = new LinkedHashMap<>();
    Set<String> names = new HashSet<>();
    List<byte[]> docs = SideTask.joined(runDocs);
    for (int i = 0; i < runs.size(); i++) {
      String dirName = safe(runs.get(i).source().label());
      while (!names.add(dirName)) {
        dirName = dirName + "_";
      }
      Path d = out.resolve("runs").resolve(dirName);
      files.put(d.resolve(AUDIT), docs.get(2 * i));
      files.put(d.resolve(SUMMARY), docs.get(2 * i + 1));
    }
    files.put(out.resolve(ANALYSIS), analysisBytes);
    files.put(
        out.resolve(ANALYSIS_MD),
        AnalysisMarkdown.render(analysis).getBytes(StandardCharsets.UTF_8));
    String analysisSha = Sha256.hex(analysisBytes);
    for (SeriesAnalysis.Result r : results) {
      RepeatDecisionDoc rd = repeatDecision(r, analysisId, analysisSha, planned);
      String name = repeatDecisionName(results, r);
      files.put(out.resolve(name), validated(rd, "repeat-decision.schema.json"));
    }
    Map<String, String> svgs = new LinkedHashMap<>(SideTask.joined(plots));
    svgs.putAll(SideTask.joined(cdfPlots));
    svgs.forEach(
        (name, svg) ->
            files.put(out.resolve("plots").resolve(name), svg.getBytes(StandardCharsets.UTF_8)));
    files.put(
        out.resolve("report.html"),
        HtmlReport.analysis(analysis, runs, svgs).getBytes(StandardCharsets.UTF_8));
    files.put(
        out.resolve("summary.md"),
        AnalysisMarkdown.prSummary(analysis).getBytes(StandardCharsets.UTF_8));
    AtomicFiles.writeAll(files);
    for (SeriesAnalysis.Result r : results) {
      FindingsLog.append(
          request.expRoot(), r.finding().appended(analysisSha, out.resolve(ANALYSIS).toString()));
    }
    return new Outcome(analysisId, out, analysis, runs, FindingsLog.path(request.expRoot()));
  }

  /**
   * The file name of a result's repeat decision: {@code repeat_decision.json} for one, else named
   * by series (and by candidate when a series has several).
   */
  public static String repeatDecisionName(
      List<SeriesAnalysis.Result> results, SeriesAnalysis.Result r) {
    if (results.size() == 1) {
      return REPEAT_DECISION;
    }
    long sameSeries =
        results.stream().filter(x -> x.doc().seriesId().equals(r.doc().seriesId())).count();
    return "repeat_decision-"
        + safe(r.doc().seriesId())
        + (sameSeries > 1 ? "-" + safe(r.doc().candidate().name()) : "")
        + ".json";
  }

  /** Each run's benchmark_audit.json and benchmark_summary.json bytes, in turn. */
  private static List<byte[]> runDocuments(List<RunEvidence> runs) {
    List<byte[]> docs = new ArrayList<>();
    for (RunEvidence r : runs) {
      docs.add(validated(RunDocuments.audit(r), "benchmark-audit.schema.json"));
      docs.add(validated(RunDocuments.summary(r), "benchmark-summary.schema.json"));
    }
    return docs;
  }

  /** The analysis of {@code runs} against {@code history} (the findings log's earlier lines). */
  public static Computed compute(
      List<RunEvidence> runs,
      List<Slo> slos,
      List<FindingLine> history,
      Path expRoot,
      NoiseFloors.@Nullable Named named) {
    Computed c = computeUnchecked(runs, slos, history, expRoot, named);
    validated(c.analysis(), "performance-analysis.schema.json"); // as analyze checks it
    return c;
  }

  /** {@link #compute} without checking the document against its schema (the caller does). */
  private static Computed computeUnchecked(
      List<RunEvidence> runs,
      List<Slo> slos,
      List<FindingLine> history,
      Path expRoot,
      NoiseFloors.@Nullable Named named) {
    String analysisId = analysisId(runs);

    // one block per series and candidate: runs of different candidates are never pooled
    Map<List<String>, List<RunEvidence>> groups = new LinkedHashMap<>();
    runs.forEach(
        r ->
            groups
                .computeIfAbsent(List.of(r.seriesId(), r.candidate().id()), k -> new ArrayList<>())
                .add(r));
    List<SeriesAnalysis.Result> results = new ArrayList<>();
    for (Map.Entry<List<String>, List<RunEvidence>> e : groups.entrySet()) {
      results.add(
          SeriesAnalysis.analyze(
              e.getKey().get(0),
              e.getValue().get(0).candidate(),
              e.getValue(),
              slos,
              history,
              analysisId,
              expRoot,
              named));
    }

    PlanInfo planned = RunEvidence.firstReadPlan(runs);
    String verdict =
        results.size() == 1
            ? results.get(0).verdict()
            : results.stream().map(SeriesAnalysis.Result::verdict).distinct().count() == 1
                ? results.get(0).verdict()
                : "mixed";
    AnalysisDoc analysis =
        new AnalysisDoc(
            RunDocuments.SCHEMA_VERSION,
            "performance_analysis",
            analysisId,
            planned == null ? null : planned.question(),
            planned == null ? null : new FileDoc(planned.path(), planned.actualSha256()),
            expRoot.toString(),
            runs.stream().map(RunBlock.InputEntry::of).toList(),
            method(),
            results.stream().map(SeriesAnalysis.Result::doc).toList(),
            verdict,
            limitations(runs));
    return new Computed(analysisId, analysis, results, planned);
  }

  /** Locates and loads every run; the same run directory twice is invalid input. */
  public static List<RunEvidence> load(List<Path> args, @Nullable Integer gpus) {
    return load(args, gpus, List.of());
  }

  /**
   * Locates and loads every run, each with its candidate (run.json, {@code --label}, else unknown
   * per RUN argument); a label naming no run is invalid input.
   */
  public static List<RunEvidence> load(
      List<Path> args, @Nullable Integer gpus, List<CandidateLabel> labels) {
    List<RunEvidence> all = withProvenance(loadAssigned(args, gpus, labels));
    Candidates.checkLabels(labels, all);
    return all;
  }

  /**
   * The runs with the audit's {@code provenance} check over all of them: copied or replayed runs (a
   * shared first start, identical records) are flagged ({@link Provenance}).
   */
  public static List<RunEvidence> withProvenance(List<RunEvidence> runs) {
    java.util.IdentityHashMap<RunEvidence, dev.benchplan.analysis.audit.AuditCheck> checks =
        Provenance.check(runs);
    return runs.stream()
        .map(
            r ->
                r.with(
                    r.audit().with(Objects.requireNonNull(checks.get(r), "provenance check")),
                    r.candidate()))
        .toList();
  }

  /** As {@link #load(List, Integer, List)}, without checking that every label names a run. */
  public static List<RunEvidence> loadAssigned(
      List<Path> args, @Nullable Integer gpus, List<CandidateLabel> labels) {
    List<RunEvidence> all = new ArrayList<>();
    for (Path arg : args) {
      all.addAll(Candidates.assign(arg, loadUnlabelled(List.of(arg), gpus, all), labels));
    }
    return all;
  }

  private static List<RunEvidence> loadUnlabelled(
      List<Path> args, @Nullable Integer gpus, List<RunEvidence> before) {
    Set<Path> seen = new HashSet<>();
    before.forEach(r -> seen.add(r.source().dir().toAbsolutePath().normalize()));
    return loadSeen(args, gpus, seen);
  }

  private static List<RunEvidence> loadSeen(
      List<Path> args, @Nullable Integer gpus, Set<Path> seen) {
    List<RunEvidence> runs = new ArrayList<>();
    for (Path arg : args) {
      List<RunEvidence> mine = new ArrayList<>();
      for (RunSource s : RunLocator.locate(arg)) {
        if (!seen.add(s.dir().toAbsolutePath().normalize())) {
          throw BenchplanException.invalid(
              ErrorLocation.file(arg),
              arg
                  + ": run "
                  + s.dir()
                  + " is given twice (a run counted twice would fake"
                  + " a noise floor)");
        }
        mine.add(RunLoader.load(s, gpus));
      }
      runs.addAll(crossCheckAggregates(arg, mine));
    }
    return runs;
  }

  /**
   * The runs found under one RUN argument with the {@code aiperf_aggregate} audit check added:
   * AIPerf's own aggregate files under it against the runs' summaries ({@link
   * AggregateCrossCheck}).
   */
  public static List<RunEvidence> crossCheckAggregates(Path arg, List<RunEvidence> runs) {
    Path base =
        java.nio.file.Files.isDirectory(arg.resolve("aiperf")) && RunLocator.isBenchplanRun(arg)
            ? arg.resolve("aiperf")
            : arg;
    if (!java.nio.file.Files.isDirectory(base)) {
      return runs;
    }
    java.util.IdentityHashMap<RunEvidence, dev.benchplan.analysis.audit.AuditCheck> checks =
        AggregateCrossCheck.check(base, runs);
    // the check names every run it was given
    return runs.stream()
        .map(
            r ->
                r.with(
                    r.audit().with(Objects.requireNonNull(checks.get(r), "aggregate check")),
                    r.candidate()))
        .toList();
  }

  /** The repeat_decision.json of one series of an analysis. */
  public static RepeatDecisionDoc repeatDecision(
      SeriesAnalysis.Result r, String analysisId, String analysisSha, @Nullable PlanInfo planned) {
    SeriesDoc.RepeatDecision rd = r.repeatDecision();
    return RepeatDecisionDoc.of(
        rd.seriesId(),
        planned == null ? null : new FileDoc(planned.path(), planned.actualSha256()),
        rd.decision(),
        rd.rationale(),
        rd.pilot(),
        analysisId,
        analysisSha,
        r.workload());
  }

  /** A document's canonical bytes, once it matches its schema (the file edge). */
  static byte[] validated(Object doc, String schema) {
    JsonNode tree = Json.JSON.valueToTree(doc);
    var problems = SchemaValidator.bundled(schema).validate(tree);
    if (!problems.isEmpty()) {
      throw new IllegalStateException(
          tree.path("kind").asString() + " does not match " + schema + ": " + problems);
    }
    return CanonicalJson.bytes(tree);
  }

  static AnalysisDoc.Method method() {
    return new AnalysisDoc.Method(
        RunDocuments.percentileMethod(),
        "per-metric coefficient of variation over n >= 2 runs of one configuration; 95% interval"
            + " from the chi-square distribution of the sample variance (Apache Commons Statistics)",
        "(t(0.975, df) + t(0.80, df)) x CV x sqrt(1/nA + 1/nB) x 100: alpha 0.05 two-sided, power"
            + " 0.80",
        Measured.of(SeriesAnalysis.SMALL_DELTA_PCT),
        "without a noise floor a change below 15% (AIPerf's run-to-run variance at 50-100"
            + " requests) cannot be told from noise",
        BootstrapPercentiles.SEED);
  }

  static List<String> limitations(List<RunEvidence> runs) {
    List<String> l = new ArrayList<>();
    l.add("client-side measurements only: no server-side root cause is claimed");
    if (runs.stream().anyMatch(r -> r.plan() == null)) {
      l.add(
          "plain AIPerf directories: AIPerf's input_config stands in for the plan; checks that need the plan say"
              + " \"not checked: no plan\"");
    }
    if (runs.stream().anyMatch(r -> r.gpus().value() == null)) {
      l.add("GPU count unknown for some runs: per-GPU throughput is not computed for them");
    }
    if (runs.stream()
        .anyMatch(
            r -> {
              RecordScan scan = r.scan();
              AiperfExport export = r.export();
              return scan != null
                  && export != null
                  && export.requestCount().map(c -> c.longValue() > scan.successes()).orElse(false);
            })) {
      l.add(
          "per-request records are incomplete for some runs: recomputed percentiles and goodput cover the records present");
    }
    if (runs.stream()
        .anyMatch(
            r ->
                r.plan() != null
                    && r.plan().plan() != null
                    && r.plan().plan().workload().source().equals("proxy"))) {
      l.add("proxy workload: results are proxy-scoped");
    }
    return l;
  }

  static String analysisId(List<RunEvidence> runs) {
    StringBuilder sb = new StringBuilder();
    runs.stream()
        .map(
            r ->
                r.source().label()
                    + "="
                    + r.summarySha256()
                    + "/"
                    + (r.scan() == null ? "" : r.scan().sha256()))
        .sorted()
        .forEach(s -> sb.append(s).append('\n'));
    return "analysis-"
        + Sha256.hex(sb.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 12);
  }

  public static String safe(String label) {
    return label.replaceAll("[^A-Za-z0-9._=-]+", "_");
  }
}
