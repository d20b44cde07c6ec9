package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.render.AiperfJobContract;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.OperatorPlans;
import dev.benchplan.render.PairLabel;
import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.runrecord.RunRecordDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 13: the AB/BA pair reaches run.json on the operator engine too. {@code render --pair} puts
 * {@code benchplan.dev/pair} on every AIPerfJob of the run; {@code run} reads it from them (the
 * same {@code /pair} the plain Job's run.json carries) and refuses labels edited apart.
 */
class OperatorRunPairTest {
  @TempDir Path tmp;

  private Path render(PairLabel pair) {
    return OperatorPlans.render(
        tmp.resolve(pair == null ? "plain" : pair.arm()),
        "bench",
        "aiperf-results.aiperf-system:8080",
        Clock.systemUTC(),
        7,
        pair,
        1,
        2);
  }

  private static List<ObjectNode> jobs(Path root) throws Exception {
    String text = Files.readString(root.resolve("benchmark/" + AiperfJobContract.FILE));
    return YamlDocuments.read(text).stream()
        .map(ObjectNode.class::cast)
        .filter(d -> AiperfJobContract.KIND.equals(d.path("kind").asString("")))
        .toList();
  }

  @Test
  @DisplayName(
      "render --pair on an operator plan: every AIPerfJob carries the label; run reads it into run.json's"
          + " /pair; no label, no pair")
  void pairFromAiperfJobs() throws Exception {
    Path root = render(new PairLabel("p3", "BA", "B"));
    List<ObjectNode> jobs = jobs(root);
    assertThat(jobs).hasSize(2);
    for (ObjectNode j : jobs) {
      assertThat(j.at("/metadata/annotations").path(JobContract.PAIR).asString())
          .isEqualTo("p3/BA/B");
    }
    Path file = root.resolve("benchmark/" + AiperfJobContract.FILE);
    assertThat(OperatorRun.pair(file, jobs)).isEqualTo(new RunRecordDocument.Pair("p3", "BA", "B"));

    Path plain = render(null);
    List<ObjectNode> unpaired = jobs(plain);
    assertThat(unpaired.get(0).at("/metadata/annotations").has(JobContract.PAIR)).isFalse();
    assertThat(OperatorRun.pair(plain.resolve("benchmark/" + AiperfJobContract.FILE), unpaired))
        .isNull();
  }

  @Test
  @DisplayName(
      "labels edited apart (one AIPerfJob without, or with another pair) or malformed: exit 2 naming the"
          + " file, the AIPerfJob and the label, before anything is applied")
  void editedLabels() throws Exception {
    Path root = render(new PairLabel("p3", "AB", "A"));
    Path file = root.resolve("benchmark/" + AiperfJobContract.FILE);
    List<ObjectNode> jobs = jobs(root);
    String second = jobs.get(1).at("/metadata/name").asString();

    ((ObjectNode) jobs.get(1).at("/metadata/annotations")).remove(JobContract.PAIR);
    assertThatThrownBy(() -> OperatorRun.pair(file, jobs))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            file
                + ": AIPerfJob "
                + second
                + " has no "
                + JobContract.PAIR
                + ", the first has p3/AB/A: expected one pair label on every AIPerfJob of a run, as"
                + " render wrote it")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));

    ((ObjectNode) jobs.get(1).at("/metadata/annotations")).put(JobContract.PAIR, "p4/AB/A");
    assertThatThrownBy(() -> OperatorRun.pair(file, jobs))
        .hasMessage(
            file
                + ": AIPerfJob "
                + second
                + " has "
                + JobContract.PAIR
                + " p4/AB/A, the first has p3/AB/A: expected one pair label on every AIPerfJob of a"
                + " run, as render wrote it");

    for (ObjectNode j : jobs) {
      ((ObjectNode) j.at("/metadata/annotations")).put(JobContract.PAIR, "p3/AB/C");
    }
    assertThatThrownBy(() -> OperatorRun.pair(file, jobs))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            file
                + ": /metadata/annotations/benchplan.dev~1pair: --pair-arm C: expected A (reference)"
                + " or B (candidate)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
  }
}
