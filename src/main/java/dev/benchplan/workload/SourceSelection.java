package dev.benchplan.workload;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The chosen workload source.
 *
 * @param source user_trace, user_static or recipe_proxy
 * @param trace the trace file (user_trace only)
 * @param traceOrigin where the trace was named: a workload pointer or {@code --trace}
 * @param recipe the proxy recipe shape (recipe_proxy only)
 * @param rationale why this source (and, for a proxy, why this recipe)
 * @param mismatches known differences between a proxy and the user's workload (proxy only)
 */
public record SourceSelection(
    WorkloadSource source,
    @Nullable Path trace,
    @Nullable String traceOrigin,
    @Nullable RecipeShape recipe,
    String rationale,
    List<String> mismatches) {
  public SourceSelection {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(rationale, "rationale");
    mismatches = List.copyOf(mismatches);
    if (source == WorkloadSource.user_trace && trace == null) {
      throw new IllegalArgumentException("user_trace needs a trace");
    }
    if (source == WorkloadSource.recipe_proxy && recipe == null) {
      throw new IllegalArgumentException("recipe_proxy needs a recipe");
    }
  }
}
