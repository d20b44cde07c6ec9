package dev.benchplan.validate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * validate's first phase, before the cluster is touched: the constraints of the overlay (or the
 * defaults), then every input resolved with its source. A bad value is exit 2 with nothing written.
 */
final class ConstraintsPhase {
  private ConstraintsPhase() {}

  /**
   * The constraints and the inputs.
   *
   * @param request the constraints requested (before they are sized to the load)
   * @param recipe the recipe's settings (none without --recipe)
   * @param inputs every input resolved, with its source
   */
  record Resolved(PerformanceRequest request, RecipeSettings recipe, ValidateInputs inputs) {
    Resolved {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(recipe, "recipe");
      Objects.requireNonNull(inputs, "inputs");
    }

    /** Why there is nothing to validate: the recipe's componentRefs leave Dynamo out; or null. */
    @Nullable String withoutDynamo(@Nullable Path recipePath) {
      if (recipe.componentRefs() && !recipe.dynamoPlatform()) {
        return recipePath
            + ": spec.componentRefs does not include "
            + RecipeSettings.DYNAMO_PLATFORM
            + ": no Dynamo platform to validate";
      }
      return null;
    }
  }

  /** The constraints: the overlay's, or the defaults. */
  static PerformanceRequest read(ValidateContext ctx) {
    ValidateOptions options = ctx.options();
    Path recipe = options.recipe();
    PerformanceRequest request =
        ctx.steps()
            .run(
                ValidateStep.CONSTRAINTS,
                null,
                "reading constraints from " + (recipe == null ? "the defaults" : recipe),
                () ->
                    recipe == null
                        ? PerformanceRequest.defaults()
                        : ValidationOverlay.load(recipe, options.allowUnknownConstraints()),
                r ->
                    r.runs()
                        ? r.constraints().size() + " constraint(s) from " + r.source()
                        : "check not requested");
    ctx.doc().constraints(request);
    return request;
  }

  /** Every input (flag > recipe > environment > default), resolved before the cluster is seen. */
  static Resolved resolve(ValidateContext ctx, PerformanceRequest request) {
    ValidateOptions options = ctx.options();
    Path path = options.recipe();
    RecipeSettings recipe =
        ctx.steps()
            .run(
                ValidateStep.CONSTRAINTS,
                null,
                "resolving inputs (flag > recipe > "
                    + InputFlags.ENV_PREFIX
                    + "* > "
                    + options.flags().defaults().source()
                    + ")",
                () -> path == null ? RecipeSettings.none() : ValidationOverlay.settings(path),
                r ->
                    r.settings().isEmpty()
                        ? "no inputs in the recipe"
                        : "recipe sets " + r.settings().keySet());
    ValidateInputs inputs =
        ctx.steps()
            .run(
                ValidateStep.CONSTRAINTS,
                null,
                "resolving model and load",
                () -> ValidateInputs.resolve(options, recipe, path != null),
                ConstraintsPhase::describe);
    ctx.doc().inputs(inputs);
    inputs.warnings().forEach(w -> ctx.err().println("validate: warning: " + w));
    return new Resolved(request, recipe, inputs);
  }

  private static String describe(ValidateInputs in) {
    List<String> parts = new ArrayList<>();
    for (String k :
        List.of(
            ValidateInputs.MODEL,
            ValidateInputs.CONCURRENCY_PER_GPU,
            ValidateInputs.CONCURRENCY_PER_WORKER,
            ValidateInputs.ROUTING_MODE,
            ValidateInputs.MODEL_CACHE_STORAGE_CLASS)) {
      ResolvedInput r = in.values().get(k);
      if (r != null) {
        parts.add(
            k
                + " "
                + (r.value() == null ? "(cluster default)" : r.value())
                + " ["
                + r.source()
                + "]");
      }
    }
    return String.join(", ", parts);
  }
}
