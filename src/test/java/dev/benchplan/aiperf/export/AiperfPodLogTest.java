package dev.benchplan.aiperf.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AiperfPodLogTest {
  private static String realSummary() throws Exception {
    return new String(Files.readAllBytes(ExportVariants.real()), StandardCharsets.UTF_8);
  }

  private static String log(String summary, int exit) {
    return "waiting for /v1/models\nProfiling: 63/64 |#########| 98%\r\n"
        + AiperfPodLog.BEGIN
        + "\n"
        + summary
        + (summary.endsWith("\n") ? "" : "\n")
        + AiperfPodLog.END
        + "\n"
        + AiperfPodLog.exitLine(exit)
        + "\n";
  }

  @Test
  @DisplayName("the summary between the markers is the real export, unchanged, and parses")
  void summaryBlock() throws Exception {
    String real = realSummary();
    AiperfPodLog p = AiperfPodLog.parse(log(real, 0));
    assertThat(p.succeeded()).isTrue();
    assertThat(p.exitCode()).isZero();
    assertThat(p.summary().strip()).isEqualTo(real.strip());
    AiperfExport e = AiperfExportReader.parse(p.summaryBytes(), java.nio.file.Path.of("pod.log"));
    assertThat(e.metric("time_to_first_token")).isPresent();
    assertThat(p.tail()).endsWith(AiperfPodLog.exitLine(0));
  }

  @Test
  @DisplayName("a summary without a final newline glued to the end marker is still taken whole")
  void gluedEndMarker() throws Exception {
    String real = realSummary().strip();
    String log =
        AiperfPodLog.BEGIN
            + "\n"
            + real
            + AiperfPodLog.END
            + "\n"
            + AiperfPodLog.exitLine(0)
            + "\n";
    AiperfPodLog p = AiperfPodLog.parse(log);
    assertThat(p.summary().strip()).isEqualTo(real);
  }

  @Test
  @DisplayName(
      "no block, an unterminated block, an empty block, a missing exit line are each reported")
  void problems() {
    AiperfPodLog none =
        AiperfPodLog.parse("Traceback...\nConnectionError\n" + AiperfPodLog.exitLine(1) + "\n");
    assertThat(none.summary()).isNull();
    assertThat(none.summaryProblem()).contains("no AIPerf summary block");
    assertThat(none.exitCode()).isEqualTo(1);
    assertThat(none.succeeded()).isFalse();
    assertThat(none.tail()).contains("ConnectionError");

    AiperfPodLog open = AiperfPodLog.parse(AiperfPodLog.BEGIN + "\n{\"a\":\n");
    assertThat(open.summaryProblem()).contains("not terminated");
    assertThat(open.exitCode()).isNull();

    AiperfPodLog empty =
        AiperfPodLog.parse(
            AiperfPodLog.BEGIN + "\n" + AiperfPodLog.END + "\n" + AiperfPodLog.exitLine(0));
    assertThat(empty.summaryProblem()).contains("empty");
    assertThat(empty.succeeded()).isFalse();

    AiperfPodLog nonZero = AiperfPodLog.parse(log("{\"x\": {\"unit\": \"ms\", \"avg\": 1}}", 2));
    assertThat(nonZero.summary()).isNotNull();
    assertThat(nonZero.exitCode()).isEqualTo(2);
    assertThat(nonZero.succeeded()).isFalse();
  }

  @Test
  @DisplayName("the tail keeps the last 20 lines")
  void tail() {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 50; i++) {
      sb.append("line ").append(i).append('\n');
    }
    AiperfPodLog p = AiperfPodLog.parse(sb.toString());
    assertThat(p.tail().split("\n")).hasSize(20).startsWith("line 31").endsWith("line 50");
  }

  @Test
  @DisplayName("the latest progress line drops ANSI escapes, carriage-return redraws and markers")
  void progress() {
    String chunk =
        "Profiling: 10%\rProfiling: \u001b[32m55%\u001b[0m |#####     |\n"
            + AiperfPodLog.exitLine(0)
            + "\n";
    assertThat(AiperfPodLog.latestProgressLine(chunk)).isEqualTo("Profiling: 55% |#####     |");
    assertThat(AiperfPodLog.latestProgressLine("\n\n")).isNull();
  }

  @Test
  @DisplayName(
      "the progress tracker joins lines split across chunks and never reports the summary JSON")
  void tracker() throws Exception {
    AiperfPodLog.ProgressTracker t = new AiperfPodLog.ProgressTracker();
    assertThat(t.latest()).isNull();
    t.accept("Profiling: 8/6");
    assertThat(t.latest()).isEqualTo("Profiling: 8/6");
    t.accept("4 |#       | 12%\nProfiling: 64/64 |########| 100%\n");
    assertThat(t.latest()).isEqualTo("Profiling: 64/64 |########| 100%");
    String log = log(realSummary(), 0);
    String summaryPart = log.substring(log.indexOf(AiperfPodLog.BEGIN));
    for (int i = 0; i < summaryPart.length(); i += 7) {
      t.accept(summaryPart.substring(i, Math.min(summaryPart.length(), i + 7)));
    }
    assertThat(t.latest()).isEqualTo("Profiling: 64/64 |########| 100%");
    t.accept("after the block\n");
    assertThat(t.latest()).isEqualTo("after the block");
  }
}
