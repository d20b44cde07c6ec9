package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ObjectAssert;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate's invalid input carries where it was given (issue 34): the option, the overlay entry's
 * JSON pointer, or the environment variable, as the throw site knew it; nothing is read back out of
 * a message.
 */
class ValidateErrorLocationsTest {
  @TempDir Path dir;

  /** The place of the invalid input (exit 2) that {@code r} throws. */
  static ObjectAssert<ErrorLocation> location(Runnable r) {
    Throwable t = catchThrowable(r::run);
    assertThat(t).isInstanceOf(BenchplanException.class);
    BenchplanException e = (BenchplanException) t;
    assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(2);
    return assertThat(e.location());
  }

  Path overlay(String yaml) throws Exception {
    return Files.writeString(dir.resolve("overlay.yaml"), yaml);
  }

  static ValidateOptions options(InputFlags flags) {
    return ValidateOptions.builder(Path.of("r")).flags(flags).build();
  }

  static InputFlags flags(String routing, Map<String, String> env) {
    return new InputFlags(
        null, false, false, false, routing, null, InputFlags.Defaults.BENCHPLAN, env);
  }

  @Test
  @DisplayName("an input is placed at its option, its overlay entry's value, or its variable")
  void inputs() throws Exception {
    location(
            () ->
                ValidateInputs.resolve(
                    options(flags("kv", Map.of())), RecipeSettings.none(), false))
        .isEqualTo(ErrorLocation.option("--routing-mode"));
    Path o =
        overlay(
            "validation: {performance: {checks: [inference-perf], constraints: ["
                + "{name: inference-throughput, value: '>= 1'},"
                + " {name: inference-concurrency-per-gpu, value: 'many'}]}}");
    RecipeSettings recipe = ValidationOverlay.settings(o);
    location(() -> ValidateInputs.resolve(options(flags(null, Map.of())), recipe, true))
        .isEqualTo(ErrorLocation.pointer(o, "/validation/performance/constraints/1/value"));
    location(
            () ->
                ValidateInputs.resolve(
                    options(
                        flags(
                            null,
                            Map.of("BENCHPLAN_VALIDATE_MODEL_CACHE_STORAGE_CLASS", "Bad_SC"))),
                    RecipeSettings.none(),
                    false))
        .isEqualTo(ErrorLocation.field("BENCHPLAN_VALIDATE_MODEL_CACHE_STORAGE_CLASS"));
    location(
            () ->
                ValidateInputs.resolve(
                    options(
                        flags(
                            null,
                            Map.of(
                                "BENCHPLAN_VALIDATE_CONCURRENCY_PER_GPU", "8",
                                "BENCHPLAN_VALIDATE_CONCURRENCY_PER_WORKER", "8"))),
                    RecipeSettings.none(),
                    false))
        .isEqualTo(ErrorLocation.field("BENCHPLAN_VALIDATE_CONCURRENCY_PER_GPU"));
    // a good value keeps its place for later checks; a default has none
    ValidateInputs ok =
        ValidateInputs.resolve(
            options(flags("dynamo-router", Map.of())), RecipeSettings.none(), false);
    assertThat(ok.location(ValidateInputs.ROUTING_MODE))
        .isEqualTo(ErrorLocation.option("--routing-mode"));
    assertThat(ok.location(ValidateInputs.MODEL)).isEqualTo(ErrorLocation.NONE);
  }

  @Test
  @DisplayName(
      "the overlay's platform version at its componentRefs entry; a zero threshold at its constraint")
  void overlay() throws Exception {
    Path o =
        overlay(
            "kind: RecipeMetadata\n"
                + "spec:\n"
                + "  componentRefs: [{name: gpu-operator, version: '25.3'},"
                + " {name: dynamo-platform, version: '1.2 beta'}]\n"
                + "  validation: {performance: {checks: [inference-perf], constraints: ["
                + "{name: inference-throughput, value: '>= 0'}]}}\n");
    RecipeSettings recipe = ValidationOverlay.settings(o);
    location(
            () ->
                RuntimeImage.platformVersion(
                    recipe,
                    () -> {
                      throw new AssertionError("the recipe names the version");
                    }))
        .isEqualTo(ErrorLocation.pointer(o, "/spec/componentRefs/1/version"));
    location(() -> ValidationOverlay.load(o))
        .isEqualTo(new ErrorLocation(o.toString(), null, null, null, "inference-throughput"));
  }

  @Test
  @DisplayName(
      "a model the DGD does not serve is placed where the model was given; a per-GPU load without a"
          + " GPU count at its option")
  void discovery() throws Exception {
    DgdCandidate served = ValidateServiceTest.existing("a", "x", 1);
    Path o =
        overlay(
            "validation: {performance: {checks: [inference-perf], constraints: ["
                + "{name: inference-model, value: other/model},"
                + " {name: inference-throughput, value: '>= 1'}]}}");
    ErrorLocation entry = ErrorLocation.pointer(o, "/validation/performance/constraints/0/value");
    location(() -> FrontendTarget.discovered(served, "other/model", "the recipe", entry))
        .isEqualTo(entry);
    location(() -> FrontendTarget.discovered(served, "other/model"))
        .isEqualTo(ErrorLocation.option("--model"));

    // the whole service: an existing DGD whose document requests no GPU has no per-GPU count
    FakeValidateCluster cluster = new FakeValidateCluster();
    cluster.dgds.add(served);
    ValidateService s =
        new ValidateService(
            x -> cluster,
            ScriptedRunner.gate(cluster, 6000, 100),
            Clock.systemUTC(),
            new PrintWriter(new StringWriter(), true),
            r -> () -> {},
            "test");
    ValidateOptions perGpu =
        ValidateOptions.builder(dir.resolve("report"))
            .aiperfVersion("0.4.0")
            .flags(
                new InputFlags(
                    8, false, false, false, null, null, InputFlags.Defaults.BENCHPLAN, Map.of()))
            .build();
    location(() -> s.execute(perGpu)).isEqualTo(ErrorLocation.option("--concurrency-per-gpu"));
    assertThat(dir.resolve("report")).doesNotExist();
    assertThat(List.copyOf(cluster.existing)).isEmpty();
  }
}
