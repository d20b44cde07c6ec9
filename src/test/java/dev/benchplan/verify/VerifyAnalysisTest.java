package dev.benchplan.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import dev.benchplan.testing.TestFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code verify} on what analyze and compare wrote from the real 3-point sweep (copied into the
 * test's folder, never into the project): verified as written; an edited document, an input changed
 * after the analysis: each named with its pointer, exit 1.
 */
class VerifyAnalysisTest {
  @TempDir Path tmp;

  Path sweep() throws Exception {
    Path copy = tmp.resolve("sweep-qwen3-0.6b");
    TestFiles.copyTree(SharedData.require("aiperf/sweep-qwen3-0.6b"), copy);
    return copy;
  }

  @Test
  @DisplayName(
      "analyze of the real sweep verifies (documents recomputed, history from the findings log);"
          + " an edited verdict and a changed summary are named")
  void analysis() throws Exception {
    Path sweep = sweep();
    Path exp = tmp.resolve("exp");
    Path first = tmp.resolve("an1");
    Path second = tmp.resolve("an2");
    CommandHarness.run(
            "analyze",
            sweep.toString(),
            "--exp-root",
            exp.toString(),
            "--report-dir",
            first.toString(),
            "--slo",
            "time_to_first_token.p99<=40")
        .expectOk();
    // a second analysis of the same runs has the first in its history: recomputed from the log's
    // earlier lines
    CommandHarness.run(
            "analyze",
            sweep.toString(),
            "--exp-root",
            exp.toString(),
            "--report-dir",
            second.toString(),
            "--slo",
            "time_to_first_token.p99<=40")
        .expectOk();
    for (Path an : java.util.List.of(first, second)) {
      var ok = CommandHarness.run("verify", an.toString()).expectOk();
      assertThat(ok.out())
          .contains("verified: analysis " + an)
          .contains("recomputed from the inputs");
    }

    Path doc = second.resolve("performance_analysis.json");
    var tree = (tools.jackson.databind.node.ObjectNode) Json.JSON.readTree(Files.readAllBytes(doc));
    String verdict = tree.get("verdict").asString();
    tree.put("verdict", "regressed");
    Files.write(doc, dev.benchplan.json.CanonicalJson.bytes(tree));
    var edited = CommandHarness.run("verify", second.toString()).expectExit(1);
    assertThat(edited.out())
        .contains(
            doc
                + " /verdict: recomputed from the inputs: recorded \"regressed\","
                + " recomputed \""
                + verdict
                + "\"")
        .contains("performance_findings.jsonl /: no line records this analysis")
        .contains("repeat_decision.json /source/analysis_sha256: ");

    Path summary = sweep.resolve("concurrency2/profile_export_aiperf.json");
    Files.writeString(summary, Files.readString(summary) + " ");
    var changed = CommandHarness.run("verify", first.toString(), "--format", "json").expectExit(1);
    JsonNode out = Json.JSON.readTree(changed.out());
    assertThat(out.at("/findings/0/pointer").asString()).isEqualTo("/inputs/1/files/0/sha256");
    assertThat(out.at("/findings/0/message").asString()).contains(summary + " changed: recorded ");
  }

  @Test
  @DisplayName(
      "compare of two runs against two verifies; an edited effect verdict and a foreign"
          + " repeat decision are named")
  void comparison() throws Exception {
    Path point = SharedData.require("aiperf/sweep-qwen3-0.6b/concurrency2");
    for (String side : java.util.List.of("ref/a", "ref/b", "cand/a", "cand/b")) {
      TestFiles.copyTree(point, tmp.resolve(side));
    }
    Path cmp = tmp.resolve("cmp");
    CommandHarness.run(
        "compare",
        "--reference",
        tmp.resolve("ref/a").toString(),
        tmp.resolve("ref/b").toString(),
        "--candidate",
        tmp.resolve("cand/a").toString(),
        tmp.resolve("cand/b").toString(),
        "--mde",
        "5",
        "--report-dir",
        cmp.toString());
    var ok = CommandHarness.run("verify", cmp.toString()).expectOk();
    assertThat(ok.out()).contains("verified: comparison " + cmp);

    Path doc = cmp.resolve("comparison.json");
    JsonNode before = Json.JSON.readTree(Files.readAllBytes(doc));
    String verdict = before.at("/metrics/0/verdict").asString();
    String text = Files.readString(doc);
    int at = text.indexOf("\"verdict\": \"" + verdict + "\"");
    Files.writeString(
        doc,
        text.substring(0, at)
            + "\"verdict\": \"improved\""
            + text.substring(at + ("\"verdict\": \"" + verdict + "\"").length()));
    var edited = CommandHarness.run("verify", cmp.toString()).expectExit(1);
    assertThat(edited.out())
        .contains(
            doc
                + " /metrics/0/verdict: recomputed from the inputs: recorded"
                + " \"improved\", recomputed \""
                + verdict
                + "\"")
        .contains(cmp.resolve("repeat_decision.json") + " /source/analysis_sha256: records ");
  }
}
