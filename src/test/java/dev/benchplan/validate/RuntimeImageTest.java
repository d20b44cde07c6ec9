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
  @DisplayName("image order: --runtime-image, the recipe's dynamo-platform version, the cluster's operator, the"
      + " built-in default; the cluster is asked only when the recipe names no version")
  void order() {
    AtomicInteger asked = new AtomicInteger();
    RuntimeImage.PlatformVersion cluster = new RuntimeImage.PlatformVersion("1.0.2", "operator Deployment ds/op");
    ResolvedInput fromRecipe = RuntimeImage.platformVersion(recipe("1.2.1"), () -> {
      asked.incrementAndGet();
      return cluster;
    });
    assertThat(asked).hasValue(0);
    assertThat(fromRecipe.source()).isEqualTo("recipe");
    assertThat(RuntimeImage.image("my/img:1", fromRecipe))
        .isEqualTo(new ResolvedInput("my/img:1", "flag", "--runtime-image"));
    ResolvedInput img = RuntimeImage.image(null, fromRecipe);
    assertThat(img.value()).isEqualTo("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1");
    assertThat(img.source()).isEqualTo("recipe");

    ResolvedInput fromCluster = RuntimeImage.platformVersion(recipe(null), () -> cluster);
    assertThat(RuntimeImage.image(null, fromCluster))
        .extracting(ResolvedInput::value, ResolvedInput::source)
        .containsExactly("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.2", "cluster");

    ResolvedInput none = RuntimeImage.platformVersion(RecipeSettings.none(),
        () -> RuntimeImage.PlatformVersion.unknown("forbidden to list Deployments (403)"));
    ResolvedInput dflt = RuntimeImage.image(null, none);
    assertThat(dflt.value()).isEqualTo("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1-cuda13")
        .isEqualTo(ValidateOptions.DEFAULT_RUNTIME_IMAGE);
    assertThat(dflt.source()).isEqualTo("default");
    assertThat(dflt.origin()).contains("403");
  }

  @Test
  @DisplayName("a Dynamo runtime older than the platform is named in a warning; equal or newer is not")
  void older() {
    ResolvedInput platform = new ResolvedInput("1.0.2", "cluster", "operator");
    String w = RuntimeImage.olderThanPlatform("ns/d", Set.of("nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0"), platform);
    assertThat(w).contains("ns/d runs nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0").contains("older than the Dynamo"
        + " platform 1.0.2");
    assertThat(RuntimeImage.olderThanPlatform("ns/d", Set.of("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1-cuda13"),
        platform)).isNull();
    assertThat(RuntimeImage.olderThanPlatform("ns/d", Set.of("docker.io/other:0.1"), platform)).isNull();
    assertThat(RuntimeImage.olderThanPlatform("ns/d", Set.of("nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0"),
        new ResolvedInput(null, "default", "unknown"))).isNull();
  }
}
