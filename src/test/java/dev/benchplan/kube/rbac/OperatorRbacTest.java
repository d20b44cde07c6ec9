package dev.benchplan.kube.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.render.AiperfJobContract;
import dev.benchplan.render.OperatorPlans;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorRbacTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "rbac run --deploy-root of an operator-engine root: AIPerfJobs, the two CRDs, the results Service's proxy in aiperf-system; no Job rules")
  void operatorRules() {
    Path root =
        OperatorPlans.render(
            tmp,
            "bench",
            AiperfJobContract.DEFAULT_RESULTS_SERVICE,
            Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC),
            3,
            4096);
    RbacManifest m = RbacManifests.run(root, null, null);
    String yaml = m.yaml();
    assertThat(yaml)
        .contains("aiperfjobs")
        .contains("customresourcedefinitions")
        .contains("services/proxy")
        .contains("namespace: aiperf-system")
        .contains("namespace: bench")
        .contains("- patch")
        .doesNotContain("batch")
        .doesNotContain("pods/log");
  }

  @Test
  @DisplayName(
      "rbac run --deploy-root of an operator-engine trace replay: read from the AIPerfJobs (not the trace's"
          + " ConfigMap before them), the DGD's and results' namespaces, the ConfigMap rules")
  void operatorTraceRules() {
    Path trace = dev.benchplan.testing.SharedData.require("aiperf/precise_schedule.jsonl");
    Path root =
        OperatorPlans.renderTrace(
            tmp,
            "bench",
            AiperfJobContract.DEFAULT_RESULTS_SERVICE,
            Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC),
            3,
            trace);
    RbacManifest m = RbacManifests.run(root, null, null);
    String yaml = m.yaml();
    assertThat(yaml)
        .contains("aiperfjobs")
        .contains("services/proxy")
        .contains("namespace: aiperf-system")
        .contains("namespace: bench")
        .contains("configmaps")
        .contains("1 AIPerfJob(s) in bench")
        .contains("a replayed trace's ConfigMap (1 here)");
  }
}
