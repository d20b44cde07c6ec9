package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The kubelet stand-in's scheduling predicates and script/node validation (no cluster needed). */
class NodeFitTest {
  private static PodBuilder pod(int gpus) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("i")
        .withNewResources()
        .addToLimits(
            gpus > 0 ? Map.of("nvidia.com/gpu", new Quantity(Integer.toString(gpus))) : Map.of())
        .endResources()
        .endContainer()
        .endSpec();
  }

  @Test
  @DisplayName("GPU requests count against free GPUs")
  void gpus() {
    FakeNode node = FakeNode.withGpus("n", 4);
    assertThat(NodeFit.gpuRequest(pod(3).build())).isEqualTo(3);
    assertThat(NodeFit.misfit(pod(3).build(), node, 4)).isNull();
    assertThat(NodeFit.misfit(pod(3).build(), node, 2)).isEqualTo("Insufficient nvidia.com/gpu");
  }

  @Test
  @DisplayName("NoSchedule taints need a matching toleration; PreferNoSchedule does not")
  void taints() {
    FakeNode tainted =
        FakeNode.withGpus("n", 0).withTaint("nvidia.com/gpu", "present", "NoSchedule");
    assertThat(NodeFit.misfit(pod(0).build(), tainted, 0))
        .isEqualTo("node(s) had taint {nvidia.com/gpu: present}, that the pod didn't tolerate");
    Pod exists =
        pod(0)
            .editSpec()
            .addNewToleration()
            .withKey("nvidia.com/gpu")
            .withOperator("Exists")
            .endToleration()
            .endSpec()
            .build();
    assertThat(NodeFit.misfit(exists, tainted, 0)).isNull();
    Pod wrongValue =
        pod(0)
            .editSpec()
            .addNewToleration()
            .withKey("nvidia.com/gpu")
            .withOperator("Equal")
            .withValue("absent")
            .endToleration()
            .endSpec()
            .build();
    assertThat(NodeFit.misfit(wrongValue, tainted, 0)).isNotNull();
    Pod all =
        pod(0)
            .editSpec()
            .addNewToleration()
            .withOperator("Exists")
            .endToleration()
            .endSpec()
            .build();
    assertThat(NodeFit.misfit(all, tainted, 0)).isNull();
    assertThat(
            NodeFit.misfit(
                pod(0).build(),
                FakeNode.withGpus("m", 0).withTaint("k", "v", "PreferNoSchedule"),
                0))
        .isNull();
  }

  @Test
  @DisplayName("node selectors, required node affinity and cordons are honoured")
  void selectorsAffinityCordon() {
    FakeNode node = FakeNode.withGpus("gpu-a", 8).withLabel("pool", "h100");
    assertThat(
            NodeFit.misfit(
                pod(0).editSpec().withNodeSelector(Map.of("pool", "h100")).endSpec().build(),
                node,
                8))
        .isNull();
    assertThat(
            NodeFit.misfit(
                pod(0).editSpec().withNodeSelector(Map.of("pool", "a100")).endSpec().build(),
                node,
                8))
        .isEqualTo("node(s) didn't match node selector");
    Pod pinned =
        pod(0)
            .editSpec()
            .withNewAffinity()
            .withNewNodeAffinity()
            .withNewRequiredDuringSchedulingIgnoredDuringExecution()
            .addNewNodeSelectorTerm()
            .addNewMatchExpression()
            .withKey("kubernetes.io/hostname")
            .withOperator("In")
            .withValues("gpu-b")
            .endMatchExpression()
            .endNodeSelectorTerm()
            .addNewNodeSelectorTerm()
            .addNewMatchField()
            .withKey("metadata.name")
            .withOperator("In")
            .withValues("gpu-a")
            .endMatchField()
            .endNodeSelectorTerm()
            .endRequiredDuringSchedulingIgnoredDuringExecution()
            .endNodeAffinity()
            .endAffinity()
            .endSpec()
            .build();
    assertThat(NodeFit.misfit(pinned, node, 8)).as("second term matches by metadata.name").isNull();
    assertThat(NodeFit.misfit(pinned, FakeNode.withGpus("gpu-c", 8), 8)).isNotNull();
    assertThat(NodeFit.misfit(pod(0).build(), node.cordoned(), 8))
        .isEqualTo("node(s) were unschedulable");
  }

  @Test
  @DisplayName("invalid scripts and nodes are refused at construction")
  void validation() {
    assertThatThrownBy(() -> PodScript.exit(256)).hasMessage("exitCode must be 0..255, got 256");
    assertThatThrownBy(() -> PodScript.succeed().after(Duration.ofSeconds(-1)))
        .hasMessage("runFor and lineInterval must be >= 0");
    assertThatThrownBy(() -> PodScript.stayPending().withLog("x"))
        .hasMessage("STAY_PENDING pods never run: no exit code, no logs");
    assertThatThrownBy(() -> FakeNode.withGpus("Bad_Name", 1))
        .hasMessage("node name must be a DNS-1123 subdomain, got 'Bad_Name'");
    assertThatThrownBy(() -> FakeNode.withGpus("n", -1)).hasMessage("gpus must be >= 0, got -1");
    assertThat(PodScript.replayLog("all", 0).withLog("aiperf", "mine").logFor("aiperf"))
        .isEqualTo("mine");
    assertThat(PodScript.replayLog("all", 0).withLog("aiperf", "mine").logFor("sidecar"))
        .isEqualTo("all");
  }
}
