package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RuntimeImageTest {
  static RecipeSettings recipe(String version) {
    return new RecipeSettings("o.yaml", Map.of(), Map.of(), null, List.of(), true, true, version);
  }

  @Test
  @DisplayName(
      "image order: --runtime-image, the recipe's dynamo-platform version, the cluster's operator, the"
          + " built-in default; the cluster is asked only when the recipe names no version")
  void order() {
    AtomicInteger asked = new AtomicInteger();
    RuntimeImage.PlatformVersion cluster =
        new RuntimeImage.PlatformVersion("1.0.2", "operator Deployment ds/op");
    ResolvedInput fromRecipe =
        RuntimeImage.platformVersion(
            recipe("1.2.1"),
            () -> {
              asked.incrementAndGet();
              return cluster;
            });
    assertThat(asked).hasValue(0);
    assertThat(fromRecipe.source()).isEqualTo("recipe");
    assertThat(RuntimeImage.image("my/img:1", fromRecipe))
        .isEqualTo(new ResolvedInput("my/img:1", "flag", "--runtime-image"));
    ResolvedInput img = RuntimeImage.image(null, fromRecipe);
    assertThat(img.value())
        .isEqualTo("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1-cuda13")
        .isEqualTo(ValidateOptions.DEFAULT_RUNTIME_IMAGE);
    assertThat(img.source()).isEqualTo("recipe");

    ResolvedInput fromCluster = RuntimeImage.platformVersion(recipe(null), () -> cluster);
    assertThat(RuntimeImage.image(null, fromCluster))
        .extracting(ResolvedInput::value, ResolvedInput::source)
        .containsExactly("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.2-cuda13", "cluster");

    ResolvedInput none =
        RuntimeImage.platformVersion(
            RecipeSettings.none(),
            () -> RuntimeImage.PlatformVersion.unknown("forbidden to list Deployments (403)"));
    ResolvedInput dflt = RuntimeImage.image(null, none);
    assertThat(dflt.value())
        .isEqualTo("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1-cuda13")
        .isEqualTo(ValidateOptions.DEFAULT_RUNTIME_IMAGE);
    assertThat(dflt.source()).isEqualTo("default");
    assertThat(dflt.origin()).contains("403");
  }

  @Test
  @DisplayName(
      "a Dynamo runtime older than the platform is named in a warning; equal or newer is not")
  void older() {
    ResolvedInput platform = new ResolvedInput("1.0.2", "cluster", "operator");
    String w =
        RuntimeImage.olderThanPlatform(
            "ns/d", Set.of("nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0"), platform);
    assertThat(w)
        .contains("ns/d runs nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0")
        .contains("older than the Dynamo" + " platform 1.0.2");
    assertThat(
            RuntimeImage.olderThanPlatform(
                "ns/d", Set.of("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1-cuda13"), platform))
        .isNull();
    assertThat(RuntimeImage.olderThanPlatform("ns/d", Set.of("docker.io/other:0.1"), platform))
        .isNull();
    assertThat(
            RuntimeImage.olderThanPlatform(
                "ns/d",
                Set.of("nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0"),
                new ResolvedInput(null, "default", "unknown")))
        .isNull();
  }

  @Test
  @DisplayName(
      "the tag from a platform version is Dynamo's CUDA 13 build: -cuda13 for 1.0 to 1.2, the bare tag from"
          + " 1.3.0 (CUDA 13 only) and before 1.0 (no stable CUDA 13 build); a suffixed version is used as given")
  void cudaVariant() {
    Map<String, String> expected = new java.util.LinkedHashMap<>();
    expected.put("1.2.1", "1.2.1-cuda13");
    expected.put("v1.2.1", "1.2.1-cuda13");
    expected.put("1.0.0", "1.0.0-cuda13");
    expected.put("1.1.1", "1.1.1-cuda13");
    expected.put("1.3.0", "1.3.0");
    expected.put("1.3.1", "1.3.1");
    expected.put("2.0.0", "2.0.0");
    expected.put("0.9.0", "0.9.0");
    expected.put("0.8.1", "0.8.1");
    expected.put("1.2.1-cuda13", "1.2.1-cuda13");
    expected.put("1.2.0-deepseek-v4-dev.3", "1.2.0-deepseek-v4-dev.3");
    expected.forEach(
        (version, tag) -> {
          ResolvedInput img =
              RuntimeImage.image(null, new ResolvedInput(version, "recipe", "o.yaml"));
          assertThat(img.value()).as(version).isEqualTo(RuntimeImage.REPOSITORY + ":" + tag);
          assertThat(img.origin()).as(version).contains("the Dynamo platform version " + version);
        });
    // the default is what the rule gives for AICR's platform version
    assertThat(RuntimeImage.image(null, new ResolvedInput("1.2.1", "cluster", "x")).value())
        .isEqualTo(ValidateOptions.DEFAULT_RUNTIME_IMAGE);
    assertThat(RuntimeImage.image(null, new ResolvedInput("1.2.1", "cluster", "x")).origin())
        .contains("CUDA 13 build (-cuda13")
        .contains("driver 580+");
    assertThat(RuntimeImage.image(null, new ResolvedInput("1.3.0", "cluster", "x")).origin())
        .contains("the only one from Dynamo 1.3.0 on");
    assertThat(RuntimeImage.image(null, new ResolvedInput("0.9.0", "cluster", "x")).origin())
        .contains("CUDA 12 build");
    // a runtime at the platform's release, CUDA 13 build, is not older than the platform
    assertThat(
            RuntimeImage.olderThanPlatform(
                "ns/d",
                Set.of(RuntimeImage.REPOSITORY + ":1.2.1-cuda13"),
                new ResolvedInput("1.2.1", "recipe", "o.yaml")))
        .isNull();
  }
}
