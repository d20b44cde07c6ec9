package dev.benchplan.gate;

import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.CanonicalJson;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

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

  /**
   * The verdict document's canonical bytes. Its shape is fixed by {@link VerdictDocument} and
   * checked against schemas/verdict.schema.json by the tests for every kind of verdict; validating
   * again at run time would load the schema validator on every gate (about 0.4 s of start-up).
   */
  public static byte[] verdictBytes(Verdict verdict) {
    return CanonicalJson.bytes(verdict.document());
  }

  /** Writes the three reports into {@code dir} (created when absent), all or none. */
  public static void write(Path dir, Verdict verdict, ReportTiming timing) {
    Map<Path, byte[]> files = new LinkedHashMap<>();
    render(verdict, timing).forEach((name, bytes) -> files.put(dir.resolve(name), bytes));
    AtomicFiles.writeAll(files);
  }
}
