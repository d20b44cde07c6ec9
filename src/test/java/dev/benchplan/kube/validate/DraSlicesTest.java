package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DraGpus;
import dev.benchplan.validate.DraNodeChoice;
import dev.benchplan.validate.GpuNodeChoice;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 36 item 7: validate's default deployment on a cluster whose GPUs are allocated through DRA
 * (the NVIDIA DRA driver's ResourceSlices, resource.k8s.io v1 from Kubernetes 1.34, v1beta2 and
 * v1beta1 before), on the mock API server with fabric8's own ResourceSlice kinds. 403 and 404 mean
 * "DRA not detected", never an error.
 */
@ExtendWith(dev.benchplan.kube.MockApiServer.class)
class DraSlicesTest {
  KubernetesMockServer server;
  KubernetesClient client;

  private void v1Slice(String node, String driver, int devices) {
    client
        .resource(
            new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(node + "-" + driver)
                .endMetadata()
                .withNewSpec()
                .withDriver(driver)
                .withNodeName(node)
                .withNewPool()
                .withName(node)
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .withDevices(
                    IntStream.range(0, devices)
                        .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i).build())
                        .toList())
                .endSpec()
                .build())
        .create();
  }

  private void v1beta1Slice(String node, int devices) {
    client
        .resource(
            new io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceSliceBuilder()
                .withNewMetadata()
                .withName(node + "-gpu")
                .endMetadata()
                .withNewSpec()
                .withDriver(DraGpus.DRIVER)
                .withNodeName(node)
                .withNewPool()
                .withName(node)
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .withDevices(
                    IntStream.range(0, devices)
                        .mapToObj(
                            i ->
                                new io.fabric8.kubernetes.api.model.resource.v1beta1.DeviceBuilder()
                                    .withName("gpu-" + i)
                                    .withNewBasic()
                                    .endBasic()
                                    .build())
                        .toList())
                .endSpec()
                .build())
        .create();
  }

  private void answer(String version, int code) {
    server
        .expect()
        .get()
        .withPath("/apis/resource.k8s.io/" + version + "/resourceslices")
        .andReturn(code, new StatusBuilder().withCode(code).withReason("x").build())
        .always();
  }

  /** A Ready node without the device plugin's nvidia.com/gpu (its GPUs are DRA's). */
  private void node(String name, int devicePluginGpus) {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .withAllocatable(
                    devicePluginGpus == 0
                        ? Map.of("cpu", new Quantity("64"))
                        : Map.of("nvidia.com/gpu", new Quantity(String.valueOf(devicePluginGpus))))
                .endStatus()
                .build())
        .create();
  }

  @Test
  @DisplayName("v1 ResourceSlices of gpu.nvidia.com: devices per node, other drivers left out")
  void v1() {
    v1Slice("gpu-a", DraGpus.DRIVER, 8);
    v1Slice("gpu-b", DraGpus.DRIVER, 4);
    v1Slice("gpu-a", "dra.example.com", 2);
    DraGpus dra = DraSlices.read(ClusterAccess.of(client));
    assertThat(dra.detected()).isTrue();
    assertThat(dra.apiVersion()).isEqualTo("resource.k8s.io/v1");
    assertThat(dra.devicesByNode())
        .containsExactlyInAnyOrderEntriesOf(Map.of("gpu-a", 8, "gpu-b", 4));
    assertThat(dra.perNode()).isEqualTo("gpu-a 8, gpu-b 4");
  }

  @Test
  @DisplayName("before Kubernetes 1.34: v1 and v1beta2 not served (404), v1beta1 slices read")
  void v1beta1() {
    answer("v1", 404);
    answer("v1beta2", 404);
    v1beta1Slice("gpu-a", 2);
    DraGpus dra = DraSlices.read(ClusterAccess.of(client));
    assertThat(dra.detected()).isTrue();
    assertThat(dra.apiVersion()).isEqualTo("resource.k8s.io/v1beta1");
    assertThat(dra.devicesByNode()).containsExactlyEntriesOf(Map.of("gpu-a", 2));
  }

  @Test
  @DisplayName("no resource.k8s.io served (404 on every version): not detected, no error")
  void notServed() {
    answer("v1", 404);
    answer("v1beta2", 404);
    answer("v1beta1", 404);
    DraGpus dra = DraSlices.read(ClusterAccess.of(client));
    assertThat(dra.detected()).isFalse();
    assertThat(dra.note())
        .isEqualTo("not detected: the cluster serves no resource.k8s.io ResourceSlices");
  }

  @Test
  @DisplayName("listing ResourceSlices forbidden (403): not detected, no error")
  void forbidden() {
    answer("v1", 403);
    DraGpus dra = DraSlices.read(ClusterAccess.of(client));
    assertThat(dra.detected()).isFalse();
    assertThat(dra.note()).isEqualTo("not detected: listing ResourceSlices is forbidden (403)");
  }

  @Test
  @DisplayName("slices of other drivers only: not detected")
  void otherDriver() {
    v1Slice("gpu-a", "dra.example.com", 2);
    assertThat(DraSlices.read(ClusterAccess.of(client)).detected()).isFalse();
  }

  @Test
  @DisplayName(
      "auto-deploy on DRA-only GPUs: refused as invalid input (exit 2) naming --dgd, before"
          + " anything is created")
  void refusedNamingDgd() {
    node("gpu-a", 0);
    node("gpu-b", 0);
    v1Slice("gpu-a", DraGpus.DRIVER, 8);
    v1Slice("gpu-b", DraGpus.DRIVER, 8);
    KubeValidateCluster cluster = new KubeValidateCluster(client, "mock", DgdApi.GROUP, false);
    assertThatThrownBy(() -> DraNodeChoice.choose(cluster, Map.of()))
        .isInstanceOfSatisfying(
            BenchplanException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.INVALID))
        .hasMessage(
            "the cluster publishes its GPUs through Dynamic Resource Allocation"
                + " (resource.k8s.io/v1 ResourceSlices of driver gpu.nvidia.com: gpu-a 8, gpu-b 8),"
                + " and no schedulable node has a free nvidia.com/gpu (gpu-a: excluded, no"
                + " allocatable nvidia.com/gpu; gpu-b: excluded, no allocatable nvidia.com/gpu);"
                + " validate's default deployment requests nvidia.com/gpu and does not create"
                + " resource claims: deploy the DGD with its claims yourself and validate it with"
                + " --dgd NS/NAME (nothing was created)");
    assertThat(client.namespaces().list().getItems()).as("nothing created").isEmpty();
  }

  @Test
  @DisplayName("no GPU at all and DRA not served: the old error (exit 3), DRA not an error")
  void noGpuNoDra() {
    node("cpu-a", 0);
    answer("v1", 404);
    answer("v1beta2", 404);
    answer("v1beta1", 404);
    KubeValidateCluster cluster = new KubeValidateCluster(client, "mock", DgdApi.GROUP, false);
    assertThatThrownBy(() -> DraNodeChoice.choose(cluster, Map.of()))
        .isInstanceOfSatisfying(
            BenchplanException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.RUNTIME))
        .hasMessage(
            "no schedulable node has a free nvidia.com/gpu (cpu-a: excluded, no allocatable"
                + " nvidia.com/gpu)");
  }

  @Test
  @DisplayName("a free device-plugin GPU: chosen as before, ResourceSlices never asked")
  void devicePluginFirst() {
    node("gpu-a", 2);
    // asking would fail the test: an error that is not 403/404 is raised
    answer("v1", 500);
    KubeValidateCluster cluster = new KubeValidateCluster(client, "mock", DgdApi.GROUP, false);
    GpuNodeChoice c = DraNodeChoice.choose(cluster, Map.of());
    assertThat(c.node().name()).isEqualTo("gpu-a");
    assertThat(c.workers()).isEqualTo(2);
  }
}
