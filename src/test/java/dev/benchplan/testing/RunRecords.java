package dev.benchplan.testing;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.runrecord.RunRecordDocument;
import dev.benchplan.runrecord.RunRecordReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A complete run.json (schemas/run-record.schema.json) for tests that need a benchplan run
 * directory without a cluster: the fields a test sets, plausible values for the rest. Typed, so a
 * renamed field breaks here and in the one reader, not in every fixture.
 */
public final class RunRecords {
  private String runId = "20260101T000000Z-0000";
  private final String seriesId;
  private final String planPath;
  private final String planSha256;
  private String verdict = "pass";
  private String exitReason = "completed";
  private boolean eligible = true;
  private List<String> ineligibleReasons = List.of();
  private Map<String, String> files = new LinkedHashMap<>();
  private RunRecordDocument.@Nullable Pair pair;
  private RunRecordDocument.@Nullable Candidate candidate;

  private RunRecords(String seriesId, String planPath, String planSha256) {
    this.seriesId = seriesId;
    this.planPath = planPath;
    this.planSha256 = planSha256;
  }

  /** A passed, eligible run of {@code seriesId} naming the plan by path and SHA-256. */
  public static RunRecords of(String seriesId, String planPath, String planSha256) {
    return new RunRecords(seriesId, planPath, planSha256);
  }

  /** A run id of the schema's shape derived from {@code name} (e.g. the run folder's name). */
  public RunRecords runIdFrom(String name) {
    runId = "20260101T000000Z-" + Sha256.hex(name.getBytes(StandardCharsets.UTF_8)).substring(0, 4);
    return this;
  }

  public RunRecords verdict(String v) {
    verdict = v;
    return this;
  }

  public RunRecords exitReason(String r) {
    exitReason = r;
    return this;
  }

  public RunRecords ineligible(String... reasons) {
    eligible = false;
    ineligibleReasons = List.of(reasons);
    return this;
  }

  /** run.json's {@code /artifacts/files}: a file beside run.json and its SHA-256. */
  public RunRecords file(String name, String sha256) {
    files.put(name, sha256);
    return this;
  }

  public RunRecords pair(RunRecordDocument.@Nullable Pair p) {
    pair = p;
    return this;
  }

  public RunRecords candidate(RunRecordDocument.@Nullable Candidate c) {
    candidate = c;
    return this;
  }

  public RunRecordDocument build() {
    String t = "2026-01-01T00:00:00Z";
    String ns = "bench";
    return new RunRecordDocument(
        "1",
        runId,
        seriesId,
        "plan-1",
        new RunRecordDocument.FileRef(planPath, planSha256),
        new RunRecordDocument.FileRef("benchmark/perf.yaml", "0".repeat(64)),
        new RunRecordDocument.Cluster(null, null, ns),
        "http://frontend." + ns + ":8000",
        ns + "/dgd",
        new RunRecordDocument.Job("aiperf", "uid-1", null, List.of("Complete")),
        null,
        "aiperf:0.11.0",
        new RunRecordDocument.Aiperf("0.11.0", "aiperf:0.11.0", "0.11.0", null, null, true, 0),
        new RunRecordDocument.Times(t, t, null, null, null, t, t),
        new RunRecordDocument.Isolation(
            "http://frontend." + ns + ":8000",
            new RunRecordDocument.NamespaceCheck(ns, true, null),
            new RunRecordDocument.OtherBenchmarks("namespace", List.of()),
            new RunRecordDocument.DgdPods(ns, "dgd", List.of()),
            List.of(),
            new RunRecordDocument.Client(null, null),
            List.of(),
            List.of(),
            true),
        new RunRecordDocument.Artifacts("emptyDir", "pod-log-markers", "pod-log", files),
        exitReason,
        "test fixture",
        verdict,
        verdict.equals("fail") ? 1 : verdict.equals("error") ? 3 : 0,
        eligible,
        ineligibleReasons,
        true,
        null,
        pair,
        null,
        null,
        null,
        candidate);
  }

  /** Writes run.json into {@code dir} and reads it back through the one reader (schema-checked). */
  public RunRecordDocument write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(RunRecordReader.FILE_NAME);
    Files.writeString(file, Json.JSON.writeValueAsString(build()));
    return RunRecordReader.read(file);
  }
}
