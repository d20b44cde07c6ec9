package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.aiperf.version.VersionRequest;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.Intent;
import dev.benchplan.plan.PlanOptions;
import dev.benchplan.plan.PlanRequest;
import dev.benchplan.plan.PlanResult;
import dev.benchplan.plan.PlanService;
import dev.benchplan.plan.Question;
import dev.benchplan.workload.DeploymentRecord;
import dev.benchplan.workload.GpuAllocation;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.SmokeEvidence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * A plan built in code (validate: in-cluster readiness, no ledger file) binds its own candidate.
 */
class InCodeCandidateTest {
  @TempDir Path tmp;

  @Test
  @DisplayName("validate's in-code plan renders; edited to another endpoint it is refused")
  void inCodePlan() throws Exception {
    Clock clock = Clock.fixed(Instant.parse("2026-11-30T10:30:00Z"), ZoneOffset.UTC);
    DeploymentRecord d = record("dynamo");
    PlanResult r =
        new PlanService()
            .plan(
                PlanRequest.of(
                    InputDocument.read(Path.of("examples/workload-static.yaml"), "user workload"),
                    d,
                    new Question("Does it pass?", Intent.characterization, null, List.of()),
                    PlanOptions.builder()
                        .expRoot(tmp.resolve("exp"))
                        .seriesId("validate-x")
                        .aiperf(VersionRequest.pinned("0.13.0"))
                        .build(),
                    clock));
    Path root = Files.createDirectories(tmp.resolve("d"));
    RenderResult ok =
        PlanRenderer.render(
            RenderRequest.builder(r.planPath(), r.sha256(), root)
                .runId(clock, new Random(1))
                .build());
    assertThat(ok.candidateDgd()).isEqualTo("dynamo/vllm-agg");
    assertThat(ok.endpoint()).isEqualTo("http://vllm-agg-frontend.dynamo.svc.cluster.local:8000");

    ObjectNode tree = (ObjectNode) Json.JSON.readTree(Files.readAllBytes(r.planPath()));
    tree.withObject("/deployment").put("namespace", "kube-system");
    byte[] bytes = CanonicalJson.bytes(tree);
    Path edited = tmp.resolve("edited.json");
    Files.write(edited, bytes);
    Path root2 = Files.createDirectories(tmp.resolve("d2"));
    assertThatThrownBy(
            () ->
                PlanRenderer.render(
                    RenderRequest.builder(edited, Sha256.hex(bytes), root2)
                        .runId(clock, new Random(1))
                        .build()))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            edited
                + ": the plan's deployment disagrees with the in-code record it was written from"
                + " in /deployment/ledger_sha256 (the plan's deployment fields hash to "
                + record("kube-system").sourceSha256()
                + "); /deployment/endpoint_url"
                + " ('http://vllm-agg-frontend.dynamo.svc.cluster.local:8000' in the plan,"
                + " 'http://vllm-agg-frontend.kube-system.svc.cluster.local:8000' from its frontend"
                + " Service): expected an unedited plan");
    assertThat(root2.resolve("benchmark")).doesNotExist();
  }

  /** The in-code record validate writes for vllm-agg in {@code namespace}. */
  private DeploymentRecord record(String namespace) {
    return DeploymentRecord.inMemory(
        "validate:deployed",
        "vllm-agg",
        "current",
        namespace,
        // an absolute DGD path, as validate writes it: the plan records it relative to its
        // experiment root, and the in-code record's hash must not change with that
        tmp.resolve("runs/dgd.json").toString(),
        "a".repeat(64),
        "vllm-agg-frontend",
        8000,
        "Qwen/Qwen3-0.6B",
        "Qwen/Qwen3-0.6B",
        List.of(new GpuAllocation("H100", 1)),
        null,
        new SmokeEvidence.InClusterReadiness("benchplan validate", "the Job waits for the model"),
        List.of("hf-token-secret"));
  }
}
