package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.PlanFixture;
import dev.benchplan.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compares our Job with Dynamo's own recipe benchmark manifests
 * (../shared/data/dynamo/VERSION/recipes), analysed the same way: we keep their essentials (wait
 * for the model, streaming, seed, warmup, an artifact directory) and none of their faults (floating
 * image, unbounded sleeps, downloads at run time, bare Pods, privileged containers, retries, no
 * deadline).
 */
class RecipeComparisonTest {
  static Map<String, JobTraits> recipes = new TreeMap<>();

  @TempDir Path tmp;

  @BeforeAll
  static void readRecipes() throws Exception {
    Path dynamo = SharedData.require("dynamo/SOURCES.txt").getParent();
    try (Stream<Path> files = Files.walk(dynamo)) {
      for (Path p : files.filter(f -> f.getFileName().toString().equals("perf.yaml")).toList()) {
        recipes.put(dynamo.relativize(p).toString(), JobTraits.of(p));
      }
    }
    Assumptions.assumeTrue(
        recipes.size() >= 4, "skipped: fewer than 4 Dynamo recipe perf.yaml files");
  }

  @Test
  @DisplayName("the analysis reads the real recipes as they are")
  void recipesAsTheyAre() {
    JobTraits llama = recipes.get("main-2026-08-21/recipes/llama-3-70b/vllm/agg/perf.yaml");
    assertThat(llama.kind()).isEqualTo("Job");
    assertThat(
            List.of(
                llama.waitsForModel(),
                llama.streaming(),
                llama.seed(),
                llama.warmup(),
                llama.artifactDir()))
        .containsOnly(true);
    assertThat(List.of(llama.unboundedSleep(), llama.runtimeDownload(), llama.privileged()))
        .containsOnly(true);
    assertThat(llama.imagePinned()).isFalse();
    assertThat(llama.backoffLimit()).isEqualTo(1);
    assertThat(llama.activeDeadlineSeconds()).isNull();

    JobTraits qwen =
        recipes.get("main-2026-08-21/recipes/qwen3-32b/vllm/agg-round-robin/perf.yaml");
    assertThat(qwen.barePod()).isTrue();
    assertThat(qwen.waitsForModel()).isTrue();
    assertThat(qwen.streaming()).isTrue();
    assertThat(qwen.seed()).isFalse();
    assertThat(qwen.warmup()).isFalse();
    assertThat(qwen.unboundedSleep()).isTrue();
    assertThat(qwen.runtimeDownload()).isTrue();

    JobTraits deepseek =
        recipes.get("main-2026-08-21/recipes/deepseek-v32-fp4/trtllm/agg-round-robin/perf.yaml");
    assertThat(deepseek.warmup()).as("a separate warmup run").isTrue();
    assertThat(deepseek.seed()).isTrue();
    assertThat(deepseek.runtimeDownload()).isTrue();

    JobTraits old = recipes.get("v0.9.0/recipes/llama-3-70b/vllm/agg/perf.yaml");
    assertThat(old.runtimeDownload()).as("pip install git+https://...").isTrue();
    // every recipe has at least one of the faults we avoid
    recipes.forEach(
        (name, t) ->
            assertThat(t.unboundedSleep() || t.runtimeDownload() || !t.imagePinned() || t.barePod())
                .as(name)
                .isTrue());
  }

  @Test
  @DisplayName("our Jobs keep every essential the recipes have and none of their faults")
  void oursKeepEssentialsWithoutFaults() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 20);
    Map<String, PlanFixture> plans = new TreeMap<>();
    plans.put("static 0.11.0", PlanFixture.userStatic());
    plans.put("static 0.6.0 flags", PlanFixture.userStatic().aiperf("0.6.0"));
    plans.put("trace replay 0.11.0", PlanFixture.userTrace(trace, "t.jsonl"));
    plans.put("trace replay 0.9.0 flags", PlanFixture.userTrace(trace, "t.jsonl").aiperf("0.9.0"));
    plans.put(
        "open loop 0.13.0", PlanFixture.userStatic().openLoop("poisson", 2.0).aiperf("0.13.0"));
    int i = 0;
    for (var e : plans.entrySet()) {
      PlanFixture.Written w = e.getValue().write(tmp.resolve("p" + i + ".json"));
      Rendered r = Rendered.render(w, Files.createDirectories(tmp.resolve("d" + i++)));
      JobTraits ours = JobTraits.of(r.perfText());
      String as = e.getKey();
      // essentials: everything any recipe has, we have
      assertThat(ours.waitsForModel()).as(as).isTrue();
      assertThat(ours.boundedWait()).as(as).isTrue();
      assertThat(ours.streaming()).as(as).isTrue();
      assertThat(ours.seed()).as(as).isTrue();
      assertThat(ours.warmup()).as(as).isTrue();
      assertThat(ours.artifactDir()).as(as).isTrue();
      // faults: none of theirs
      assertThat(ours.unboundedSleep()).as(as).isFalse();
      assertThat(ours.runtimeDownload()).as(as).isFalse();
      assertThat(ours.imagePinned()).as(as).isTrue();
      assertThat(ours.barePod()).as(as).isFalse();
      assertThat(ours.privileged()).as(as).isFalse();
      assertThat(ours.hostPath()).as(as).isFalse();
      assertThat(ours.backoffLimit()).as(as).isZero();
      assertThat(ours.activeDeadlineSeconds()).as(as).isNotNull().isPositive();
      for (var recipe : recipes.entrySet()) {
        JobTraits t = recipe.getValue();
        if (t.streaming()) {
          assertThat(ours.streaming()).isTrue();
        }
        if (t.seed()) {
          assertThat(ours.seed()).isTrue();
        }
        if (t.warmup()) {
          assertThat(ours.warmup()).isTrue();
        }
      }
    }
  }

  @Test
  @DisplayName("the unbounded-sleep check tells a deadline loop from a bare one")
  void sleepHeuristic() {
    assertThat(JobTraits.unboundedSleep("while ! curl -s x; do sleep 5; done")).isTrue();
    assertThat(JobTraits.unboundedSleep("until [ $SECONDS -gt 600 ] || curl x; do sleep 5; done"))
        .isFalse();
    assertThat(JobTraits.unboundedSleep("tmux send-keys x\nsleep 7200")).isTrue();
    assertThat(JobTraits.unboundedSleep("while True:\n    time.sleep(5)")).isTrue();
    assertThat(
            JobTraits.unboundedSleep(
                "if time.monotonic() >= deadline:\n    sys.exit(1)\ntime.sleep(5)"))
        .isFalse();
  }
}
