package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RenderValuesTest {
  @Test
  @DisplayName("run ids are the UTC second plus 4 hex, and differ within one second")
  void runIds() {
    RunId a = RunId.generate(Rendered.CLOCK, new Random(1));
    RunId b = RunId.generate(Rendered.CLOCK, new Random(2));
    assertThat(a.value()).matches("20261130T123456Z-[0-9a-f]{4}");
    assertThat(a).isNotEqualTo(b);
    assertThatThrownBy(() -> new RunId("2026-11-30")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName(
      "job names: bp-<series>-<run id>, series cut and mapped to DNS-1123, at most 63 characters")
  void jobNames() {
    RunId run = new RunId("20261130T123456Z-00ff");
    assertThat(KubeNames.jobName("qwen3-chat", run))
        .isEqualTo("bp-qwen3-chat-20261130t123456z-00ff");
    String longSeries = "a.b_c-" + "x".repeat(74);
    String name = KubeNames.jobName(longSeries, run);
    assertThat(name)
        .hasSizeLessThanOrEqualTo(63)
        .startsWith("bp-a-b-c-x")
        .endsWith("-20261130t123456z-00ff");
    assertThat(KubeNames.isDns1123Label(name)).isTrue();
    // a cut that would end in '-' is trimmed
    String cut = KubeNames.jobName("y".repeat(37) + "-z", run);
    assertThat(cut).doesNotContain("--");
    assertThat(KubeNames.isDns1123Label(cut)).isTrue();
  }

  @Test
  @DisplayName("images: a registry port is not a tag; tags other than latest and digests pin")
  void images() {
    assertThat(ImageReference.parse("nvcr.io/nvidia/ai-dynamo/aiperf:0.11.0", "x").tag())
        .isEqualTo("0.11.0");
    assertThatThrownBy(() -> ImageReference.parse("registry.local:5000/aiperf", "x"))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "x: image 'registry.local:5000/aiperf' is not pinned: expected an exact"
                + " version tag (never latest) or a digest, e.g."
                + " nvcr.io/nvidia/ai-dynamo/aiperf:0.11.0");
    ImageReference d =
        ImageReference.parse("registry.local:5000/aiperf@sha256:" + "b".repeat(64), "x");
    assertThat(d.tag()).isNull();
    assertThat(d.digest()).startsWith("sha256:");
    assertThatThrownBy(() -> ImageReference.parse("aiperf:0.11.0@sha256:short", "x"))
        .hasMessage("x: image 'aiperf:0.11.0@sha256:short': expected a digest sha256:<64 hex>");
  }

  @Test
  @DisplayName("--artifacts and --trace-source specs")
  void specs() {
    assertThat(ArtifactTarget.parse(null).describe()).isEqualTo("emptyDir");
    ArtifactTarget a = ArtifactTarget.parse("pvc:results/runs/qwen3");
    assertThat(a.claim()).isEqualTo("results");
    assertThat(a.subPath()).isEqualTo("runs/qwen3");
    assertThat(a.describe()).isEqualTo("pvc:results/runs/qwen3");
    TraceSource t = TraceSource.parse("pvc:traces/mooncake/conversation_trace.jsonl");
    assertThat(t.kind()).isEqualTo(TraceSource.Kind.PVC);
    assertThat(t.path()).isEqualTo("mooncake/conversation_trace.jsonl");
    assertThatThrownBy(() -> TraceSource.parse("pvc:traces"))
        .hasMessage("--trace-source 'pvc:traces': expected configmap or pvc:CLAIM/PATH");
    assertThatThrownBy(() -> TraceSource.parse("pvc:traces//t.jsonl"))
        .hasMessage(
            "--trace-source 'pvc:traces//t.jsonl': path '/t.jsonl': expected a"
                + " relative path inside the volume (no leading '/', no '.' or '..'"
                + " segments)")
        .extracting(e -> ((BenchplanException) e).location())
        .isEqualTo(ErrorLocation.option("--trace-source"));
    assertThatThrownBy(() -> ArtifactTarget.parse("pvc:results/../up"))
        .hasMessage(
            "--artifacts 'pvc:results/../up': subpath '../up': expected a relative"
                + " path inside the volume (no leading '/', no '.' or '..' segments)")
        .extracting(e -> ((BenchplanException) e).location())
        .isEqualTo(ErrorLocation.option("--artifacts"));
  }

  @Test
  @DisplayName("a bad pair annotation is invalid input at its pointer in the Job")
  void pairLabel() {
    String pointer = "/metadata/annotations/benchplan.dev~1pair";
    assertThat(PairLabel.parse("p1/AB/A", pointer).annotation()).isEqualTo("p1/AB/A");
    for (String bad : List.of("p1/AB", "p1/XY/A")) {
      assertThatThrownBy(() -> PairLabel.parse(bad, pointer))
          .hasMessage(
              pointer
                  + ": "
                  + (bad.equals("p1/AB")
                      ? "p1/AB: expected ID/AB|BA/A|B"
                      : "--pair-order XY: expected AB (the reference, arm A, ran first) or BA"))
          .extracting(e -> ((BenchplanException) e).location())
          .isEqualTo(ErrorLocation.pointer(null, pointer));
    }
  }

  @Test
  @DisplayName("the HF token Secret: named like one, else the only one, else none")
  void hfSecret() {
    assertThat(PlanRenderer.hfTokenSecret(List.of("pull-secret", "hf-token-secret")))
        .isEqualTo("hf-token-secret");
    assertThat(PlanRenderer.hfTokenSecret(List.of("huggingface"))).isEqualTo("huggingface");
    assertThat(PlanRenderer.hfTokenSecret(List.of("model-token"))).isEqualTo("model-token");
    assertThat(PlanRenderer.hfTokenSecret(List.of("a", "b"))).isNull();
    assertThat(PlanRenderer.hfTokenSecret(List.of())).isNull();
  }

  @Test
  @DisplayName("the Job deadline is the measurement limit plus a bounded margin")
  void budget() {
    assertThat(new JobBudget(1800, true).activeDeadlineSeconds())
        .isEqualTo(1800 + 600 + 300 + 300 + 30 + 60);
    assertThat(new JobBudget(60, false).activeDeadlineSeconds())
        .isEqualTo(60 + 600 + 300 + 30 + 60);
  }
}
