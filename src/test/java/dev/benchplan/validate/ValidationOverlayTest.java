package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.gate.Constraint;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidationOverlayTest {
  @TempDir Path dir;

  private Path write(String yaml) throws IOException {
    Path p = dir.resolve("overlay.yaml");
    Files.writeString(p, yaml);
    return p;
  }

  @Test
  @DisplayName(
      "AICR's real RecipeMetadata overlay: inference-perf listed, >= 5000 tok/s and <= 200 ms at 10%")
  void realAicrOverlay() {
    Path overlay =
        SharedData.require("aicr/pr641/recipes/overlays/h100-eks-ubuntu-inference-dynamo.yaml");
    PerformanceRequest r = ValidationOverlay.load(overlay);
    assertThat(r.runs()).isTrue();
    assertThat(r.checks()).containsExactly("inference-perf");
    assertThat(r.constraints())
        .extracting(Constraint::name, c -> c.operator().symbol(), c -> c.unit().text())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("inference-throughput", ">=", "tokens/sec"),
            org.assertj.core.groups.Tuple.tuple("inference-ttft-p99", "<=", "ms"));
    assertThat(r.constraints().get(0).threshold()).isEqualByComparingTo("5000");
    assertThat(r.constraints().get(1).threshold()).isEqualByComparingTo("200");
    assertThat(
            r.constraints().get(0).effectiveThreshold(PerformanceRequest.GATE_OPTIONS.tolerance()))
        .isEqualByComparingTo("4500");
    assertThat(
            r.constraints().get(1).effectiveThreshold(PerformanceRequest.GATE_OPTIONS.tolerance()))
        .isEqualByComparingTo("220");
  }

  @Test
  @DisplayName("the seed's top-level validation.performance with check inference-throughput runs")
  void seedForm() throws IOException {
    PerformanceRequest r =
        ValidationOverlay.load(
            write(
                """
        validation:
          performance:
            checks:
              - inference-throughput
            constraints:
              - name: inference-throughput
                value: ">= 5000"
              - name: inference-ttft-p99
                value: "<= 200"
        """));
    assertThat(r.runs()).isTrue();
    assertThat(r.constraints()).hasSize(2);
  }

  @Test
  @DisplayName("a check that is not listed skips, naming what is listed")
  void notListed() throws IOException {
    PerformanceRequest r =
        ValidationOverlay.load(
            write(
                """
        kind: RecipeMetadata
        spec:
          validation:
            performance:
              checks: [nccl-all-reduce-bw]
              constraints:
                - {name: inference-throughput, value: ">= 5000"}
        """));
    assertThat(r.runs()).isFalse();
    assertThat(r.skipReason())
        .contains("/spec/validation/performance/checks")
        .contains("nccl-all-reduce-bw");
  }

  @Test
  @DisplayName(
      "listed without any inference constraint skips (other checks' constraints are ignored)")
  void noConstraint() throws IOException {
    PerformanceRequest r =
        ValidationOverlay.load(
            write(
                """
        validation:
          performance:
            checks: [inference-perf]
            constraints:
              - {name: nccl-all-reduce-bw, value: ">= 100"}
        """));
    assertThat(r.runs()).isFalse();
    assertThat(r.skipReason()).contains("nothing to gate on");
  }

  @Test
  @DisplayName("one constraint is enough to run")
  void oneConstraint() throws IOException {
    PerformanceRequest r =
        ValidationOverlay.load(
            write(
                """
        validation: {performance: {checks: [inference-perf], constraints: [{name: inference-ttft-p99, value: "<=250.5"}]}}
        """));
    assertThat(r.runs()).isTrue();
    assertThat(r.constraints())
        .singleElement()
        .satisfies(c -> assertThat(c.threshold()).isEqualByComparingTo("250.5"));
  }

  @Test
  @DisplayName("no performance section: skip")
  void noSection() throws IOException {
    PerformanceRequest r =
        ValidationOverlay.load(
            write(
                """
        kind: RecipeMetadata
        spec:
          validation:
            deployment: {checks: [operator-health]}
        """));
    assertThat(r.runs()).isFalse();
    assertThat(r.skipReason()).contains("no /spec/validation/performance section");
  }

  @Test
  @DisplayName("throughput written with <= is invalid, naming the JSON pointer")
  void wrongOperatorThroughput() throws IOException {
    Path p =
        write(
            """
        validation:
          performance:
            checks: [inference-perf]
            constraints:
              - {name: inference-ttft-p99, value: "<= 200"}
              - {name: inference-throughput, value: "<= 5000"}
        """);
    assertThatThrownBy(() -> ValidationOverlay.load(p))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            p
                + ": /validation/performance/constraints/1: inference-throughput takes"
                + " only >= (as AICR requires), got <=")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
  }

  @Test
  @DisplayName("TTFT written with >= or without an operator is invalid")
  void wrongOperatorTtft() throws IOException {
    Path p1 =
        write(
            "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-ttft-p99, value: \">= 200\"}]}}");
    assertThatThrownBy(() -> ValidationOverlay.load(p1))
        .hasMessage(
            p1
                + ": /validation/performance/constraints/0: inference-ttft-p99 takes only"
                + " <= (as AICR requires), got >=");
    Path p2 =
        write(
            "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-ttft-p99, value: \"200\"}]}}");
    assertThatThrownBy(() -> ValidationOverlay.load(p2))
        .hasMessage(
            p2
                + ": /validation/performance/constraints/0/value: cannot parse '200':"
                + " expected an operator and a number, e.g. \">= 5000\" or \"<= 200\"");
  }

  @Test
  @DisplayName(
      "values are read by the gate's own reader: a unit is converted to the canonical one (0.2 s -> 200 ms)")
  void unitsThroughTheGateReader() throws IOException {
    PerformanceRequest r =
        ValidationOverlay.load(
            write(
                "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-ttft-p99, value: \"<= 0.2 s\"}]}}"));
    assertThat(r.constraints())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.threshold()).isEqualByComparingTo("200");
              assertThat(c.unit().text()).isEqualTo("ms");
            });
  }

  @Test
  @DisplayName("a number instead of a string, garbage, zero, duplicates: invalid with pointer")
  void badValues() throws IOException {
    Path p1 =
        write(
            "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-throughput, value: 5000}]}}");
    assertThatThrownBy(() -> ValidationOverlay.load(p1))
        .hasMessage(
            p1
                + ": /validation/performance/constraints/0/value: expected an expression"
                + " such as \">= 5000\" (a string), found the number 5000");
    Path p2 =
        write(
            "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-throughput, value: \">= lots\"}]}}");
    assertThatThrownBy(() -> ValidationOverlay.load(p2))
        .hasMessage(
            p2
                + ": /validation/performance/constraints/0/value: cannot parse '>= lots':"
                + " expected an operator and a number, e.g. \">= 5000\" or \"<= 200\"");
    Path p3 =
        write(
            "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-throughput, value: \">= 0\"}]}}");
    assertThatThrownBy(() -> ValidationOverlay.load(p3))
        .hasMessage(
            p3
                + ": /validation/performance/constraints/0/value: inference-throughput"
                + " needs a positive threshold, got 0");
    Path p4 =
        write(
            "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-throughput, value: \">= 1\"}, {name: inference-throughput, value: \">= 2\"}]}}");
    assertThatThrownBy(() -> ValidationOverlay.load(p4))
        .hasMessage(
            p4
                + ": /validation/performance/constraints/1/name: constraint"
                + " 'inference-throughput' is listed twice");
    Path p5 = write("validation: {performance: {checks: inference-perf}}");
    assertThatThrownBy(() -> ValidationOverlay.load(p5))
        .hasMessage(p5 + ": /validation/performance/checks: expected a list of check names");
  }

  @Test
  @DisplayName("missing file and broken YAML: exit 2 naming the file")
  void unreadable() throws IOException {
    Path missing = dir.resolve("nope.yaml");
    assertThatThrownBy(() -> ValidationOverlay.load(missing))
        .hasMessage(missing + ": recipe overlay not found");
    Path broken = write("validation: [unclosed");
    assertThatThrownBy(() -> ValidationOverlay.load(broken))
        .hasMessage(
            "recipe overlay "
                + broken
                + ":1:22: not valid YAML: expected ',' or ']', but got <stream end>"
                + " (while parsing a flow sequence that starts at line 1, column 13)")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
  }

  @Test
  @DisplayName("defaults: >= 5000 tok/s and TTFT p99 <= 200 ms, 10% tolerance")
  void defaults() {
    PerformanceRequest r = PerformanceRequest.defaults();
    assertThat(r.runs()).isTrue();
    assertThat(r.constraints())
        .extracting(
            c ->
                c.effectiveThreshold(PerformanceRequest.GATE_OPTIONS.tolerance())
                    .stripTrailingZeros()
                    .toPlainString())
        .containsExactly("4500", "220");
  }

  private static final String TYPO =
      """
      validation:
        performance:
          checks:
            - inference-throughput
          constraints:
            - name: inference-throughput
              value: ">= 5000"
            - name: inference-ttft-p95
              value: "<= 200"
            - name: nccl-all-reduce-bw
              value: ">= 100"
      """;

  @Test
  @DisplayName(
      "issue 36 item 6: validate refuses an unknown inference-* name (exit 2, the known names listed)")
  void unknownInferenceNameRefused() throws IOException {
    Path p = write(TYPO);
    assertThatThrownBy(() -> ValidationOverlay.load(p))
        .isInstanceOfSatisfying(
            BenchplanException.class, e -> assertThat(e.exitCode()).isEqualTo(2))
        .hasMessage(
            p
                + ": /validation/performance/constraints/1/name: unknown inference"
                + " constraint name 'inference-ttft-p95': "
                + "expected one of inference-throughput, inference-ttft-p99,"
                + " inference-throughput-per-gpu, inference-model,"
                + " inference-concurrency-per-gpu, inference-routing-mode,"
                + " inference-model-cache-storage-class, or <metric>-<stat> (e.g."
                + " time_to_first_token-p95); an overlay newer than benchplan:"
                + " --allow-unknown-constraints");
  }

  @Test
  @DisplayName(
      "issue 36 item 6: with --allow-unknown-constraints the unknown name is listed as ignored, the rest gated")
  void unknownInferenceNameAllowed() throws IOException {
    Path p = write(TYPO);
    PerformanceRequest r = ValidationOverlay.load(p, true);
    assertThat(r.runs()).isTrue();
    assertThat(r.constraints())
        .extracting(Constraint::name)
        .containsExactly("inference-throughput");
    assertThat(ValidationOverlay.settings(p).unknown())
        .containsExactly("inference-ttft-p95", "nccl-all-reduce-bw");
  }

  @Test
  @DisplayName("issue 36 item 6: other checks' names (nccl-*) alone stay ignored, not refused")
  void otherChecksNamesStayIgnored() throws IOException {
    Path p = write(TYPO.replace("inference-ttft-p95", "inference-ttft-p99"));
    PerformanceRequest r = ValidationOverlay.load(p);
    assertThat(r.constraints())
        .extracting(Constraint::name)
        .containsExactly("inference-throughput", "inference-ttft-p99");
    assertThat(ValidationOverlay.settings(p).unknown()).containsExactly("nccl-all-reduce-bw");
  }
}
