package dev.benchplan.analysis.audit;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfInputConfig;
import dev.benchplan.aiperf.export.MetricSummary;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.input.RecordScan;
import dev.benchplan.analysis.input.RunDiagnostics;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.artifacts.ArtifactManifest;
import dev.benchplan.artifacts.ManifestListing;
import dev.benchplan.diagnostics.ClientBoundCheck;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.rules.ExpectedErrors;
import dev.benchplan.runrecord.RunRecordDocument;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * The audit of one run, before any interpretation (Dynamo's audit-aiperf-results checklist as
 * code): every check runs and is reported, a failed check makes the run {@code invalid} (kept as
 * failed evidence, never compared), a summary rebuilt from complete records makes it {@code
 * valid_with_recovery}. Raw files are only read.
 */
public final class Auditor {
  /** Relative tolerance for ISL/OSL against the workload and recomputed vs reported percentiles. */
  static final double SHAPE_TOLERANCE = 0.05;

  private Auditor() {}

  /**
   * What the audit reads.
   *
   * @param source the run's files
   * @param aiperfExport AIPerf's own summary as parsed, or null
   * @param used the summary analysis uses (AIPerf's, or rebuilt), or null
   * @param summaryProblem why AIPerf's summary is unusable, or null
   * @param nonFinite JSON pointer of the first NaN/Infinity in the summary, or null
   * @param summaryRoot the summary as a tree (NaN allowed), or null
   * @param inputConfig AIPerf's input_config, or null
   * @param scan the records scan, or null
   * @param plan the plan, or null without one
   * @param recovered whether {@code used} was rebuilt from records
   * @param diagnosis the diagnostics on the records and AIPerf's log, or null when not run
   * @param timeSlices {@link TimeSlices#check} of the scan's timeline when already computed (on
   *     another thread, while the run is diagnosed), or null to compute it here
   */
  public record Facts(
      RunSource source,
      @Nullable AiperfExport aiperfExport,
      @Nullable AiperfExport used,
      @Nullable String summaryProblem,
      @Nullable String nonFinite,
      @Nullable JsonNode summaryRoot,
      @Nullable JsonNode inputConfig,
      @Nullable RecordScan scan,
      @Nullable PlanInfo plan,
      boolean recovered,
      RunDiagnostics.@Nullable Diagnosis diagnosis,
      @Nullable AuditCheck timeSlices) {
    /** Facts without a diagnosis. */
    public Facts(
        RunSource source,
        AiperfExport aiperfExport,
        AiperfExport used,
        String summaryProblem,
        String nonFinite,
        JsonNode summaryRoot,
        JsonNode inputConfig,
        RecordScan scan,
        PlanInfo plan,
        boolean recovered) {
      this(
          source,
          aiperfExport,
          used,
          summaryProblem,
          nonFinite,
          summaryRoot,
          inputConfig,
          scan,
          plan,
          recovered,
          null,
          null);
    }
  }

  /** Runs every check. */
  public static RunAudit audit(Facts f) {
    List<AuditCheck> checks = new ArrayList<>();
    List<String> recoveries = new ArrayList<>();
    checks.add(executionRecord(f));
    checks.add(summary(f, recoveries));
    checks.add(plan(f));
    checks.add(executedConfig(f));
    checks.add(aiperfVersion(f));
    checks.add(cancelled(f));
    checks.add(warmup(f));
    checks.add(requestCounts(f));
    checks.add(errorRate(f));
    checks.add(shape(f));
    checks.add(timestamps(f));
    checks.add(duplicates(f));
    checks.add(malformed(f));
    checks.add(nonFinite(f));
    checks.add(units(f));
    checks.add(negatives(f));
    checks.add(manifest(f));
    checks.add(percentiles(f));
    checks.add(clientBound(f));
    checks.add(
        f.timeSlices() != null
            ? f.timeSlices()
            : f.scan() == null
                ? AuditCheck.notChecked(TimeSlices.ID, "no per-request records")
                : TimeSlices.check(f.scan().timeline()));
    List<String> blockers =
        checks.stream()
            .filter(c -> c.status().equals("fail"))
            .map(c -> c.id() + ": " + c.detail())
            .toList();
    String status =
        !blockers.isEmpty() ? "invalid" : recoveries.isEmpty() ? "valid" : "valid_with_recovery";
    boolean planBroken = f.plan() != null && !f.plan().verified();
    String next =
        blockers.isEmpty() ? "continue_analysis" : planBroken ? "stop" : "rerun_benchmark";
    return new RunAudit(status, next, checks, recoveries, blockers);
  }

  private static AuditCheck executionRecord(Facts f) {
    String id = "execution_record";
    RunRecordDocument run = f.source().runRecord();
    if (run == null) {
      return f.aiperfExport() != null || f.scan() != null
          ? AuditCheck.pass(
              id, "plain AIPerf artifact directory: AIPerf's own exports are the execution record")
          : AuditCheck.fail(
              id, "neither a summary export nor per-request records exist in " + f.source().dir());
    }
    if (!run.eligible()) {
      return AuditCheck.fail(
          id,
          "run.json marks the run ineligible: "
              + Json.JSON.valueToTree(run.ineligibleReasons()).toString());
    }
    return AuditCheck.pass(
        id, "run.json: run_id " + run.runId() + ", exit_reason " + run.exitReason());
  }

  private static AuditCheck summary(Facts f, List<String> recoveries) {
    String id = "summary_export";
    if (f.aiperfExport() != null) {
      return AuditCheck.pass(
          id,
          f.source().summaryFile().getFileName()
              + ": layout "
              + f.aiperfExport().layout().jsonName()
              + ", "
              + f.aiperfExport().metrics().size()
              + " metrics");
    }
    if (f.recovered()) {
      RecordScan scan =
          Objects.requireNonNull(f.scan()); // recovered from the records, so they were scanned
      recoveries.add(
          "benchmark summary rebuilt from "
              + scan.successes()
              + " complete per-request records ("
              + f.source().recordsFile().getFileName()
              + ", sha256 "
              + scan.sha256()
              + ") because AIPerf's summary is "
              + f.summaryProblem());
      return AuditCheck.warn(
          id,
          "AIPerf's summary is " + f.summaryProblem() + "; rebuilt from the per-request records");
    }
    return AuditCheck.fail(id, "AIPerf's summary is " + f.summaryProblem());
  }

  private static AuditCheck plan(Facts f) {
    String id = "plan";
    if (f.plan() == null) {
      return AuditCheck.notChecked(
          id, "no plan (a plain AIPerf directory; AIPerf's input_config stands in)");
    }
    if (!f.plan().verified()) {
      return AuditCheck.fail(id, f.plan().problem());
    }
    return AuditCheck.pass(
        id, f.plan().path() + " sha256 " + f.plan().actualSha256() + " matches run.json");
  }

  private static AuditCheck executedConfig(Facts f) {
    String id = "executed_config_vs_plan";
    if (f.plan() == null || f.plan().plan() == null) {
      return AuditCheck.notChecked(id, "no plan");
    }
    if (f.inputConfig() == null) {
      return AuditCheck.notChecked(id, "AIPerf's input_config is absent from the summary");
    }
    AiperfInputConfig ic = AiperfInputConfig.read(f.inputConfig());
    BenchmarkPlan p = f.plan().plan();
    BenchmarkPlan.Synthetic syn = p.workload().synthetic();
    List<String> diffs = new ArrayList<>();
    differ(diffs, "model", planned(p.deployment().servedModel()), planned(ic.model()));
    differ(diffs, "endpoint type", planned(p.endpoint().type()), planned(ic.endpointType()));
    differ(diffs, "streaming", planned(p.endpoint().streaming()), planned(ic.streaming()));
    differ(diffs, "isl", planned(syn == null ? null : syn.isl()), planned(ic.islMean()));
    differ(diffs, "osl", planned(syn == null ? null : syn.osl()), planned(ic.oslMean()));
    differ(diffs, "seed", planned(p.experiment().seed()), planned(ic.randomSeed()));
    // a grid plans each point's own warmup (min of C and the plan's largest): compare with that one
    differ(
        diffs,
        "warmup requests",
        planned(
            p.experiment()
                .warmupAtLoad(
                    ic.concurrency(),
                    ic.requestRate() == null ? null : BigDecimal.valueOf(ic.requestRate()))),
        planned(ic.warmupRequestCount()));
    differ(
        diffs, "request count", planned(p.experiment().requestCount()), planned(ic.requestCount()));
    JsonNode planned = planned(p.experiment().concurrency());
    JsonNode ran = planned(ic.concurrency());
    if (planned.isArray() && ran.isNumber()) {
      boolean found = false;
      for (JsonNode c : planned) {
        found |= c.asDouble() == ran.asDouble();
      }
      if (!found) {
        diffs.add("concurrency: plan " + planned + ", ran " + ran);
      }
    }
    return diffs.isEmpty()
        ? AuditCheck.pass(
            id,
            "model, endpoint, streaming, shape, seed, warmup, count and load point"
                + " match the plan where both record them")
        : AuditCheck.fail(id, String.join("; ", diffs));
  }

  /**
   * A plan value as the JSON it is written as, to compare with input_config's and to quote in a
   * difference as it stands in the plan file; missing when the plan has none.
   */
  private static JsonNode planned(@Nullable Object value) {
    return value == null ? MissingNode.getInstance() : Json.JSON.valueToTree(value);
  }

  private static void differ(List<String> diffs, String field, JsonNode planned, JsonNode ran) {
    if (planned.isMissingNode() || planned.isNull() || ran.isMissingNode() || ran.isNull()) {
      return;
    }
    boolean same =
        (planned.isNumber() && ran.isNumber())
            ? planned.asDouble() == ran.asDouble()
            : planned.asString().equals(ran.asString());
    if (!same) {
      diffs.add(field + ": plan " + planned + ", ran " + ran);
    }
  }

  private static AuditCheck aiperfVersion(Facts f) {
    String id = "aiperf_version";
    String ran = f.aiperfExport() == null ? null : f.aiperfExport().aiperfVersion();
    String pinned =
        f.plan() == null || f.plan().plan() == null ? null : f.plan().plan().aiperf().version();
    if (ran == null) {
      return AuditCheck.notChecked(
          id,
          "the summary does not record aiperf_version"
              + (pinned == null ? "" : " (the plan pins " + pinned + ")"));
    }
    if (pinned != null && !pinned.equals(ran)) {
      return AuditCheck.fail(id, "AIPerf " + ran + " ran, the plan pins " + pinned);
    }
    return AuditCheck.pass(id, "AIPerf " + ran + (pinned == null ? "" : ", as the plan pins"));
  }

  private static AuditCheck cancelled(Facts f) {
    String id = "run_cancelled";
    boolean c = f.summaryRoot() != null && f.summaryRoot().path("was_cancelled").asBoolean(false);
    if (c) {
      return AuditCheck.fail(id, "AIPerf reports the run as cancelled (/was_cancelled true)");
    }
    if (f.scan() != null && f.scan().cancelled() > 0) {
      return AuditCheck.warn(id, f.scan().cancelled() + " profiling requests were cancelled");
    }
    return AuditCheck.pass(id, "not cancelled");
  }

  private static AuditCheck warmup(Facts f) {
    String id = "warmup_separated";
    if (f.scan() == null) {
      return AuditCheck.notChecked(
          id, "no per-request records (" + f.source().recordsFile().getFileName() + ")");
    }
    AiperfInputConfig ic = AiperfInputConfig.read(f.inputConfig());
    long expected = ic.warmupRequestCount() == null ? -1 : ic.warmupRequestCount();
    String detail =
        f.scan().warmup()
            + " warmup records excluded, "
            + f.scan().profiling()
            + " profiling records kept";
    if (expected > 0 && f.scan().warmup() == 0 && ic.layout() == AiperfInputConfig.Layout.PHASES) {
      // 0.9+ records only the profiling phase (its records manager drops the warmup's)
      return AuditCheck.pass(
          id,
          detail
              + "; the "
              + expected
              + " warmup requests ran in AIPerf's warmup phase, which it never exports");
    }
    if (expected > 0 && f.scan().warmup() == 0) {
      return AuditCheck.warn(
          id,
          detail
              + "; AIPerf was configured with "
              + expected
              + " warmup requests and none are in the records (trimmed or exported without warmup)");
    }
    return AuditCheck.pass(id, detail);
  }

  private static AuditCheck requestCounts(Facts f) {
    String id = "request_counts";
    AiperfExport e = f.used();
    long ok = e == null ? -1 : e.requestCount().map(BigDecimal::longValue).orElse(-1L);
    long failed = e == null ? 0 : e.errorRequestCount().longValue();
    Long configured = AiperfInputConfig.read(f.inputConfig()).requestCount();
    long expected = configured == null ? -1 : configured;
    StringBuilder sb = new StringBuilder();
    sb.append("summary: ")
        .append(ok < 0 ? "?" : ok)
        .append(" successful, ")
        .append(failed)
        .append(" failed");
    if (expected > 0) {
      sb.append(", ").append(expected).append(" configured");
    }
    List<String> warnings = new ArrayList<>();
    if (f.scan() != null) {
      RecordScan s = f.scan();
      sb.append("; records: ")
          .append(s.profiling())
          .append(" attempted, ")
          .append(s.successes())
          .append(" successful, ")
          .append(s.errors())
          .append(" failed, ")
          .append(s.cancelled())
          .append(" cancelled");
      if (!s.errorKinds().isEmpty()) {
        sb.append(" (").append(s.errorKinds()).append(")");
      }
      if (ok >= 0 && s.successes() < ok) {
        warnings.add(
            "per-request records hold "
                + s.successes()
                + " of "
                + ok
                + " successful requests (incomplete or trimmed): recomputed percentiles cover only them");
      }
      if (ok >= 0 && s.successes() > ok) {
        warnings.add(
            "per-request records hold "
                + s.successes()
                + " successful requests, the summary "
                + ok);
      }
    }
    if (expected > 0 && ok >= 0 && ok + failed < expected) {
      warnings.add("only " + (ok + failed) + " of " + expected + " configured requests completed");
    }
    if (failed > 0) {
      warnings.add(failed + " requests failed");
    }
    return warnings.isEmpty()
        ? AuditCheck.pass(id, sb.toString())
        : AuditCheck.warn(id, sb + "; " + String.join("; ", warnings));
  }

  /**
   * The run's error rate against the plan's limit (its {@code error_rate} gate, else 1%): the same
   * rule and code as {@code gate} ({@link ErrorRate}); over it, the run is invalid.
   */
  private static AuditCheck errorRate(Facts f) {
    String id = ERROR_RATE;
    AiperfExport e = f.used();
    if (e == null) {
      return AuditCheck.notChecked(id, "no summary");
    }
    BenchmarkPlan plan = f.plan() == null ? null : f.plan().plan();
    BigDecimal limit = ErrorRate.limit(plan == null ? null : plan.objectives().gates());
    ErrorRate s = ErrorRate.of(e, limit);
    if (s.rate() == null) {
      return AuditCheck.notChecked(
          id, "the summary has no request_count: the error rate cannot be computed");
    }
    String detail =
        ErrorRate.count(s.errors())
            + " of "
            + ErrorRate.count(s.total())
            + " requests failed ("
            + ErrorRate.percent(s.rate())
            + "), limit "
            + ErrorRate.percent(limit)
            + (plan == null
                ? " (the default: no plan)"
                : limit.compareTo(ExpectedErrors.DEFAULT_LIMIT) == 0
                    ? " (the default)"
                    : " (the plan's error_rate gate, benchmarking/expected-errors.md)");
    return s.over()
        ? AuditCheck.fail(id, detail + ": over the limit")
        : AuditCheck.pass(id, detail);
  }

  /** The error-rate check's id. */
  public static final String ERROR_RATE = "error_rate";

  private static AuditCheck shape(Facts f) {
    String id = "isl_osl_vs_workload";
    if (f.used() == null) {
      return AuditCheck.notChecked(id, "no summary");
    }
    AiperfInputConfig ic = AiperfInputConfig.read(f.inputConfig());
    BenchmarkPlan.Synthetic syn =
        f.plan() != null && f.plan().plan() != null ? f.plan().plan().workload().synthetic() : null;
    double isl = num(syn == null ? null : syn.isl(), ic.islMean());
    double osl = num(syn == null ? null : syn.osl(), ic.oslMean());
    if (Double.isNaN(isl) && Double.isNaN(osl)) {
      return AuditCheck.notChecked(
          id, "the workload's ISL/OSL are not recorded (trace or dataset workload)");
    }
    double aIsl =
        f.used()
            .metric("input_sequence_length")
            .flatMap(m -> m.stat("avg"))
            .map(BigDecimal::doubleValue)
            .orElse(Double.NaN);
    double aOsl =
        f.used()
            .metric("output_sequence_length")
            .flatMap(m -> m.stat("avg"))
            .map(BigDecimal::doubleValue)
            .orElse(Double.NaN);
    List<String> w = new ArrayList<>();
    String detail =
        String.format(
            Locale.ROOT,
            "ISL %s (workload %s), OSL %s (workload %s)",
            fmt(aIsl),
            fmt(isl),
            fmt(aOsl),
            fmt(osl));
    if (Double.isFinite(isl)
        && Double.isFinite(aIsl)
        && Math.abs(aIsl - isl) > SHAPE_TOLERANCE * isl) {
      w.add(String.format(Locale.ROOT, "ISL off by %.1f%%", (aIsl - isl) / isl * 100));
    }
    if (Double.isFinite(osl) && Double.isFinite(aOsl) && aOsl < (1 - SHAPE_TOLERANCE) * osl) {
      w.add(String.format(Locale.ROOT, "output-length shortfall %.1f%%", (osl - aOsl) / osl * 100));
    }
    return w.isEmpty()
        ? AuditCheck.pass(id, detail)
        : AuditCheck.warn(id, detail + "; " + String.join("; ", w));
  }

  /** The plan's value, else what AIPerf recorded, else NaN. */
  private static double num(@Nullable Integer planned, @Nullable Double recorded) {
    if (planned != null) {
      return planned;
    }
    return recorded == null ? Double.NaN : recorded;
  }

  private static String fmt(double d) {
    return Double.isNaN(d) ? "?" : String.format(Locale.ROOT, "%.1f", d);
  }

  private static AuditCheck timestamps(Facts f) {
    String id = "timestamps";
    if (f.scan() != null && f.scan().badTimestamps() > 0) {
      return AuditCheck.fail(
          id,
          f.scan().badTimestamps()
              + " records with bad timestamps, first "
              + f.scan().firstBadTimestamp());
    }
    String start =
        f.summaryRoot() == null ? null : f.summaryRoot().path("start_time").asString(null);
    String end = f.summaryRoot() == null ? null : f.summaryRoot().path("end_time").asString(null);
    if (start != null && end != null && end.compareTo(start) < 0) {
      return AuditCheck.fail(id, "end_time " + end + " precedes start_time " + start);
    }
    if (f.scan() == null && start == null) {
      return AuditCheck.notChecked(id, "no records and no start_time/end_time");
    }
    String span =
        f.scan() != null && f.scan().minStartNs() != null
            ? String.format(
                Locale.ROOT,
                "records span %.3f s",
                (Objects.requireNonNull(f.scan().maxEndNs()) - f.scan().minStartNs()) / 1e9)
            : "";
    return AuditCheck.pass(id, (start == null ? "" : start + " .. " + end + "; ") + span);
  }

  private static AuditCheck duplicates(Facts f) {
    String id = "duplicate_request_ids";
    if (f.scan() == null) {
      return AuditCheck.notChecked(id, "no per-request records");
    }
    return f.scan().duplicateIds() > 0
        ? AuditCheck.fail(
            id,
            f.scan().duplicateIds() + " duplicate request ids, first " + f.scan().firstDuplicate())
        : AuditCheck.pass(
            id, "no duplicate x_request_id among " + f.scan().profiling() + " records");
  }

  private static AuditCheck malformed(Facts f) {
    String id = "malformed_records";
    if (f.scan() == null) {
      return AuditCheck.notChecked(id, "no per-request records");
    }
    return f.scan().malformed() > 0
        ? AuditCheck.fail(
            id,
            f.scan().malformed()
                + " malformed lines in "
                + f.source().recordsFile().getFileName()
                + ", first "
                + f.scan().firstMalformed())
        : AuditCheck.pass(id, f.scan().lines() + " records parsed");
  }

  private static AuditCheck nonFinite(Facts f) {
    String id = "nan_inf";
    if (f.nonFinite() != null) {
      return AuditCheck.fail(
          id,
          f.source().summaryFile().getFileName() + ": " + f.nonFinite() + " is NaN or infinite");
    }
    if (f.scan() != null && f.scan().nonFinite() > 0) {
      return AuditCheck.fail(
          id,
          f.scan().nonFinite()
              + " NaN/infinite values in the records, first "
              + f.scan().firstNonFinite());
    }
    return AuditCheck.pass(id, "no NaN or infinite values");
  }

  private static AuditCheck units(Facts f) {
    String id = "units";
    List<String> problems = new ArrayList<>();
    if (f.aiperfExport() != null) {
      for (MetricSummary m : f.aiperfExport().metrics().values()) {
        if (m.parsedUnit().isEmpty() && problems.size() < 10) {
          problems.add(m.tag() + ": unit \"" + m.unit() + "\" unknown");
        }
      }
    }
    if (f.scan() != null) {
      problems.addAll(f.scan().unitProblems());
    }
    boolean inconsistent = problems.stream().anyMatch(p -> p.contains("differs from"));
    if (inconsistent) {
      return AuditCheck.fail(id, String.join("; ", problems));
    }
    return problems.isEmpty()
        ? AuditCheck.pass(id, "every unit known and consistent")
        : AuditCheck.warn(id, String.join("; ", problems) + " (reported, not converted)");
  }

  private static AuditCheck negatives(Facts f) {
    String id = "negative_values";
    if (f.aiperfExport() != null) {
      for (MetricSummary m : f.aiperfExport().metrics().values()) {
        for (var s : m.stats().entrySet()) {
          if (s.getValue().signum() < 0) {
            return AuditCheck.fail(
                id,
                f.source().summaryFile().getFileName()
                    + ": "
                    + m.pointer()
                    + "/"
                    + s.getKey()
                    + " = "
                    + s.getValue());
          }
        }
      }
    }
    if (f.scan() != null && f.scan().negative() > 0) {
      return AuditCheck.fail(
          id,
          f.scan().negative()
              + " negative values in the records, first "
              + f.scan().firstNegative());
    }
    return AuditCheck.pass(id, "no negative latency, count or rate");
  }

  private static AuditCheck manifest(Facts f) {
    String id = "manifest";
    Path dir = f.source().runJson() == null ? null : f.source().runJson().getParent();
    if (dir == null) {
      return AuditCheck.notChecked(id, "no manifest (a plain AIPerf directory)");
    }
    List<String> bad = new ArrayList<>();
    int checked = 0;
    // a run with run.json has it parsed
    Map<String, String> files = Objects.requireNonNull(f.source().runRecord()).artifacts().files();
    Path sums = dir.resolve(ArtifactManifest.FILE_NAME);
    if (Files.isRegularFile(sums)) {
      // verify's strict reader: malformed lines and files added after collection fail the audit
      try {
        ManifestListing listing = ManifestListing.read(sums);
        listing
            .problems()
            .forEach(
                p ->
                    bad.add(ArtifactManifest.FILE_NAME + " line " + p.line() + ": " + p.message()));
        for (Map.Entry<String, String> e : listing.files().entrySet()) {
          checked++;
          verify(dir.resolve(e.getKey()), e.getValue(), bad);
        }
        Set<String> elsewhere = new HashSet<>();
        elsewhere.addAll(files.keySet());
        elsewhere.add(RunLocator.RUN_JSON);
        listing
            .unlisted(dir, elsewhere)
            .forEach(
                u ->
                    bad.add(
                        u
                            + " is present but not listed in "
                            + ArtifactManifest.FILE_NAME
                            + " or run.json"));
      } catch (IOException e) {
        bad.add(ArtifactManifest.FILE_NAME + " unreadable: " + e.getMessage());
      }
    }
    for (Map.Entry<String, String> e : files.entrySet()) {
      checked++;
      verify(dir.resolve(e.getKey()), e.getValue(), bad);
    }
    if (checked == 0) {
      return AuditCheck.notChecked(
          id, "run.json lists no artifact hashes and there is no artifacts.sha256");
    }
    return bad.isEmpty()
        ? AuditCheck.pass(id, checked + " files match their recorded SHA-256")
        : AuditCheck.fail(id, String.join("; ", bad));
  }

  private static void verify(Path file, String expected, List<String> bad) {
    if (!Files.isRegularFile(file)) {
      bad.add(file.getFileName() + " is missing");
      return;
    }
    String actual = Sha256.ofFile(file);
    if (!actual.equalsIgnoreCase(expected)) {
      bad.add(file.getFileName() + " hashes to " + actual + ", recorded " + expected);
    }
  }

  /**
   * The load generator kept the load it was given (agent-docs/rules/benchmarking/client-bound.md):
   * a client-bound run is invalid, with the figures and the signal that fired.
   */
  private static AuditCheck clientBound(Facts f) {
    String id = "client_bound";
    if (f.diagnosis() == null || f.diagnosis().clientLoad() == null) {
      return AuditCheck.notChecked(id, "no per-request records");
    }
    ClientBoundCheck.Result r = f.diagnosis().clientLoad();
    return switch (r.status()) {
      case CLIENT_BOUND -> {
        var finding =
            Objects.requireNonNull(r.finding()); // a client-bound result names its finding
        yield AuditCheck.fail(
            id,
            finding.message()
                + " [signals: "
                + String.join(", ", finding.signals())
                + "; "
                + r.detail()
                + "]. Fix: "
                + finding.recommendation());
      }
      case NOT_JUDGED -> AuditCheck.notChecked(id, r.detail());
      case OK -> AuditCheck.pass(id, r.detail());
    };
  }

  private static AuditCheck percentiles(Facts f) {
    String id = "percentiles_recomputed";
    if (f.scan() == null || f.aiperfExport() == null) {
      return AuditCheck.notChecked(
          id, f.scan() == null ? "no per-request records" : "no AIPerf summary to compare with");
    }
    long ok = f.aiperfExport().requestCount().map(BigDecimal::longValue).orElse(-1L);
    if (f.scan().successes() != ok) {
      return AuditCheck.notChecked(
          id,
          "records hold "
              + f.scan().successes()
              + " of "
              + ok
              + " requests; recomputed percentiles (benchmark_summary.json) describe those only");
    }
    List<String> off = new ArrayList<>();
    for (String tag : List.of("time_to_first_token", "request_latency", "inter_token_latency")) {
      double[] v = f.scan().values(tag).sortedFinite();
      var m = f.aiperfExport().metric(tag);
      if (v.length == 0 || m.isEmpty()) {
        continue;
      }
      for (String p : List.of("p50", "p99")) {
        var reported = m.get().stat(p);
        if (reported.isEmpty()) {
          continue;
        }
        // HF7 of the sorted values (Commons Statistics' Quantile, without copy and selection)
        double mine =
            dev.benchplan.analysis.stats.BootstrapPercentiles.ofSorted(
                v, Integer.parseInt(p.substring(1)) / 100.0);
        double r = reported.get().doubleValue();
        if (Math.abs(mine - r) > SHAPE_TOLERANCE * Math.abs(r)) {
          off.add(String.format(Locale.ROOT, "%s %s: records %.4g, summary %.4g", tag, p, mine, r));
        }
      }
    }
    return off.isEmpty()
        ? AuditCheck.pass(
            id, "p50/p99 recomputed from the records agree with the summary within 5%")
        : AuditCheck.warn(id, String.join("; ", off));
  }
}
