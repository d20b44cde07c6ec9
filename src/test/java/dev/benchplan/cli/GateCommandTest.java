package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class GateCommandTest {
  static final String OVERLAY = "aicr/pr641/recipes/overlays/h100-eks-ubuntu-inference-dynamo.yaml";

  @TempDir Path tmp;

  @Test
  @DisplayName(
      "real export + real AICR overlay: fail (exit 1), reports written, stdout JSON is the verdict.json document")
  void realFail() throws Exception {
    Path reports = tmp.resolve("reports");
    var r =
        CommandHarness.run(
                "gate",
                "--results",
                ExportVariants.real().toString(),
                "--constraints",
                SharedData.require(OVERLAY).toString(),
                "--report-dir",
                reports.toString(),
                "--format",
                "json")
            .expectExit(1);
    JsonNode out = Json.JSON.readTree(r.out());
    assertThat(out.get("verdict").asString()).isEqualTo("fail");
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(out)).isEmpty();
    // the same document as verdict.json (which is canonical: sorted keys), printed by the one
    // printer
    assertThat(out)
        .isEqualTo(
            Json.JSON.readTree(
                Files.readString(reports.resolve("verdict.json"), StandardCharsets.UTF_8)));
    assertThat(reports.resolve("ctrf-report.json")).exists();
    assertThat(reports.resolve("junit.xml")).exists();
  }

  @Test
  @DisplayName(
      "a typo in a gate name (inference-ttft-p95) is exit 2 naming the known names, nothing"
          + " gated or written; --allow-unknown-constraints lists it as ignored; nccl-* always ignored")
  void unknownInferenceName() throws Exception {
    Path overlay =
        Files.writeString(
            tmp.resolve("typo.yaml"),
            """
            kind: RecipeMetadata
            spec:
              validation:
                performance:
                  checks: [inference-perf]
                  constraints:
                    - {name: inference-throughput, value: ">= 50"}
                    - {name: inference-ttft-p95, value: "<= 30"}
                    - {name: nccl-all-reduce-bw, value: ">= 400"}
            """);
    Path reports = tmp.resolve("typo-reports");
    String[] args = {
      "gate",
      "--results",
      ExportVariants.real().toString(),
      "--constraints",
      overlay.toString(),
      "--report-dir",
      reports.toString()
    };
    var refused = CommandHarness.run(args).expectExit(2);
    assertThat(refused.err())
        .contains(
            overlay
                + ": /spec/validation/performance/constraints/1/name: unknown inference constraint"
                + " name 'inference-ttft-p95': expected one of inference-throughput,"
                + " inference-ttft-p99,")
        .contains("--allow-unknown-constraints");
    assertThat(reports).doesNotExist();
    String[] allowed = java.util.Arrays.copyOf(args, args.length + 1);
    allowed[args.length] = "--allow-unknown-constraints";
    var ok = CommandHarness.run(allowed).expectOk();
    assertThat(ok.out())
        .contains("ignored inference-ttft-p95 (unknown inference constraint name: ignored")
        .contains("ignored nccl-all-reduce-bw (not an inference performance constraint)");
  }

  @Test
  @DisplayName(
      "verdict.json names its source relative to the report directory: the same export and"
          + " reports in two directories give the same verdict.json, and no report holds an absolute path")
  void sourceRelativeToReportDir() throws Exception {
    byte[] first = null;
    for (Path root : new Path[] {tmp.resolve("cl1"), tmp.resolve("second/deeper")}) {
      Path export =
          Files.createDirectories(root.resolve("run")).resolve("profile_export_aiperf.json");
      Files.copy(ExportVariants.real(), export);
      Path reports = root.resolve("reports");
      CommandHarness.run(
              "gate",
              "--results",
              export.toString(),
              "--min-throughput",
              "50",
              "--report-dir",
              reports.toString())
          .expectOk();
      byte[] verdict = Files.readAllBytes(reports.resolve("verdict.json"));
      assertThat(Json.JSON.readTree(verdict).at("/source/path").asString())
          .isEqualTo("../run/profile_export_aiperf.json");
      for (String name : new String[] {"verdict.json", "ctrf-report.json", "junit.xml"}) {
        assertThat(Files.readString(reports.resolve(name), StandardCharsets.UTF_8))
            .as(name)
            .doesNotContain(tmp.toString());
      }
      if (first == null) {
        first = verdict;
      } else {
        assertThat(verdict).isEqualTo(first);
      }
    }
  }

  @Test
  @DisplayName("flags the run meets: pass (exit 0) with a readable text report")
  void passText() {
    var r =
        CommandHarness.run(
                "gate",
                "--results",
                ExportVariants.real().toString(),
                "--min-throughput",
                "50",
                "--max-ttft-p99",
                "35")
            .expectOk();
    assertThat(r.out())
        .startsWith("verdict: PASS\n")
        .contains(
            "pass  inference-throughput: output_token_throughput avg 50.0821 tokens/sec >= 45 (50 -10%)")
        .contains("pass  inference-ttft-p99: time_to_first_token p99 34.3443 ms <= 38.5 (35 +10%)")
        .contains("pass  request-error-rate: 0 of 64 requests failed (0%), max 1%");
    assertThat(r.err()).isEmpty();
  }

  @Test
  @DisplayName("--tolerance 0 turns a pass within 10% into a fail")
  void tolerance() {
    CommandHarness.run(
            "gate", "--results", ExportVariants.real().toString(), "--min-throughput", "55")
        .expectOk();
    CommandHarness.run(
            "gate",
            "--results",
            ExportVariants.real().toString(),
            "--min-throughput",
            "55",
            "--tolerance",
            "0")
        .expectExit(1);
  }

  @Test
  @DisplayName("no constraints: skip (exit 0)")
  void skip() {
    var r = CommandHarness.run("gate", "--results", ExportVariants.real().toString()).expectOk();
    assertThat(r.out()).startsWith("verdict: SKIP  skip: no constraints");
  }

  @Test
  @DisplayName("a missing TTFT (non-streaming run): error (exit 3)")
  void missingMetric() {
    ObjectNode t = ExportVariants.realTree();
    t.remove("time_to_first_token");
    Path f = ExportVariants.write(tmp, "nostream.json", t);
    var r =
        CommandHarness.run("gate", "--results", f.toString(), "--max-ttft-p99", "200")
            .expectExit(3);
    assertThat(r.out()).contains("verdict: ERROR").contains("time_to_first_token is absent");
  }

  @Test
  @DisplayName(
      "bad input is exit 2 with one line naming file and pointer, and no reports are written")
  void badInput() throws Exception {
    ObjectNode t = ExportVariants.realTree();
    ((ObjectNode) t.get("output_token_throughput")).put("unit", "tokens/fortnight");
    Path f = ExportVariants.write(tmp, "unit.json", t);
    Path reports = tmp.resolve("reports");
    var r =
        CommandHarness.run(
                "gate",
                "--results",
                f.toString(),
                "--min-throughput",
                "5000",
                "--report-dir",
                reports.toString())
            .expectExit(2);
    assertThat(r.err())
        .isEqualTo(
            "benchplan: "
                + f
                + ": /output_token_throughput/unit: unknown unit"
                + " 'tokens/fortnight' for output_token_throughput: expected a duration (ns, us, ms, s) or a rate"
                + " (tokens/sec, requests/sec); not guessing\n");
    assertThat(reports).doesNotExist();

    Path overlay =
        Files.writeString(
            tmp.resolve("o.yaml"),
            "validation:\n  performance:\n    constraints:\n      - {name: inference-ttft-p99, value: \">= 200\"}\n");
    var bad =
        CommandHarness.run(
                "gate",
                "--results",
                ExportVariants.real().toString(),
                "--constraints",
                overlay.toString())
            .expectExit(2);
    assertThat(bad.err())
        .contains(
            overlay + ": /validation/performance/constraints/0: inference-ttft-p99 takes only <=");

    CommandHarness.run(
            "gate",
            "--results",
            ExportVariants.real().toString(),
            "--constraints",
            overlay.toString(),
            "--min-throughput",
            "1")
        .expectExit(2);
    CommandHarness.run("gate", "--results", tmp.resolve("none.json").toString())
        .expectError(2, tmp.resolve("none.json") + ": AIPerf export not found");
    CommandHarness.run("gate", "--results", ExportVariants.real().toString(), "--tolerance", "1.5")
        .expectExit(2);
    CommandHarness.run(
            "gate", "--results", ExportVariants.real().toString(), "--min-throughput", "lots")
        .expectExit(2);
  }
}
