package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.error.BenchplanException;
import java.math.BigDecimal;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

class GateEvaluatorTest {
  static final BigDecimal TP = new BigDecimal("5000");
  static final BigDecimal TTFT = new BigDecimal("200");

  @TempDir Path tmp;

  private AiperfExport export(ObjectNode tree) {
    return AiperfExportReader.read(
        ExportVariants.write(tmp, "e" + System.nanoTime() + ".json", tree));
  }

  private static GateOptions options(String tolerance) {
    return new GateOptions(new BigDecimal(tolerance), GateOptions.DEFAULT_MAX_ERROR_RATE);
  }

  @Test
  @DisplayName(
      "the real export against the real AICR thresholds: throughput fails, TTFT passes -> fail")
  void realExportRealThresholds() {
    AiperfExport e = AiperfExportReader.read(ExportVariants.real());
    Verdict v =
        GateEvaluator.evaluate(e, ConstraintReader.fromFlags(TP, TTFT), GateOptions.defaults());
    assertThat(v.verdict()).isEqualTo(Status.FAIL);
    assertThat(v.exitCode()).isEqualTo(1);
    ConstraintResult tp = v.constraints().get(0);
    assertThat(tp.status()).isEqualTo(Status.FAIL);
    assertThat(tp.measured()).isEqualByComparingTo("50.08213863971112");
    assertThat(tp.effectiveThreshold()).isEqualByComparingTo("4500");
    ConstraintResult ttft = v.constraints().get(1);
    assertThat(ttft.status()).isEqualTo(Status.PASS);
    assertThat(ttft.measured()).isEqualByComparingTo("34.344268879999994");
    assertThat(ttft.effectiveThreshold()).isEqualByComparingTo("220");
    assertThat(v.requests().total()).isEqualByComparingTo("64");
    assertThat(v.requests().errorRate()).isEqualByComparingTo("0");
    assertThat(v.message()).startsWith("fail: inference-throughput");
    assertThat(v.source().sha256())
        .isEqualTo("0b0c9470370c8cc585eae787523f0ef1eb811c596ddad81a7b348c26ac2bf0f0");
  }

  @Test
  @DisplayName("the real export against thresholds it meets -> pass (exit 0)")
  void realExportPasses() {
    AiperfExport e = AiperfExportReader.read(ExportVariants.real());
    Verdict v =
        GateEvaluator.evaluate(
            e,
            ConstraintReader.fromFlags(new BigDecimal("50"), new BigDecimal("35")),
            GateOptions.defaults());
    assertThat(v.verdict()).isEqualTo(Status.PASS);
    assertThat(v.exitCode()).isZero();
    assertThat(v.message())
        .isEqualTo("pass: 2 of 2 constraints met; 0 of 64 requests failed (max 1%)");
  }

  @ParameterizedTest(name = "[{index}] {0} tolerance {1}: {3} {2} -> {4}")
  @DisplayName(
      "exact boundaries: throughput passes at (1-t) x 5000 and fails just below; TTFT passes at (1+t) x 200 and fails just above")
  @CsvSource({
    // throughput floor 5000 tokens/sec
    "inference-throughput, 0.10, tokens/sec, 4500, pass",
    "inference-throughput, 0.10, tokens/sec, 4499.999999999999, fail",
    "inference-throughput, 0.10, tokens/sec, 4500.000000000001, pass",
    "inference-throughput, 0, tokens/sec, 5000, pass",
    "inference-throughput, 0, tokens/sec, 4999.999999999999, fail",
    "inference-throughput, 0.05, tokens/sec, 4750, pass",
    "inference-throughput, 0.05, tokens/sec, 4749.99, fail",
    // the same boundaries written in other throughput units
    "inference-throughput, 0.10, tokens/ms, 4.5, pass",
    "inference-throughput, 0.10, tokens/ms, 4.499999, fail",
    "inference-throughput, 0.10, tokens/min, 270000, pass",
    "inference-throughput, 0.10, tokens/min, 269999.99, fail",
    "inference-throughput, 0, tokens/s, 5000, pass",
    // TTFT p99 ceiling 200 ms
    "inference-ttft-p99, 0.10, ms, 220, pass",
    "inference-ttft-p99, 0.10, ms, 220.000000000001, fail",
    "inference-ttft-p99, 0.10, ms, 219.999999999999, pass",
    "inference-ttft-p99, 0, ms, 200, pass",
    "inference-ttft-p99, 0, ms, 200.000000000001, fail",
    // the same boundaries in ns, us and s
    "inference-ttft-p99, 0.10, ns, 220000000, pass",
    "inference-ttft-p99, 0.10, ns, 220000001, fail",
    "inference-ttft-p99, 0.10, us, 220000, pass",
    "inference-ttft-p99, 0.10, us, 220000.001, fail",
    "inference-ttft-p99, 0.10, s, 0.22, pass",
    "inference-ttft-p99, 0.10, s, 0.220000000001, fail",
    "inference-ttft-p99, 0, sec, 0.2, pass",
    "inference-ttft-p99, 0, sec, 0.2000001, fail",
  })
  void boundaries(String name, String tolerance, String unit, String value, String expected) {
    ObjectNode t = ExportVariants.realTree();
    boolean throughput = name.equals("inference-throughput");
    String tag = throughput ? "output_token_throughput" : "time_to_first_token";
    ExportVariants.withUnit(t, tag, unit, BigDecimal.ONE);
    ExportVariants.withStat(t, tag, throughput ? "avg" : "p99", value);
    ConstraintSet set =
        throughput ? ConstraintReader.fromFlags(TP, null) : ConstraintReader.fromFlags(null, TTFT);
    Verdict v = GateEvaluator.evaluate(export(t), set, options(tolerance));
    assertThat(v.constraints().get(0).status().json()).isEqualTo(expected);
    assertThat(v.verdict().json()).isEqualTo(expected);
    assertThat(v.constraints().get(0).exportUnit()).isEqualTo(unit);
  }

  @ParameterizedTest(name = "TTFT in {0}")
  @DisplayName("the real run rewritten in each time unit measures the same TTFT p99 in ms")
  @CsvSource({"ns, 1000000", "us, 1000", "s, 0.001", "sec, 0.001", "ms, 1"})
  void eachTimeUnit(String unit, String factor) {
    ObjectNode t =
        ExportVariants.withUnit(
            ExportVariants.realTree(), "time_to_first_token", unit, new BigDecimal(factor));
    Verdict v =
        GateEvaluator.evaluate(
            export(t), ConstraintReader.fromFlags(null, TTFT), GateOptions.defaults());
    assertThat(v.constraints().get(0).measured()).isEqualByComparingTo("34.344268879999994");
    assertThat(v.constraints().get(0).unit()).isEqualTo("ms");
    assertThat(v.verdict()).isEqualTo(Status.PASS);
  }

  @ParameterizedTest(name = "throughput in {0}")
  @DisplayName("the real run rewritten in each throughput unit measures the same tokens/sec")
  @CsvSource({"tokens/ms, 0.001", "tokens/s, 1", "tokens/min, 60"})
  void eachThroughputUnit(String unit, String factor) {
    ObjectNode t =
        ExportVariants.withUnit(
            ExportVariants.realTree(), "output_token_throughput", unit, new BigDecimal(factor));
    Verdict v =
        GateEvaluator.evaluate(
            export(t),
            ConstraintReader.fromFlags(new BigDecimal("50"), null),
            GateOptions.defaults());
    assertThat(v.constraints().get(0).measured()).isEqualByComparingTo("50.08213863971112");
    assertThat(v.verdict()).isEqualTo(Status.PASS);
  }

  @Test
  @DisplayName("each layout of the same run gives the same verdict")
  void eachLayout() {
    ConstraintSet set = ConstraintReader.fromFlags(new BigDecimal("50"), new BigDecimal("35"));
    Verdict top =
        GateEvaluator.evaluate(
            AiperfExportReader.read(ExportVariants.real()), set, GateOptions.defaults());
    Verdict records =
        GateEvaluator.evaluate(
            export(ExportVariants.asRecordsLayout(ExportVariants.realTree())),
            set,
            GateOptions.defaults());
    Verdict versioned =
        GateEvaluator.evaluate(
            export(ExportVariants.asVersionedLayout(ExportVariants.realTree(), "0.13.0")),
            set,
            GateOptions.defaults());
    for (Verdict v : new Verdict[] {top, records, versioned}) {
      assertThat(v.verdict()).isEqualTo(Status.PASS);
      assertThat(v.constraints())
          .extracting(ConstraintResult::measured)
          .usingElementComparator(BigDecimal::compareTo)
          .containsExactly(
              new BigDecimal("50.08213863971112"), new BigDecimal("34.344268879999994"));
    }
    assertThat(records.source().layout()).isEqualTo("records");
    assertThat(versioned.source().layout()).isEqualTo("versioned");
    assertThat(versioned.source().aiperfVersion()).isEqualTo("0.13.0");
  }

  @Test
  @DisplayName("TTFT absent (a non-streaming run) is an error, never a pass")
  void missingMetric() {
    ObjectNode t = ExportVariants.realTree();
    t.remove("time_to_first_token");
    Verdict v =
        GateEvaluator.evaluate(
            export(t),
            ConstraintReader.fromFlags(new BigDecimal("50"), TTFT),
            GateOptions.defaults());
    assertThat(v.verdict()).isEqualTo(Status.ERROR);
    assertThat(v.exitCode()).isEqualTo(3);
    assertThat(v.constraints().get(0).status()).isEqualTo(Status.PASS);
    ConstraintResult ttft = v.constraints().get(1);
    assertThat(ttft.status()).isEqualTo(Status.ERROR);
    assertThat(ttft.measured()).isNull();
    assertThat(ttft.message()).contains("time_to_first_token is absent").contains("streaming");
  }

  @Test
  @DisplayName("a gated stat that is null is an error; error outranks fail")
  void nullStatOutranksFail() {
    ObjectNode t = ExportVariants.realTree();
    ((ObjectNode) t.get("time_to_first_token")).putNull("p99");
    Verdict v =
        GateEvaluator.evaluate(
            export(t), ConstraintReader.fromFlags(TP, TTFT), GateOptions.defaults());
    assertThat(v.constraints().get(0).status()).isEqualTo(Status.FAIL);
    assertThat(v.constraints().get(1).status()).isEqualTo(Status.ERROR);
    assertThat(v.constraints().get(1).message()).contains("/time_to_first_token/p99");
    assertThat(v.verdict()).isEqualTo(Status.ERROR);
  }

  @Test
  @DisplayName("failed requests above --max-error-rate fail the gate; exactly at it passes")
  void errorRate() {
    ObjectNode t = ExportVariants.realTree();
    ExportVariants.withStat(t, "request_count", "avg", "99");
    t.putObject("error_request_count").put("unit", "requests").put("avg", 1.0);
    ObjectNode entry = t.putArray("error_summary").addObject();
    entry
        .putObject("error_details")
        .put("code", 500)
        .put("type", "InternalServerError")
        .put("message", "boom");
    entry.put("count", 1);
    ConstraintSet ok = ConstraintReader.fromFlags(new BigDecimal("50"), new BigDecimal("35"));
    Verdict atMax = GateEvaluator.evaluate(export(t), ok, GateOptions.defaults());
    assertThat(atMax.requests().errorRate()).isEqualByComparingTo("0.01");
    assertThat(atMax.requests().total()).isEqualByComparingTo("100");
    assertThat(atMax.verdict()).isEqualTo(Status.PASS);

    ExportVariants.withStat(t, "error_request_count", "avg", "2");
    ((ObjectNode) t.get("error_summary").get(0)).put("count", 2);
    Verdict above = GateEvaluator.evaluate(export(t), ok, GateOptions.defaults());
    assertThat(above.verdict()).isEqualTo(Status.FAIL);
    assertThat(above.requests().status()).isEqualTo(Status.FAIL);
    assertThat(above.message())
        .contains("request error rate")
        .contains("2 of 101")
        .contains("500 InternalServerError: boom");
    assertThat(above.constraints()).allMatch(c -> c.status() == Status.PASS);

    Verdict looser =
        GateEvaluator.evaluate(
            export(t), ok, new GateOptions(GateOptions.DEFAULT_TOLERANCE, new BigDecimal("0.02")));
    assertThat(looser.verdict()).isEqualTo(Status.PASS);
  }

  @Test
  @DisplayName("a cancelled run is an error even when every number passes")
  void cancelled() {
    ObjectNode t = ExportVariants.realTree();
    t.put("was_cancelled", true);
    Verdict v =
        GateEvaluator.evaluate(
            export(t),
            ConstraintReader.fromFlags(new BigDecimal("50"), null),
            GateOptions.defaults());
    assertThat(v.constraints().get(0).status()).isEqualTo(Status.PASS);
    assertThat(v.verdict()).isEqualTo(Status.ERROR);
    assertThat(v.message()).contains("cancelled");
    assertThat(v.source().wasCancelled()).isTrue();
  }

  @Test
  @DisplayName("no constraints: skip (exit 0), with the request accounting still reported")
  void skip() {
    Verdict v =
        GateEvaluator.evaluate(
            AiperfExportReader.read(ExportVariants.real()),
            ConstraintSet.none("flags"),
            GateOptions.defaults());
    assertThat(v.verdict()).isEqualTo(Status.SKIP);
    assertThat(v.exitCode()).isZero();
    assertThat(v.requests().status()).isEqualTo(Status.SKIP);
    assertThat(v.requests().total()).isEqualByComparingTo("64");
  }

  @Test
  @DisplayName("an unknown unit on a gated metric is invalid input (exit 2), never guessed")
  void unknownUnit() {
    ObjectNode t = ExportVariants.realTree();
    ((ObjectNode) t.get("time_to_first_token")).put("unit", "jiffies");
    AiperfExport e = export(t);
    assertThatThrownBy(
            () ->
                GateEvaluator.evaluate(
                    e, ConstraintReader.fromFlags(null, TTFT), GateOptions.defaults()))
        .isInstanceOf(BenchplanException.class)
        .satisfies(ex -> assertThat(((BenchplanException) ex).exitCode()).isEqualTo(2))
        .hasMessage(
            e.path()
                + ": /time_to_first_token/unit: unknown unit 'jiffies' for time_to_first_token:"
                + " expected a duration (ns, us, ms, s) or a rate (tokens/sec, requests/sec); not"
                + " guessing");
    // an unknown unit on a metric that is not gated does not matter
    assertThat(
            GateEvaluator.evaluate(
                    e,
                    ConstraintReader.fromFlags(new BigDecimal("50"), null),
                    GateOptions.defaults())
                .verdict())
        .isEqualTo(Status.PASS);
  }

  @Test
  @DisplayName("a metric in a unit of another dimension is invalid input")
  void incompatibleUnit() {
    ObjectNode t = ExportVariants.realTree();
    ((ObjectNode) t.get("output_token_throughput")).put("unit", "ms");
    AiperfExport e = export(t);
    assertThatThrownBy(
            () ->
                GateEvaluator.evaluate(
                    e, ConstraintReader.fromFlags(TP, null), GateOptions.defaults()))
        .hasMessage(
            e.path()
                + ": /output_token_throughput/unit: output_token_throughput is in 'ms', which"
                + " cannot be compared with constraint inference-throughput in 'tokens/sec'"
                + " (--min-throughput)");
  }

  @Test
  @DisplayName(
      "a generic <metric>-<stat> constraint without a unit is compared in the metric's canonical unit")
  void genericConstraint() {
    ObjectNode t =
        ExportVariants.withUnit(
            ExportVariants.realTree(), "inter_token_latency", "s", new BigDecimal("0.001"));
    Constraint itl =
        new Constraint(
            "inter_token_latency-p95",
            "inter_token_latency",
            "p95",
            Operator.LE,
            new BigDecimal("18.883067175879397"),
            null,
            "test");
    Verdict v =
        GateEvaluator.evaluate(
            export(t),
            new ConstraintSet(java.util.List.of(itl), java.util.List.of(), "test"),
            options("0"));
    assertThat(v.constraints().get(0).unit()).isEqualTo("ms");
    assertThat(v.constraints().get(0).measured()).isEqualByComparingTo("18.883067175879397");
    assertThat(v.verdict()).isEqualTo(Status.PASS);
  }

  @Test
  @DisplayName("a run that produced no export gives an error verdict carrying the reason")
  void runFailed() {
    Verdict v =
        GateEvaluator.runFailed(
            "AIPerf exited 1; log tail:\nConnectionError",
            ConstraintReader.fromFlags(TP, TTFT),
            GateOptions.defaults(),
            VerdictSource.withoutExport("/runs/x/pod.log", null));
    assertThat(v.verdict()).isEqualTo(Status.ERROR);
    assertThat(v.constraints()).allMatch(c -> c.status() == Status.ERROR && c.measured() == null);
    assertThat(v.constraints().get(0).message())
        .isEqualTo("inference-throughput: not measured: AIPerf exited 1; log tail:");
    assertThat(v.message()).contains("ConnectionError");
  }

  @Test
  @DisplayName("tolerance and error rate outside their ranges are invalid input")
  void optionRanges() {
    assertThatThrownBy(() -> options("1"))
        .hasMessage("--tolerance: expected a fraction in [0, 1) such as 0.10, got 1");
    assertThatThrownBy(() -> options("-0.1"))
        .hasMessage("--tolerance: expected a fraction in [0, 1) such as 0.10, got -0.1");
    assertThatThrownBy(() -> new GateOptions(BigDecimal.ZERO, new BigDecimal("1.5")))
        .hasMessage("--max-error-rate: expected a fraction in [0, 1] such as 0.01, got 1.5");
  }

  /**
   * The real export with {@code output_token_throughput.avg} written as {@code literal}, byte for
   * byte.
   */
  private Path exportWithThroughput(String literal) throws java.io.IOException {
    ObjectNode tree =
        ExportVariants.withStat(
            ExportVariants.realTree(), "output_token_throughput", "avg", "987654.3210123");
    String json = dev.benchplan.json.Json.JSON.writeValueAsString(tree);
    assertThat(json).contains("987654.3210123");
    Path p = tmp.resolve("export-" + System.nanoTime() + ".json");
    java.nio.file.Files.writeString(p, json.replace("987654.3210123", literal));
    return p;
  }

  @ParameterizedTest(name = "throughput {0} is invalid input (exit 2) naming the pointer")
  @CsvSource(
      delimiter = '|',
      value = {
        "1e400|expected a finite number, found 1E+400 (beyond the range of a double)",
        "-1e400|expected a finite number, found -1E+400 (beyond the range of a double)",
        "NaN|expected a finite number, found NaN",
        "Infinity|expected a finite number, found Infinity",
        "\"fast\"|expected a number or null, found the string \"fast\""
      })
  void nonFiniteOrNonNumericMeasurement(String literal, String expected) throws Exception {
    Path file = exportWithThroughput(literal);
    assertThatThrownBy(
            () ->
                GateEvaluator.evaluate(
                    AiperfExportReader.read(file),
                    ConstraintReader.fromFlags(TP, null),
                    GateOptions.defaults()))
        .isInstanceOf(BenchplanException.class)
        .satisfies(ex -> assertThat(((BenchplanException) ex).exitCode()).isEqualTo(2))
        .hasMessage(file + ": /output_token_throughput/avg: " + expected);
  }

  @Test
  @DisplayName(
      "a gated metric written as a plain string (\"fast\") is invalid input naming the pointer, not absent")
  void metricAsString() throws Exception {
    ObjectNode tree = ExportVariants.realTree();
    tree.put("output_token_throughput", "fast");
    Path file = ExportVariants.write(tmp, "fast.json", tree);
    AiperfExport e = AiperfExportReader.read(file);
    assertThatThrownBy(
            () ->
                GateEvaluator.evaluate(
                    e, ConstraintReader.fromFlags(TP, null), GateOptions.defaults()))
        .isInstanceOf(BenchplanException.class)
        .satisfies(ex -> assertThat(((BenchplanException) ex).exitCode()).isEqualTo(2))
        .hasMessage(
            file
                + ": /output_token_throughput is the string \"fast\": expected a metric object"
                + " {\"unit\": ..., \"avg\": <number>} for constraint inference-throughput");
    // not gated: a stray value elsewhere does not matter
    assertThat(
            GateEvaluator.evaluate(
                    e, ConstraintReader.fromFlags(null, TTFT), GateOptions.defaults())
                .verdict())
        .isEqualTo(Status.PASS);
  }
}
