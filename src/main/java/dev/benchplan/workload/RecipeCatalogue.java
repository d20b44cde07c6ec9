package dev.benchplan.workload;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The Dynamo recipe workload shapes benchplan can use as a {@code recipe_proxy}: each recipe's
 * synthetic ISL/OSL and concurrency per GPU, as its perf.yaml runs them (stddev 0, ignore_eos,
 * concurrency = per-GPU concurrency x GPUs, request count 10 x concurrency, warmup 1 x
 * concurrency). Trace-replay recipes are not listed: they replay a trace file, which a user passes
 * as their own trace.
 */
public final class RecipeCatalogue {
  /** The shapes from Dynamo's recipes/ tree (see the project's reference notes). */
  public static final List<RecipeShape> DYNAMO =
      List.of(
          new RecipeShape(
              "llama-3-70b/vllm/agg",
              "llama",
              "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic",
              "vllm",
              8192,
              1024,
              16,
              4,
              "Dynamo recipes/llama-3-70b/vllm/agg/perf.yaml (4..16 GPUs)"),
          new RecipeShape(
              "qwen3-32b-fp8/trtllm/2x2",
              "qwen",
              "Qwen/Qwen3-32B-FP8",
              "trtllm",
              4000,
              500,
              2,
              2,
              "Dynamo recipes/qwen3-32b-fp8, trtllm, 2 per GPU x 2 GPUs"),
          new RecipeShape(
              "qwen3-32b-fp8/trtllm/6x8",
              "qwen",
              "Qwen/Qwen3-32B-FP8",
              "trtllm",
              4000,
              500,
              6,
              8,
              "Dynamo recipes/qwen3-32b-fp8, trtllm, 6 per GPU x 8 GPUs"),
          new RecipeShape(
              "qwen3-32b-fp8/vllm/disagg",
              "qwen",
              "Qwen/Qwen3-32B-FP8",
              "vllm",
              2000,
              500,
              1,
              8,
              "Dynamo recipes/qwen3-32b-fp8, vllm disagg, 1 per GPU x 8 GPUs"),
          new RecipeShape(
              "qwen3-235b-a22b-fp8/2x16",
              "qwen",
              "Qwen/Qwen3-235B-A22B-FP8",
              "unspecified",
              4000,
              200,
              2,
              16,
              "Dynamo recipes/qwen3-235b-a22b-fp8, 2 per GPU x 16 GPUs"),
          new RecipeShape(
              "gpt-oss-120b/128-1000",
              "gpt-oss",
              "openai/gpt-oss-120b",
              "unspecified",
              128,
              1000,
              900,
              4,
              "Dynamo recipes/gpt-oss-120b, 900 per GPU x 4 GPUs"),
          new RecipeShape(
              "gpt-oss-120b/8192-1024",
              "gpt-oss",
              "openai/gpt-oss-120b",
              "unspecified",
              8192,
              1024,
              256,
              6,
              "Dynamo recipes/gpt-oss-120b, 256 per GPU x 6 GPUs"),
          new RecipeShape(
              "deepseek-r1/wide-ep",
              "deepseek",
              "deepseek-ai/DeepSeek-R1",
              "unspecified",
              1024,
              1024,
              30,
              36,
              "Dynamo recipes/deepseek-r1 wide-ep, 30 per GPU x 36 GPUs"));

  private RecipeCatalogue() {}

  /** The model family a model name belongs to, or null when none of the catalogue's. */
  public static @Nullable String familyOf(String model) {
    if (model == null) {
      return null;
    }
    String m = model.toLowerCase(java.util.Locale.ROOT);
    for (String family : List.of("gpt-oss", "deepseek", "llama", "qwen")) {
      if (m.contains(family)) {
        return family;
      }
    }
    return null;
  }
}
