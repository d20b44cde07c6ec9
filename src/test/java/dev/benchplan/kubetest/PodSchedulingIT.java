package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Nodes, binding and the pod lifecycle the kubelet stand-in plays against the real apiserver. */
@KubeTestEnv
class PodSchedulingIT {
  private static FakeKubelet kubelet;
  private static String gpuNode;
  private static String taintedNode;

  @BeforeAll
  static void startKubelet(KubeTestContext kube) {
    gpuNode = kube.namespace() + "-gpu";
    taintedNode = kube.namespace() + "-tainted";
    kubelet =
        kube.startKubelet(
            FakeNode.withGpus(gpuNode, 2).withLabel("nvidia.com/gpu.product", "H100"),
            FakeNode.withGpus(taintedNode, 8).withTaint("dedicated", "inference", "NoSchedule"));
  }

  static Pod gpuPod(String name, int gpus) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("main")
        .withImage("worker:stand-in")
        .withNewResources()
        .addToLimits("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  private static PodCondition condition(Pod pod, String type) {
    return pod.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  @Test
  @DisplayName(
      "registered Nodes carry only InternalIP 127.0.0.1, the kubelet port, GPUs, labels and taints")
  void nodesAreRegistered(KubernetesClient client) {
    Node gpu = client.nodes().withName(gpuNode).get();
    assertThat(gpu.getStatus().getAddresses())
        .singleElement()
        .satisfies(
            a -> assertThat(a.getType() + "=" + a.getAddress()).isEqualTo("InternalIP=127.0.0.1"));
    assertThat(gpu.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort())
        .isEqualTo(kubelet.port());
    assertThat(gpu.getStatus().getAllocatable().get("nvidia.com/gpu")).isEqualTo(new Quantity("2"));
    assertThat(gpu.getMetadata().getLabels())
        .containsEntry("nvidia.com/gpu.product", "H100")
        .containsEntry("kubernetes.io/hostname", gpuNode);
    Node tainted = client.nodes().withName(taintedNode).get();
    assertThat(tainted.getSpec().getTaints())
        .singleElement()
        .satisfies(
            t ->
                assertThat(t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                    .isEqualTo("dedicated=inference:NoSchedule"));
  }

  @Test
  @DisplayName(
      "pods are bound to a node with free GPUs, skipping taints they don't tolerate; a third waits Unschedulable until one ends")
  void bindsByGpuAndTaint(KubernetesClient client) {
    kubelet.when(FakeKubelet.namePrefix("gpu-"), PodScript.runForever());
    client.pods().resource(gpuPod("gpu-a", 1)).create();
    client.pods().resource(gpuPod("gpu-b", 1)).create();
    Pod a =
        client
            .pods()
            .withName("gpu-a")
            .waitUntilCondition(
                p -> "Running".equals(p.getStatus().getPhase()), 30, TimeUnit.SECONDS);
    Pod b =
        client
            .pods()
            .withName("gpu-b")
            .waitUntilCondition(
                p -> "Running".equals(p.getStatus().getPhase()), 30, TimeUnit.SECONDS);
    assertThat(a.getSpec().getNodeName()).isEqualTo(gpuNode);
    assertThat(b.getSpec().getNodeName()).isEqualTo(gpuNode);

    client.pods().resource(gpuPod("gpu-c", 1)).create();
    Pod c =
        client
            .pods()
            .withName("gpu-c")
            .waitUntilCondition(
                p -> p.getStatus().getConditions() != null && condition(p, "PodScheduled") != null,
                30,
                TimeUnit.SECONDS);
    assertThat(c.getSpec().getNodeName()).isNull();
    assertThat(condition(c, "PodScheduled").getReason()).isEqualTo("Unschedulable");
    assertThat(condition(c, "PodScheduled").getMessage())
        .isEqualTo(
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had taint {dedicated: inference}, that the pod didn't tolerate.");

    // deleting a bound Running pod needs its kubelet to finish the deletion; then gpu-c fits
    client.pods().withName("gpu-a").delete();
    client.pods().withName("gpu-a").waitUntilCondition(p -> p == null, 30, TimeUnit.SECONDS);
    Pod rescheduled =
        client
            .pods()
            .withName("gpu-c")
            .waitUntilCondition(
                p -> "Running".equals(p.getStatus().getPhase()), 30, TimeUnit.SECONDS);
    assertThat(rescheduled.getSpec().getNodeName()).isEqualTo(gpuNode);
  }

  @Test
  @DisplayName("a toleration lets a pod onto the tainted node; a node selector pins it")
  void tolerationAndSelector(KubernetesClient client) {
    kubelet.when(FakeKubelet.namePrefix("pinned-"), PodScript.succeed());
    Pod pod = gpuPod("pinned-1", 4);
    pod.getSpec().setNodeSelector(Map.of("kubernetes.io/hostname", taintedNode));
    pod.getSpec()
        .setTolerations(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.TolerationBuilder()
                    .withKey("dedicated")
                    .withOperator("Equal")
                    .withValue("inference")
                    .withEffect("NoSchedule")
                    .build()));
    client.pods().resource(pod).create();
    Pod done =
        client
            .pods()
            .withName("pinned-1")
            .waitUntilCondition(
                p -> "Succeeded".equals(p.getStatus().getPhase()), 30, TimeUnit.SECONDS);
    assertThat(done.getSpec().getNodeName()).isEqualTo(taintedNode);
  }

  @Test
  @DisplayName(
      "a stay-pending script leaves the pod unbound with PodScheduled=False, reason Unschedulable")
  void stayPending(KubernetesClient client) {
    kubelet.when(FakeKubelet.namePrefix("pending-"), PodScript.stayPending());
    client.pods().resource(gpuPod("pending-1", 0)).create();
    Pod pod =
        client
            .pods()
            .withName("pending-1")
            .waitUntilCondition(
                p -> p.getStatus().getConditions() != null && condition(p, "PodScheduled") != null,
                30,
                TimeUnit.SECONDS);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(pod.getSpec().getNodeName()).isNull();
    assertThat(condition(pod, "PodScheduled").getStatus()).isEqualTo("False");
    assertThat(condition(pod, "PodScheduled").getMessage())
        .isEqualTo("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
    assertThat(client.v1().events().withField("involvedObject.name", "pending-1").list().getItems())
        .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("FailedScheduling"));
  }
}
