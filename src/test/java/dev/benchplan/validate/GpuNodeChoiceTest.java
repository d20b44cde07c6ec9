package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GpuNodeChoiceTest {
  static GpuNode node(String name, long alloc, long requested) {
    return new GpuNode(name, Map.of("pool", "gpu"), alloc, requested, false, true, List.of());
  }

  @Test
  @DisplayName(
      "free = allocatable - requested; the node with the most free GPUs wins; workers = its free GPUs")
  void mostFree() {
    var c =
        GpuNodeChoice.choose(List.of(node("a", 8, 6), node("b", 4, 0), node("c", 8, 5)), Map.of());
    assertThat(c.node().name()).isEqualTo("b");
    assertThat(c.workers()).isEqualTo(4);
    assertThat(c.considered())
        .containsExactly(
            "a: 8 allocatable, 6 requested, 2 free",
            "b: 4 allocatable, 0 requested, 4 free",
            "c: 8 allocatable, 5 requested, 3 free");
  }

  @Test
  @DisplayName("ties go to the first name, whatever order the API returns")
  void ties() {
    assertThat(
            GpuNodeChoice.choose(List.of(node("z", 2, 0), node("m", 2, 0)), Map.of()).node().name())
        .isEqualTo("m");
  }

  @Test
  @DisplayName(
      "--node-selector, cordoned and NotReady nodes exclude; a node without Ready condition counts")
  void exclusions() {
    GpuNode cordoned = new GpuNode("big", Map.of("pool", "gpu"), 8, 0, true, true, List.of());
    GpuNode notReady = new GpuNode("big2", Map.of("pool", "gpu"), 8, 0, false, false, List.of());
    GpuNode otherPool = new GpuNode("big3", Map.of("pool", "cpu"), 8, 0, false, true, List.of());
    GpuNode unknownReady =
        new GpuNode("small", Map.of("pool", "gpu"), 1, 0, false, null, List.of());
    var c =
        GpuNodeChoice.choose(
            List.of(cordoned, notReady, otherPool, unknownReady), Map.of("pool", "gpu"));
    assertThat(c.node().name()).isEqualTo("small");
    assertThat(c.considered())
        .contains(
            "big: excluded, unschedulable (cordoned)",
            "big2: excluded, not Ready",
            "big3: excluded, label pool=gpu missing");
  }

  @Test
  @DisplayName("no free GPU anywhere: exit 3 with every node's reason")
  void none() {
    assertThatThrownBy(
            () -> GpuNodeChoice.choose(List.of(node("a", 4, 4), node("cpu", 0, 0)), Map.of()))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "no schedulable node has a free nvidia.com/gpu (a: 4 allocatable, 4 requested, 0"
                + " free; cpu: excluded, no allocatable nvidia.com/gpu)")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(3);
    assertThatThrownBy(() -> GpuNodeChoice.choose(List.of(), Map.of("a", "b")))
        .hasMessage(
            "no schedulable node matching --node-selector {a=b} has a free nvidia.com/gpu (the"
                + " cluster lists no nodes)");
  }

  @Test
  @DisplayName(
      "a pod's GPUs: max(sum of containers, largest init container); over-requested nodes show 0 free")
  void podGpus() {
    assertThat(GpuNode.podGpus(List.of(1L, 2L), List.of(2L))).isEqualTo(3);
    assertThat(GpuNode.podGpus(List.of(1L), List.of(4L, 2L))).isEqualTo(4);
    assertThat(GpuNode.podGpus(List.of(), List.of())).isZero();
    assertThat(node("x", 2, 5).freeGpus()).isZero();
  }
}
