package dev.benchplan.analysis.input;

import dev.benchplan.aiperf.export.AiperfInputConfig;
import dev.benchplan.diagnostics.AiperfLogWarnings;
import dev.benchplan.diagnostics.ClientBoundCheck;
import dev.benchplan.diagnostics.ExportSignals;
import dev.benchplan.diagnostics.Finding;
import dev.benchplan.diagnostics.LoadTarget;
import dev.benchplan.diagnostics.StallDetector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the diagnostics ({@link StallDetector}, {@link ClientBoundCheck}) on runs found on disk: the
 * per-request records through {@link RecordScanner} (the one reader), the load target from AIPerf's
 * {@code input_config}, AIPerf's client figures from its summary, and its warnings from its log
 * ({@code pod.log} of a benchplan run directory, {@code logs/aiperf.log} of an AIPerf artifact
 * directory). A run without per-request records gets no findings.
 */
public final class RunDiagnostics {
  /** AIPerf's own log inside its artifact directory. */
  public static final String AIPERF_LOG = "logs/aiperf.log";

  /** The Job's pod log inside a benchplan run directory. */
  public static final String POD_LOG = "pod.log";

  private static final ObjectReader LENIENT =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .build()
          .readerFor(JsonNode.class);

  private RunDiagnostics() {}

  /**
   * The diagnosis of one run.
   *
   * @param findings the stall finding and the client-load finding, when there are any
   * @param clientLoad the client-bound check, or null when the run has no per-request records
   */
  public record Diagnosis(List<Finding> findings, ClientBoundCheck.@Nullable Result clientLoad) {
    public Diagnosis {
      findings = List.copyOf(findings);
    }

    /** Nothing to diagnose from. */
    public static Diagnosis none() {
      return new Diagnosis(List.of(), null);
    }

    public boolean clientBound() {
      return clientLoad != null && clientLoad.clientBound();
    }
  }

  /**
   * Diagnoses one run from what is already read.
   *
   * @param scan the records scan, or null without records
   * @param summaryRoot the summary export as a tree, or null
   * @param log AIPerf's log lines, parsed, or {@link AiperfLogWarnings#absent()}
   */
  public static Diagnosis diagnose(
      @Nullable RecordScan scan, @Nullable JsonNode summaryRoot, AiperfLogWarnings log) {
    if (scan == null) {
      return Diagnosis.none();
    }
    List<Finding> findings = new ArrayList<>();
    StallDetector.detect(scan.timeline()).ifPresent(findings::add);
    ClientBoundCheck.Result client =
        ClientBoundCheck.check(scan.timeline(), target(summaryRoot), log, signals(summaryRoot));
    if (client.finding() != null) {
      findings.add(client.finding());
    }
    return new Diagnosis(findings, client);
  }

  /** Diagnoses a located run, reading its files (AIPerf's log included). */
  public static Diagnosis diagnose(RunSource source) {
    Path logBase = source.runJson() != null ? source.runJson().getParent() : null;
    return diagnose(source, log(source.dir(), logBase));
  }

  /** Diagnoses a located run with AIPerf's log already parsed. */
  public static Diagnosis diagnose(RunSource source, AiperfLogWarnings log) {
    if (!Files.isRegularFile(source.recordsFile())) {
      return Diagnosis.none();
    }
    RecordScan scan = RecordScanner.scan(source.recordsFile());
    return diagnose(scan, readTree(source.summaryFile()), log);
  }

  /**
   * Diagnoses every run under a directory (a run directory or AIPerf's tree); findings of a tree
   * with several runs name their run.
   */
  public static Diagnosis diagnoseAll(Path dir) {
    return diagnoseAll(dir, null);
  }

  /**
   * Diagnoses every run under a directory with AIPerf's log given (run's pod log, read before the
   * run directory is written); null looks for the log on disk.
   */
  public static Diagnosis diagnoseAll(Path dir, @Nullable AiperfLogWarnings log) {
    List<RunSource> runs;
    try {
      runs = RunLocator.locate(dir);
    } catch (RuntimeException e) {
      return Diagnosis.none();
    }
    List<Finding> findings = new ArrayList<>();
    ClientBoundCheck.Result bound = null;
    ClientBoundCheck.Result first = null;
    for (RunSource run : runs) {
      // a run's own AIPerf log (each run of a job-sequence Job has one) before the Job's log, which
      // covers every run: the order analyze and gate read them in (log(Path, Path))
      Diagnosis d = log == null ? diagnose(run) : diagnose(run, ownLog(run.dir(), log));
      for (Finding f : d.findings()) {
        findings.add(runs.size() > 1 ? f.inRun(run.label()) : f);
      }
      if (d.clientLoad() != null) {
        first = first == null ? d.clientLoad() : first;
        bound = bound == null && d.clientBound() ? d.clientLoad() : bound;
      }
    }
    return new Diagnosis(findings, bound != null ? bound : first);
  }

  /**
   * AIPerf's warnings from {@code logs/aiperf.log} in the run's directory, else {@code fallback}.
   */
  private static AiperfLogWarnings ownLog(Path runDir, AiperfLogWarnings fallback) {
    Path own = runDir.resolve(AIPERF_LOG);
    if (!Files.isRegularFile(own)) {
      return fallback;
    }
    try {
      return AiperfLogWarnings.parse(Files.readAllLines(own, StandardCharsets.UTF_8));
    } catch (IOException | java.io.UncheckedIOException e) {
      return fallback;
    }
  }

  /**
   * AIPerf's warnings from the first log found: {@code logs/aiperf.log} in the run's directory,
   * else pod.log.
   */
  public static AiperfLogWarnings log(Path runDir, @Nullable Path benchplanRunDir) {
    List<Path> candidates = new ArrayList<>();
    candidates.add(runDir.resolve(AIPERF_LOG));
    if (benchplanRunDir != null) {
      candidates.add(benchplanRunDir.resolve(POD_LOG));
      candidates.add(benchplanRunDir.resolve("aiperf").resolve(AIPERF_LOG));
    }
    candidates.add(runDir.resolve(POD_LOG));
    for (Path p : candidates) {
      if (Files.isRegularFile(p)) {
        try {
          return AiperfLogWarnings.parse(Files.readAllLines(p, StandardCharsets.UTF_8));
        } catch (IOException | java.io.UncheckedIOException e) {
          return AiperfLogWarnings.absent();
        }
      }
    }
    return AiperfLogWarnings.absent();
  }

  /** The load AIPerf was given: input_config's measured phase (0.9+) or loadgen (up to 0.8). */
  static LoadTarget target(@Nullable JsonNode summary) {
    AiperfInputConfig ic =
        AiperfInputConfig.read(summary == null ? null : summary.path("input_config"));
    AiperfInputConfig.Load load = ic.load();
    if (load != null && load.kind() == AiperfInputConfig.LoadKind.REQUEST_RATE) {
      return LoadTarget.rate(Double.parseDouble(load.value()), load.source());
    }
    if (load != null && ic.concurrency() != null) {
      return LoadTarget.concurrency(ic.concurrency(), load.source());
    }
    // run.json records no load of its own (/measured_runs names points, not their kind)
    return LoadTarget.unknown("input_config (/phases, /loadgen) names no concurrency or rate");
  }

  static ExportSignals signals(@Nullable JsonNode summary) {
    if (summary == null) {
      return ExportSignals.none();
    }
    double ok = avg(summary.path("request_count"), false);
    double failed = avg(summary.path("error_request_count"), false);
    return new ExportSignals(
        avg(summary.path("effective_concurrency"), false),
        avg(summary.path("credit_drop_latency"), true),
        Double.isNaN(ok) ? Double.NaN : ok + (Double.isNaN(failed) ? 0 : failed));
  }

  private static double avg(JsonNode metric, boolean toMs) {
    JsonNode avg = metric.path("avg");
    if (!avg.isNumber()) {
      return Double.NaN;
    }
    double v = avg.asDouble();
    if (!toMs) {
      return v;
    }
    return switch (metric.path("unit").asString("ms").toLowerCase(Locale.ROOT)) {
      case "ns" -> v / 1e6;
      case "us" -> v / 1e3;
      case "s", "sec" -> v * 1e3;
      default -> v;
    };
  }

  private static @Nullable JsonNode readTree(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return LENIENT.readValue(Files.readAllBytes(file));
    } catch (IOException | JacksonException e) {
      return null; // the gate and the audit report a bad summary; the diagnosis goes without it
    }
  }
}
