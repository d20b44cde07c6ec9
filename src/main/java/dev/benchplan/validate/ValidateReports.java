package dev.benchplan.validate;

import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.CtrfReport;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.JunitReport;
import dev.benchplan.gate.ReportTiming;
import dev.benchplan.gate.RequestSummary;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.gate.VerdictReports;
import dev.benchplan.gate.VerdictSource;
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes a validate run's reports, all three or none: {@code verdict.json} (its {@link
 * ValidateVerdict}, schemas/validate-verdict.schema.json) and the gate's own CTRF and JUnit reports
 * ({@link CtrfReport}, {@link JunitReport}) on the gate's verdict — the benchmark's when it was
 * gated, otherwise the gate's error or skip verdict carrying validate's reason.
 */
public final class ValidateReports {
  /** AICR's check name, recorded as the verdict's {@code check}. */
  public static final String TEST_NAME = "inference-perf";

  /** File names: the gate's. */
  public static final String VERDICT = VerdictReports.VERDICT;

  public static final String CTRF = VerdictReports.CTRF;
  public static final String JUNIT = VerdictReports.JUNIT;

  private ValidateReports() {}

  /**
   * What was written.
   *
   * @param verdict the verdict with its report paths
   * @param paths the files by name ({@code verdict}, {@code ctrf}, {@code junit})
   */
  public record Written(ValidateVerdict verdict, Map<String, Path> paths) {
    public Written {
      Objects.requireNonNull(verdict, "verdict");
      paths = Map.copyOf(paths);
    }
  }

  /**
   * Writes the three reports into {@code dir}.
   *
   * @param doc validate's finished verdict; it gets the report paths, and the gate's verdict on the
   *     benchmark (null when it was not gated)
   * @param set the constraints requested
   */
  static Written write(Path dir, ValidateVerdictBuilder doc, ConstraintSet set) {
    Map<String, Path> paths = new LinkedHashMap<>();
    paths.put("verdict", dir.resolve(VERDICT));
    paths.put("ctrf", dir.resolve(CTRF));
    paths.put("junit", dir.resolve(JUNIT));
    doc.reports(
        new ValidateVerdict.Reports(
            paths.get("verdict").toAbsolutePath().toString(),
            paths.get("ctrf").toAbsolutePath().toString(),
            paths.get("junit").toAbsolutePath().toString()));
    ValidateVerdict verdict = doc.build();
    Verdict g = gateVerdict(verdict, doc.gate(), set);
    ReportTiming timing =
        new ReportTiming(
            Instant.parse(verdict.startedAt()),
            verdict.finishedAt() == null
                ? Instant.parse(verdict.startedAt())
                : Instant.parse(verdict.finishedAt()));
    Map<Path, byte[]> files = new LinkedHashMap<>();
    files.put(paths.get("verdict"), verdictBytes(verdict));
    files.put(paths.get("ctrf"), CanonicalJson.bytes(CtrfReport.toJson(g, timing)));
    files.put(paths.get("junit"), JunitReport.toXml(g, timing));
    AtomicFiles.writeAll(files);
    return new Written(verdict, paths);
  }

  /** The verdict document's bytes (Jackson at the file edge). */
  public static byte[] verdictBytes(ValidateVerdict verdict) {
    return (Json.JSON.writeValueAsString(verdict) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The gate verdict the CTRF and JUnit reports describe: the benchmark's own when validate's
   * verdict is the gate's; a skip when validate skipped; otherwise the gate's run-failed error with
   * validate's reason (e.g. a discovery error, or a cleanup that left objects behind).
   */
  static Verdict gateVerdict(ValidateVerdict v, @Nullable Verdict gate, ConstraintSet set) {
    if (gate != null && gate.verdict().json().equals(v.verdict())) {
      return gate;
    }
    VerdictSource source =
        gate != null
            ? gate.source()
            : VerdictSource.withoutExport("benchplan validate run " + v.runId(), null);
    if (Status.SKIP.json().equals(v.verdict())) {
      return new Verdict(
          Status.SKIP,
          "skip: " + v.reason(),
          List.of(),
          List.of(),
          set.source(),
          new RequestSummary(
              null,
              BigDecimal.ZERO,
              null,
              PerformanceRequest.GATE_OPTIONS.maxErrorRate(),
              Status.SKIP,
              List.of()),
          source,
          List.of());
    }
    String why =
        "validate "
            + v.verdict()
            + (v.failedStep() == null ? "" : " at step " + v.failedStep())
            + ": "
            + v.reason();
    return GateEvaluator.runFailed(why, set, PerformanceRequest.GATE_OPTIONS, source);
  }
}
