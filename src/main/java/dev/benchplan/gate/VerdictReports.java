package dev.benchplan.gate;

import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.SchemaValidator;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The report files of a verdict: {@value #VERDICT}, {@value #CTRF} and {@value #JUNIT}, written
 * together so that a reader sees all three or none.
 */
public final class VerdictReports {
  /** The verdict document (schemas/verdict.schema.json). */
  public static final String VERDICT = "verdict.json";
  /** The CTRF report. */
  public static final String CTRF = "ctrf-report.json";
  /** The JUnit XML report. */
  public static final String JUNIT = "junit.xml";

  private VerdictReports() {}

  /** The three files' names and bytes, in a fixed order (for callers that write them elsewhere). */
  public static Map<String, byte[]> render(Verdict verdict, ReportTiming timing) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put(VERDICT, verdictBytes(verdict));
    files.put(CTRF, CanonicalJson.bytes(CtrfReport.toJson(verdict, timing)));
    files.put(JUNIT, JunitReport.toXml(verdict, timing));
    return files;
  }

  /** The verdict document's canonical bytes, checked against its schema. */
  public static byte[] verdictBytes(Verdict verdict) {
    ObjectNode json = verdict.toJson();
    List<SchemaValidator.Problem> problems = SchemaValidator.bundled("verdict.schema.json").validate(json);
    if (!problems.isEmpty()) {
      // the verdict is built by this package: a mismatch is a bug here, not bad input
      throw new IllegalStateException("verdict does not match verdict.schema.json: " + problems);
    }
    return CanonicalJson.bytes(json);
  }

  /** Writes the three reports into {@code dir} (created when absent), all or none. */
  public static void write(Path dir, Verdict verdict, ReportTiming timing) {
    Map<Path, byte[]> files = new LinkedHashMap<>();
    render(verdict, timing).forEach((name, bytes) -> files.put(dir.resolve(name), bytes));
    AtomicFiles.writeAll(files);
  }
}
