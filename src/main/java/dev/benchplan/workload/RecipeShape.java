package dev.benchplan.workload;

import java.util.Objects;

/**
 * The synthetic workload shape of one Dynamo recipe's benchmark Job.
 *
 * @param id a stable identifier, e.g. {@code llama-3-70b/vllm/agg}
 * @param family the model family, for matching (llama, qwen, gpt-oss, deepseek)
 * @param model the recipe's model
 * @param framework vllm or trtllm, or "unspecified" when the notes do not say
 * @param isl input sequence length (tokens, stddev 0)
 * @param osl output sequence length (tokens, stddev 0, ignore_eos)
 * @param concurrencyPerGpu concurrency per GPU the recipe runs
 * @param recipeGpus GPUs the recipe is written for
 * @param origin where the shape comes from
 */
public record RecipeShape(
    String id,
    String family,
    String model,
    String framework,
    int isl,
    int osl,
    int concurrencyPerGpu,
    int recipeGpus,
    String origin) {
  public RecipeShape {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(family, "family");
    if (isl < 1 || osl < 1 || concurrencyPerGpu < 1 || recipeGpus < 1) {
      throw new IllegalArgumentException("recipe shape values must be positive: " + id);
    }
  }
}
