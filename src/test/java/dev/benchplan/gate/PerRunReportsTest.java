package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;

/**
 * CTRF and JUnit of a verdict over several measured runs: one test per (load point, repetition,
 * constraint), named {@code concurrency=<c>/repetition=<n>/<constraint>}, on the real sweep laid
 * out as AIPerf's sweep writes it.
 */
class PerRunReportsTest {
  @TempDir Path tmp;

  private Verdict gridVerdict() throws Exception {
    Path sweep = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path tree = Files.createTempDirectory(tmp, "tree");
    for (int c : new int[] {1, 2, 4}) {
      Path to = Files.createDirectories(tree.resolve("concurrency_" + c));
      try (Stream<Path> s = Files.list(sweep.resolve("concurrency" + c))) {
        for (Path f : s.toList()) {
          Files.copy(f, to.resolve(f.getFileName().toString()));
        }
      }
    }
    // throughput >= 100 tokens/s holds at concurrency 2 and 4, not 1 (real figures ~55, ~110, ~210)
    ConstraintSet gates = ConstraintReader.fromFlags(new BigDecimal("100"), new BigDecimal("1000"));
    RunVerdicts runs = RunVerdicts.gateTree(tree, gates, GateOptions.defaults());
    return runs.overall(tree.toString()).withRuns(runs);
  }

  @Test
  @DisplayName(
      "a 3-point grid: one CTRF test and one JUnit testcase per point, repetition and constraint, stable names, per-run statuses")
  void perRunTests() throws Exception {
    Verdict v = gridVerdict();
    ReportTiming timing =
        new ReportTiming(
            Instant.parse("2026-12-02T03:00:00Z"), Instant.parse("2026-12-02T03:10:00Z"));
    JsonNode ctrf = CtrfReport.toJson(v, timing);
    List<String> names = new ArrayList<>();
    ctrf.at("/results/tests").forEach(t -> names.add(t.get("name").asString()));
    assertThat(names)
        .contains(
            "concurrency=1/repetition=1/inference-throughput",
            "concurrency=2/repetition=1/inference-throughput",
            "concurrency=4/repetition=1/inference-ttft-p99");
    assertThat(names).hasSize(3 * (names.size() / 3)).doesNotHaveDuplicates();
    assertThat(names)
        .allSatisfy(n -> assertThat(n).matches("concurrency=[124]/repetition=1/[a-z0-9-]+"));
    JsonNode c1 = find(ctrf, "concurrency=1/repetition=1/inference-throughput");
    assertThat(c1.get("status").asString()).as(c1.toString()).isEqualTo("failed");
    assertThat(c1.get("message").asString()).startsWith("concurrency 1: ");
    assertThat(
            find(ctrf, "concurrency=4/repetition=1/inference-throughput").get("status").asString())
        .isEqualTo("passed");
    assertThat(ctrf.at("/results/summary/tests").asInt()).isEqualTo(names.size());
    assertThat(ctrf.at("/results/summary/failed").asInt()).isEqualTo(1);
    // the same names again: stable
    List<String> again = new ArrayList<>();
    CtrfReport.toJson(gridVerdict(), timing)
        .at("/results/tests")
        .forEach(t -> again.add(t.get("name").asString()));
    assertThat(again).isEqualTo(names);

    var doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(JunitReport.toXml(v, timing)));
    NodeList cases = doc.getElementsByTagName("testcase");
    List<String> junit = new ArrayList<>();
    for (int i = 0; i < cases.getLength(); i++) {
      junit.add(((Element) cases.item(i)).getAttribute("name"));
    }
    assertThat(junit).isEqualTo(names);
    assertThat(doc.getElementsByTagName("failure").getLength()).isEqualTo(1);
  }

  @Test
  @DisplayName("an overall error no run shows (a planned run missing) adds the benchplan-gate test")
  void overallErrorKept() throws Exception {
    Verdict grid = gridVerdict();
    Verdict error =
        GateEvaluator.runFailed(
                "the Job planned 4 measured run(s), AIPerf's tree holds 3",
                ConstraintReader.fromFlags(new BigDecimal("100"), new BigDecimal("1000")),
                GateOptions.defaults(),
                VerdictSource.withoutExport("tree", null))
            .withRuns(grid.runs());
    JsonNode ctrf =
        CtrfReport.toJson(error, new ReportTiming(Instant.EPOCH, Instant.EPOCH.plusSeconds(1)));
    JsonNode gate = find(ctrf, CtrfReport.GATE_TEST);
    assertThat(gate.get("rawStatus").asString()).isEqualTo("error");
    assertThat(gate.get("message").asString()).contains("AIPerf's tree holds 3");
  }

  private static JsonNode find(JsonNode ctrf, String name) {
    for (JsonNode t : ctrf.at("/results/tests")) {
      if (t.get("name").asString().equals(name)) {
        return t;
      }
    }
    throw new AssertionError(name + " not in " + Json.JSON.writeValueAsString(ctrf));
  }
}
