package dev.benchplan.analysis.evidence;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.AiperfInputConfig;
import dev.benchplan.analysis.audit.AuditCheck;
import dev.benchplan.analysis.audit.Auditor;
import dev.benchplan.analysis.audit.RunAudit;
import dev.benchplan.analysis.audit.TimeSlices;
import dev.benchplan.analysis.input.GpuCount;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.input.RecordScan;
import dev.benchplan.analysis.input.RecordScanner;
import dev.benchplan.analysis.input.RunDiagnostics;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.analysis.input.SummaryRebuilder;
import dev.benchplan.diagnostics.RequestTimeline;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.io.SideTask;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import dev.benchplan.runrecord.RunRecordDocument;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.FutureTask;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/** Reads one located run into {@link RunEvidence} and audits it; raw files are only read. */
public final class RunLoader {
  /** Written where a field was not recorded by the run. */
  public static final String NOT_RECORDED = "not recorded";

  private static final ObjectReader LENIENT =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .build()
          .readerFor(JsonNode.class);

  private RunLoader() {}

  /**
   * Loads and audits a run.
   *
   * @param source the located run
   * @param gpusFlag a GPU count given on the command line, or null
   */
  public static RunEvidence load(RunSource source, @Nullable Integer gpusFlag) {
    String summarySha = null;
    String summaryProblem = null;
    String nonFinite = null;
    AiperfExport export = null;
    JsonNode lenientRoot = null;
    if (Files.isRegularFile(source.summaryFile())) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(source.summaryFile());
      } catch (IOException e) {
        throw BenchplanException.invalid(
            ErrorLocation.file(source.summaryFile()),
            source.summaryFile() + ": cannot read: " + e.getMessage(),
            e);
      }
      summarySha = Sha256.hex(bytes);
      try {
        lenientRoot = LENIENT.readValue(bytes);
        nonFinite = firstNonFinite(lenientRoot, "");
      } catch (JacksonException e) {
        summaryProblem = "not valid JSON: " + InputErrors.describe(e);
      }
      if (summaryProblem == null && nonFinite != null) {
        summaryProblem = "non-finite number at " + nonFinite;
      } else if (summaryProblem == null) {
        try {
          export = AiperfExportReader.parse(bytes, source.summaryFile());
        } catch (BenchplanException e) {
          summaryProblem = e.getMessage();
        }
      }
    } else {
      summaryProblem = "missing: " + source.summaryFile();
    }
    RecordScan scan =
        Files.isRegularFile(source.recordsFile()) ? RecordScanner.scan(source.recordsFile()) : null;
    FutureTask<AuditCheck> timeSlices = null;
    if (scan != null) {
      scan.sortAhead();
      // the audit's time-slice check reads only the timeline: on the second core while this thread
      // reads the plan, diagnoses the run and runs the other checks
      RequestTimeline timeline = scan.timeline();
      timeSlices = SideTask.start("benchplan-time-slices", () -> TimeSlices.check(timeline));
    }
    JsonNode inputConfig = lenientRoot == null ? null : lenientRoot.get("input_config");
    PlanInfo plan = source.runRecord() == null ? null : plan(source.runRecord(), source.runJson());
    Map<String, String> identity =
        identity(
            plan,
            inputConfig,
            export,
            source.runRecord(),
            lenientRoot == null ? null : text(lenientRoot.path("aiperf_version")));
    String loadPoint = loadPoint(inputConfig);
    String seriesId = seriesId(source.runRecord(), plan, identity);
    GpuCount gpus = gpus(gpusFlag, plan, lenientRoot, source.dir());
    boolean recoverable =
        export == null
            && scan != null
            && scan.malformed() == 0
            && scan.successes() > 0
            && nonFinite == null
            && (lenientRoot == null || !lenientRoot.path("was_cancelled").asBoolean(false));
    AiperfExport used = export;
    if (recoverable && scan != null) { // recoverable implies a scan
      used = SummaryRebuilder.rebuild(scan, source.recordsFile());
    }
    RunDiagnostics.Diagnosis diagnosis =
        RunDiagnostics.diagnose(
            scan,
            lenientRoot,
            RunDiagnostics.log(
                source.dir(), source.runJson() == null ? null : source.runJson().getParent()));
    RunAudit audit =
        Auditor.audit(
            new Auditor.Facts(
                source,
                export,
                used,
                summaryProblem,
                nonFinite,
                lenientRoot,
                inputConfig,
                scan,
                plan,
                recoverable,
                diagnosis,
                timeSlices == null ? null : SideTask.joined(timeSlices)));
    return new RunEvidence(
        source,
        used,
        summarySha,
        summaryProblem,
        inputConfig,
        scan,
        plan,
        identity,
        seriesId,
        loadPoint,
        gpus,
        audit,
        Candidate.of(source),
        diagnosis.findings());
  }

  static @Nullable String firstNonFinite(JsonNode n, String pointer) {
    if (n == null) {
      return null;
    }
    if (n.isNumber() && n.isFloatingPointNumber() && !Double.isFinite(n.asDouble())) {
      return pointer.isEmpty() ? "/" : pointer;
    }
    if (n.isObject()) {
      for (String name : n.propertyNames()) {
        String hit =
            firstNonFinite(n.get(name), pointer + "/" + name.replace("~", "~0").replace("/", "~1"));
        if (hit != null) {
          return hit;
        }
      }
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        String hit = firstNonFinite(n.get(i), pointer + "/" + i);
        if (hit != null) {
          return hit;
        }
      }
    }
    return null;
  }

  private static PlanInfo plan(RunRecordDocument run, @Nullable Path runJson) {
    String path = run.plan().path();
    String recorded = run.plan().sha256();
    Path p = deployRootRelative(Path.of(path), runJson);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(p);
    } catch (IOException e) {
      return new PlanInfo(
          path, recorded, null, null, "the plan " + path + " cannot be read: " + e.getMessage());
    }
    String actual = Sha256.hex(bytes);
    if (!actual.equals(recorded)) {
      return new PlanInfo(
          path,
          recorded,
          actual,
          null,
          "the plan "
              + path
              + " hashes to "
              + actual
              + ", run.json records "
              + recorded
              + ": it changed after the run");
    }
    try {
      return new PlanInfo(path, recorded, actual, PlanFile.parse(bytes, "the plan " + path), null);
    } catch (PlanFile.Failure e) {
      // not JSON, not the plan schema, or a cross-field rule broken: named with its JSON pointer
      return new PlanInfo(path, recorded, actual, null, e.getMessage());
    }
  }

  /**
   * run writes /plan/path relative to DEPLOY_ROOT, the run directory's {@code ../../..} ({@code
   * <DEPLOY_ROOT>/benchmark/runs/<run-id>/run.json}); an absolute path is taken as is.
   */
  static Path deployRootRelative(Path recorded, @Nullable Path runJson) {
    if (recorded.isAbsolute() || runJson == null) {
      return recorded;
    }
    Path runDir = runJson.toAbsolutePath().normalize().getParent();
    Path deployRoot =
        runDir == null || runDir.getParent() == null || runDir.getParent().getParent() == null
            ? null
            : runDir.getParent().getParent().getParent();
    if (deployRoot == null) {
      return recorded;
    }
    Path resolved = deployRoot.resolve(recorded).normalize();
    // a run.json written before paths became DEPLOY_ROOT-relative named the plan from the working
    // directory
    return Files.exists(resolved) || !Files.exists(recorded) ? resolved : recorded;
  }

  /** The fields two runs must share to be compared (eligibility), in a fixed order. */
  static Map<String, String> identity(
      @Nullable PlanInfo plan,
      @Nullable JsonNode ic,
      @Nullable AiperfExport export,
      @Nullable RunRecordDocument run,
      @Nullable String rawVersion) {
    BenchmarkPlan p = plan == null ? null : plan.plan();
    AiperfInputConfig cfg = AiperfInputConfig.read(ic);
    Map<String, String> id = new LinkedHashMap<>();
    BenchmarkPlan.Trace planTrace = p == null ? null : p.workload().trace();
    String trace = planTrace == null ? null : planTrace.sha256();
    id.put("workload_trace_sha256", first(trace, cfg.datasetFile()));
    BenchmarkPlan.Synthetic syn = p == null ? null : p.workload().synthetic();
    id.put("isl", first(syn == null ? null : number(syn.isl()), number(cfg.islMean())));
    id.put(
        "isl_stddev", first(syn == null ? null : number(syn.islStddev()), number(cfg.islStddev())));
    id.put("osl", first(syn == null ? null : number(syn.osl()), number(cfg.oslMean())));
    id.put(
        "osl_stddev", first(syn == null ? null : number(syn.oslStddev()), number(cfg.oslStddev())));
    id.put(
        "aiperf_version",
        first(
            export == null ? rawVersion : export.aiperfVersion(),
            run == null ? null : run.aiperf().exportVersion(),
            p == null ? null : p.aiperf().version()));
    id.put("endpoint_type", first(p == null ? null : p.endpoint().type(), cfg.endpointType()));
    id.put(
        "streaming",
        first(
            p == null ? null : String.valueOf(p.endpoint().streaming()),
            cfg.streaming() == null ? null : String.valueOf(cfg.streaming())));
    id.put("model", first(p == null ? null : p.deployment().servedModel(), cfg.model()));
    id.put("tokenizer", first(p == null ? null : p.deployment().tokenizer(), cfg.tokenizer()));
    return id;
  }

  private static String loadPoint(@Nullable JsonNode ic) {
    AiperfInputConfig.Load recorded = AiperfInputConfig.read(ic).load();
    return recorded != null ? recorded.label() : NOT_RECORDED;
  }

  private static String seriesId(
      @Nullable RunRecordDocument run, @Nullable PlanInfo plan, Map<String, String> identity) {
    String s = run == null ? null : run.seriesId();
    if (s == null && plan != null && plan.plan() != null) {
      s = plan.plan().seriesId();
    }
    if (s != null) {
      return s;
    }
    // a plain AIPerf directory: its series is its identity (same workload, tool, endpoint, model)
    return "unplanned-"
        + Sha256.hex(identity.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 12);
  }

  private static GpuCount gpus(
      @Nullable Integer flag, @Nullable PlanInfo plan, @Nullable JsonNode summary, Path dir) {
    if (flag != null) {
      return new GpuCount(flag, "--gpus");
    }
    if (plan != null && plan.plan() != null) {
      return new GpuCount(plan.plan().deployment().gpuTotal(), "plan /deployment/gpu_total");
    }
    if (summary != null && summary.path("telemetry_data").path("endpoints").isObject()) {
      TreeSet<String> ids = new TreeSet<>();
      JsonNode eps = summary.path("telemetry_data").path("endpoints");
      for (String ep : eps.propertyNames()) {
        JsonNode g = eps.get(ep).path("gpus");
        for (String name : g.propertyNames()) {
          ids.add(g.get(name).path("gpu_uuid").asString(ep + "/" + name));
        }
      }
      if (!ids.isEmpty()) {
        return new GpuCount(
            ids.size(), "AIPerf GPU telemetry in the summary (/telemetry_data, distinct gpu_uuid)");
      }
    }
    Path telemetry = dir.resolve("gpu_telemetry_export.jsonl");
    if (Files.isRegularFile(telemetry)) {
      TreeSet<String> ids = new TreeSet<>();
      try (BufferedReader r = Files.newBufferedReader(telemetry, StandardCharsets.UTF_8)) {
        String line;
        while ((line = r.readLine()) != null) {
          if (!line.isBlank()) {
            JsonNode n = LENIENT.readValue(line);
            ids.add(
                n.path("gpu_uuid")
                    .asString(
                        n.path("dcgm_url").asString("") + "#" + n.path("gpu_index").asString()));
          }
        }
      } catch (IOException | JacksonException e) {
        return new GpuCount(
            null, "unknown: gpu_telemetry_export.jsonl unreadable (" + e.getMessage() + ")");
      }
      if (!ids.isEmpty()) {
        return new GpuCount(
            ids.size(), "AIPerf GPU telemetry (gpu_telemetry_export.jsonl, distinct gpu_uuid)");
      }
    }
    return new GpuCount(null, "unknown: no plan, no --gpus, no GPU telemetry");
  }

  private static String first(@Nullable String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return NOT_RECORDED;
  }

  /** A plan's number as {@link #text} writes a tree's: 100 and 100.0 are the same shape. */
  private static @Nullable String number(@Nullable Number n) {
    if (n == null) {
      return null;
    }
    return new java.math.BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
  }

  private static @Nullable String text(JsonNode n) {
    if (n == null || n.isMissingNode() || n.isNull()) {
      return null;
    }
    if (n.isNumber()) {
      // 100 and 100.0 are the same shape
      return new java.math.BigDecimal(n.asString()).stripTrailingZeros().toPlainString();
    }
    return n.isValueNode() ? n.asString() : null;
  }
}
