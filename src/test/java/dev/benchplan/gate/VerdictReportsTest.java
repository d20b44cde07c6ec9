package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class VerdictReportsTest {
  static final ReportTiming TIMING =
      new ReportTiming(
          Instant.parse("2026-11-30T10:00:00Z"), Instant.parse("2026-11-30T10:04:15.560Z"));
  static final SchemaValidator SCHEMA = SchemaValidator.bundled("verdict.schema.json");

  @TempDir Path tmp;

  static Stream<Verdict> verdicts() {
    AiperfExport real = AiperfExportReader.read(ExportVariants.real());
    ObjectNode noTtft = ExportVariants.realTree();
    noTtft.remove("time_to_first_token");
    Path dir;
    try {
      dir = Files.createTempDirectory("verdicts");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    AiperfExport missing =
        AiperfExportReader.read(ExportVariants.write(dir, "noTtft.json", noTtft));
    ConstraintSet aicr = ConstraintReader.fromFlags(new BigDecimal("5000"), new BigDecimal("200"));
    ConstraintSet met = ConstraintReader.fromFlags(new BigDecimal("50"), new BigDecimal("35"));
    return Stream.of(
        GateEvaluator.evaluate(real, met, GateOptions.defaults()),
        GateEvaluator.evaluate(real, aicr, GateOptions.defaults()),
        GateEvaluator.evaluate(real, ConstraintSet.none("flags"), GateOptions.defaults()),
        GateEvaluator.evaluate(missing, aicr, GateOptions.defaults()),
        GateEvaluator.runFailed(
            "AIPerf exited 1",
            aicr,
            GateOptions.defaults(),
            VerdictSource.withoutExport("/runs/r/pod.log", null)),
        GateEvaluator.runFailed(
            "Job failed",
            ConstraintSet.none("plan"),
            GateOptions.defaults(),
            VerdictSource.withoutExport("/runs/r/pod.log", null)));
  }

  @ParameterizedTest(name = "{index}: {0}")
  @MethodSource("verdicts")
  @DisplayName("every kind of verdict validates against schemas/verdict.schema.json")
  void verdictMatchesSchema(Verdict v) {
    JsonNode json = Json.JSON.readTree(VerdictReports.verdictBytes(v));
    assertThat(SCHEMA.validate(json)).isEmpty();
    assertThat(json.get("verdict").asString()).isEqualTo(v.verdict().json());
  }

  @ParameterizedTest(name = "{index}: {0}")
  @MethodSource("verdicts")
  @DisplayName(
      "CTRF: tool, summary counts that add up, one test per constraint; JUnit parses with the same counts")
  void reportsAgree(Verdict v) throws Exception {
    Map<String, byte[]> files = VerdictReports.render(v, TIMING);
    assertThat(files.keySet()).containsExactly("verdict.json", "ctrf-report.json", "junit.xml");
    JsonNode ctrf = Json.JSON.readTree(files.get("ctrf-report.json"));
    assertThat(ctrf.get("reportFormat").asString()).isEqualTo("CTRF");
    JsonNode results = ctrf.get("results");
    assertThat(results.get("tool").get("name").asString()).isEqualTo("benchplan");
    assertThat(results.get("tool").has("version")).isTrue();
    JsonNode summary = results.get("summary");
    JsonNode tests = results.get("tests");
    assertThat(summary.get("tests").asInt()).isEqualTo(tests.size());
    assertThat(
            summary.get("passed").asInt()
                + summary.get("failed").asInt()
                + summary.get("skipped").asInt()
                + summary.get("pending").asInt()
                + summary.get("other").asInt())
        .isEqualTo(tests.size());
    assertThat(summary.get("start").asLong()).isEqualTo(TIMING.start().toEpochMilli());
    assertThat(summary.get("stop").asLong()).isEqualTo(TIMING.stop().toEpochMilli());
    for (JsonNode t : tests) {
      assertThat(t.get("status").asString())
          .isIn("passed", "failed", "skipped", "pending", "other");
      assertThat(t.has("name") && t.has("duration") && t.has("message")).isTrue();
    }
    if (!v.constraints().isEmpty()) {
      List<String> names = v.constraints().stream().map(ConstraintResult::name).toList();
      assertThat(tests.get(0).get("name").asString()).isEqualTo(names.get(0));
      assertThat(tests.size())
          .isEqualTo(names.size() + (v.requests().status() == Status.SKIP ? 0 : 1));
    } else {
      assertThat(tests.size()).isEqualTo(1);
      assertThat(tests.get(0).get("name").asString()).isEqualTo(CtrfReport.GATE_TEST);
      assertThat(tests.get(0).get("rawStatus").asString()).isEqualTo(v.verdict().json());
    }

    Document doc = parseXml(files.get("junit.xml"));
    Element suite = (Element) doc.getElementsByTagName("testsuite").item(0);
    assertThat(Integer.parseInt(suite.getAttribute("tests"))).isEqualTo(tests.size());
    long failedCtrf = 0;
    for (JsonNode t : tests) {
      failedCtrf += t.get("status").asString().equals("failed") ? 1 : 0;
    }
    assertThat(
            Integer.parseInt(suite.getAttribute("failures"))
                + Integer.parseInt(suite.getAttribute("errors")))
        .isEqualTo(failedCtrf);
    assertThat(suite.getAttribute("time")).isEqualTo("255.560");
  }

  @Test
  @DisplayName("markup and control characters in messages are escaped: JUnit parses, text survives")
  void escaping() throws Exception {
    String nasty = "AIPerf exited 1: <error code=\"503\"> & ]]> it's \u001b[31mred\u001b[0m";
    Verdict v =
        GateEvaluator.runFailed(
            nasty,
            ConstraintReader.fromFlags(new BigDecimal("5000"), null),
            GateOptions.defaults(),
            VerdictSource.withoutExport("/runs/a&b/<pod>.log", null));
    Map<String, byte[]> files = VerdictReports.render(v, TIMING);
    Document doc = parseXml(files.get("junit.xml"));
    Element error = (Element) doc.getElementsByTagName("error").item(0);
    assertThat(error.getAttribute("message"))
        .contains("<error code=\"503\"> & ]]> it's \\u001b[31mred");
    NodeList props = doc.getElementsByTagName("property");
    boolean sourceSeen = false;
    for (int i = 0; i < props.getLength(); i++) {
      Element p = (Element) props.item(i);
      if (p.getAttribute("name").equals("source")) {
        assertThat(p.getAttribute("value")).isEqualTo("/runs/a&b/<pod>.log");
        sourceSeen = true;
      }
    }
    assertThat(sourceSeen).isTrue();
    JsonNode ctrf = Json.JSON.readTree(files.get("ctrf-report.json"));
    assertThat(ctrf.get("results").get("extra").get("message").asString())
        .isEqualTo("error: " + nasty);
    JsonNode verdict = Json.JSON.readTree(files.get("verdict.json"));
    assertThat(verdict.get("message").asString()).isEqualTo("error: " + nasty);
  }

  @Test
  @DisplayName("write() puts all three files in place; a failing write leaves none of them")
  void atomicSet() throws Exception {
    Verdict v = verdicts().findFirst().orElseThrow();
    Path dir = tmp.resolve("reports");
    VerdictReports.write(dir, v, TIMING);
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString()).toList())
          .containsExactlyInAnyOrder("verdict.json", "ctrf-report.json", "junit.xml");
    }
    Path blocked = tmp.resolve("blocked");
    Files.createDirectories(blocked.resolve("junit.xml").resolve("occupied"));
    assertThatThrownBy(() -> VerdictReports.write(blocked, v, TIMING))
        .hasMessage(
            blocked.resolve("junit.xml") + ": cannot write: is a directory, expected a file");
    try (Stream<Path> s = Files.list(blocked)) {
      assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("junit.xml");
    }
  }

  @Test
  @DisplayName(
      "the schema bites: an unknown verdict, a pass with a failed constraint, a missing key are rejected")
  void schemaRejects() {
    Verdict fail = verdicts().skip(1).findFirst().orElseThrow();
    ObjectNode json = written(fail);
    json.put("verdict", "maybe");
    assertThat(SCHEMA.validate(json)).anyMatch(p -> p.pointer().equals("/verdict"));
    ObjectNode passWithFail = written(fail);
    passWithFail.put("verdict", "pass");
    assertThat(SCHEMA.validate(passWithFail)).isNotEmpty();
    ObjectNode noSource = written(fail);
    noSource.remove("source");
    assertThat(SCHEMA.validate(noSource)).isNotEmpty();
    assertThat(Set.of(Status.values())).hasSize(4);
  }

  /** The verdict.json the reports write, read back as a tree to break. */
  private static ObjectNode written(Verdict v) {
    return (ObjectNode) dev.benchplan.json.Json.JSON.readTree(VerdictReports.verdictBytes(v));
  }

  private static Document parseXml(byte[] bytes) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
  }
}
