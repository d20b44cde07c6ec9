package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** Issue 21 item 5: the error-rate check applies even when there is nothing else to gate on. */
class ErrorRateAlwaysAppliesTest {
  @TempDir Path tmp;

  private ObjectNode withErrors(String errors) {
    ObjectNode t = ExportVariants.realTree();
    ExportVariants.withStat(t, "request_count", "avg", "95");
    t.putObject("error_request_count")
        .put("unit", "requests")
        .put("avg", Double.parseDouble(errors));
    return t;
  }

  private AiperfExport export(ObjectNode tree) {
    return AiperfExportReader.read(
        ExportVariants.write(tmp, "e" + System.nanoTime() + ".json", tree));
  }

  @Test
  @DisplayName("no constraints, 5% failed requests: fail (exit 1), not skip")
  void noConstraintsAboveLimit() {
    Verdict v =
        GateEvaluator.evaluate(
            export(withErrors("5")), ConstraintSet.none("test"), GateOptions.defaults());
    assertThat(v.verdict()).isEqualTo(Status.FAIL);
    assertThat(v.requests().status()).isEqualTo(Status.FAIL);
    assertThat(v.message())
        .contains("request error rate")
        .contains("5 of 100")
        .contains("applies even with no constraints");
    Path file = ExportVariants.write(tmp, "five.json", withErrors("5"));
    CommandHarness.run("gate", "--results", file.toString()).expectExit(1);
  }

  @Test
  @DisplayName("no constraints, no failed requests: still skip (exit 0)")
  void noConstraintsWithinLimit() {
    Verdict v =
        GateEvaluator.evaluate(
            export(withErrors("0")), ConstraintSet.none("test"), GateOptions.defaults());
    assertThat(v.verdict()).isEqualTo(Status.SKIP);
  }
}
