package dev.benchplan.kube.run;

import dev.benchplan.artifacts.ArtifactManifest;
import dev.benchplan.gate.ReportTiming;
import dev.benchplan.gate.Verdict;
import dev.benchplan.gate.VerdictReports;
import dev.benchplan.runrecord.RunRecordDocument;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The end both engines share once the gate has spoken: the artifact manifest, the verdict's reports
 * (verdict.json, CTRF, JUnit), run.json built from the bytes of every file beside it and checked
 * against its schema, and the run directory published in one move.
 */
final class RunFinisher {
  private RunFinisher() {}

  /**
   * What an engine brings to the end of a run.
   *
   * @param dir the run directory to publish
   * @param tree the staged AIPerf tree, or null when none came back
   * @param manifest the tree's verified manifest (artifacts.sha256), or null without a tree
   * @param files the engine's own files (pod.log, profile_export_aiperf.json), in order
   * @param verdict the gate's verdict
   * @param start when the run began
   * @param collected when collection ended (the reports' end time)
   * @param replace whether an earlier directory of the run-id is moved aside
   * @param publishedAt when the directory is published
   */
  record Finish(
      RunDirectory dir,
      @Nullable Path tree,
      @Nullable ArtifactManifest manifest,
      Map<String, byte[]> files,
      Verdict verdict,
      Instant start,
      Instant collected,
      boolean replace,
      Instant publishedAt) {
    Finish {
      Objects.requireNonNull(dir, "dir");
      Objects.requireNonNull(verdict, "verdict");
      files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
    }
  }

  /** The published run directory and the run record written into it as run.json. */
  record Finished(Path runDir, RunRecordDocument record) {}

  /**
   * Writes the run: {@code record} builds run.json from every other file's bytes (their SHA-256 are
   * part of it).
   */
  static Finished finish(Finish f, Function<Map<String, byte[]>, RunRecordDocument> record) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    if (f.manifest() != null) {
      files.put(
          ArtifactManifest.FILE_NAME, f.manifest().sha256sumText(RunDirectory.AIPERF_DIR + "/"));
    }
    files.putAll(f.files());
    files.putAll(VerdictReports.render(f.verdict(), new ReportTiming(f.start(), f.collected())));
    RunRecordDocument doc = record.apply(Collections.unmodifiableMap(files));
    files.put("run.json", RunRecord.bytes(doc));
    Path written = f.dir().write(files, f.tree(), f.replace(), f.publishedAt());
    return new Finished(written, doc);
  }
}
