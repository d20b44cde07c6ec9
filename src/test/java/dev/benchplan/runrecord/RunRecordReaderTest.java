package dev.benchplan.runrecord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** Issue 33: run.json has one reader, into {@link RunRecordDocument}, for every schema-1 file. */
class RunRecordReaderTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "every committed run.json reads into the record and writes back byte for byte (no member"
          + " dropped or renamed on the way)")
  void committedRecordsRoundTrip() throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(Path.of("experiments"))) {
      files = s.filter(p -> p.getFileName().toString().equals("run.json")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      RunRecordDocument doc = RunRecordReader.read(f);
      assertThat(canonical(doc)).as(f.toString()).isEqualTo(Files.readString(f));
    }
  }

  @Test
  @DisplayName(
      "an older schema-1 record (the first committed experiments run, 2026-12-02: no engine, pair,"
          + " synthetic label or smoke evidence) still reads, its absent members null")
  void olderRecordReads() throws IOException {
    Path f = tmp.resolve("run.json");
    try (InputStream in =
        Objects.requireNonNull(getClass().getResourceAsStream("job-engine-2026-12-02.run.json"))) {
      Files.write(f, in.readAllBytes());
    }
    RunRecordDocument doc = RunRecordReader.read(f);
    assertThat(doc.runId()).isEqualTo("20261202T033401Z-4305");
    assertThat(doc.verdict()).isEqualTo("fail");
    assertThat(doc.eligible()).isFalse();
    assertThat(doc.plan().path())
        .isEqualTo("../../inputs/benchmark-plans/synthetic-grid-20261130-9039ab9f.json");
    assertThat(Objects.requireNonNull(doc.measuredRuns()).mechanism()).isEqualTo("job-sequence");
    assertThat(doc.engine()).isNull();
    assertThat(doc.pair()).isNull();
    assertThat(doc.smokeEvidence()).isNull();
    assertThat(doc.artifacts().synthetic()).isNull();
    assertThat(canonical(doc)).isEqualTo(Files.readString(f));
  }

  /** The record as run writes it (canonical JSON). */
  private static String canonical(RunRecordDocument doc) {
    return new String(
        CanonicalJson.bytes(Json.JSON.valueToTree(doc)), java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName(
      "a run.json without a required member, or with an unknown one, is invalid input (exit 2) at"
          + " its pointer; verify's check names the same pointer without throwing")
  void schemaMismatch() throws IOException {
    Path good =
        Files.walk(Path.of("experiments"))
            .filter(p -> p.getFileName().toString().equals("run.json"))
            .findFirst()
            .orElseThrow();
    ObjectNode tree = (ObjectNode) Json.JSON.readTree(Files.readAllBytes(good));
    ((ObjectNode) tree.get("plan")).remove("sha256");
    tree.put("load_point", "concurrency=16");
    Path f = tmp.resolve("run.json");
    Files.writeString(f, tree.toString());
    assertThatThrownBy(() -> RunRecordReader.read(f))
        .isInstanceOfSatisfying(
            BenchplanException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(2);
              assertThat(e.getMessage())
                  .startsWith(f + ": does not match schema run-record.schema.json")
                  .contains("load_point")
                  .contains("/plan");
            });
    RunRecordReader.Checked c = RunRecordReader.check(Files.readAllBytes(f), f);
    assertThat(c.record()).isNull();
    assertThat(c.pointer()).isIn("", "/plan");
    assertThat(c.problem()).contains("sha256");

    Files.writeString(f, "");
    assertThatThrownBy(() -> RunRecordReader.read(f))
        .hasMessage(f + ": empty file; expected the run record run wrote (run.json)");
    assertThat(RunRecordReader.check(new byte[0], f).problem())
        .isEqualTo("empty file; expected the run record run wrote (run.json)");
  }
}
