package dev.benchplan.workload;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Picks the workload source in the order of
 * agent-docs/rules/benchmarking/proxy-workload-selection.md: a user trace, else the user's exact
 * ISL/OSL with traffic controls, else the closest Dynamo recipe shape as a proxy (with its
 * rationale and known mismatches).
 */
public final class WorkloadSourceSelector {
  private WorkloadSourceSelector() {}

  /**
   * Selects the source; logs the decision, or a blocker (TRACE_AMBIGUOUS, NO_DEFENSIBLE_WORKLOAD).
   *
   * @param traceOverride a trace named on the command line ({@code --trace}), or null
   * @param gridDeclared true when a grid maximum was declared outside the workload (a load control
   *     for {@code user_static})
   */
  public static Optional<SourceSelection> select(
      UserWorkload workload,
      @Nullable Path traceOverride,
      boolean gridDeclared,
      DeploymentRecord deployment,
      RuleLog log) {
    RuleFile rule = RuleFile.PROXY_WORKLOAD_SELECTION;
    if (traceOverride != null) {
      String reason =
          "a user trace is the first choice; it was named with --trace"
              + (workload.supportingTraces().isEmpty()
                  ? ""
                  : ", which takes precedence over artifacts.supporting_traces");
      log.decide(rule, "workload.source = user_trace", reason);
      return Optional.of(
          new SourceSelection(
              WorkloadSource.user_trace,
              traceOverride.toAbsolutePath().normalize(),
              "--trace",
              null,
              reason,
              List.of()));
    }
    List<UserWorkload.SupportingTrace> traces = workload.supportingTraces();
    if (traces.size() > 1) {
      log.block(
          BlockerCode.TRACE_AMBIGUOUS,
          "user workload "
              + workload.document().at("/artifacts/supporting_traces")
              + ": "
              + traces.size()
              + " supporting traces; a series replays exactly one, so name it with --trace");
      return Optional.empty();
    }
    if (traces.size() == 1) {
      UserWorkload.SupportingTrace t = traces.get(0);
      String reason = "a user trace is the first choice; the workload lists one at " + t.pointer();
      log.decide(rule, "workload.source = user_trace", reason);
      return Optional.of(
          new SourceSelection(
              WorkloadSource.user_trace, t.path(), t.pointer(), null, reason, List.of()));
    }
    Traffic traffic = workload.traffic();
    if (traffic.hasShape() && (traffic.hasLoadControl() || gridDeclared)) {
      String reason =
          "no user trace; the workload gives exact input_tokens "
              + traffic.inputTokens()
              + " and output_tokens "
              + traffic.outputTokens()
              + " with traffic controls ("
              + loadControls(traffic, gridDeclared)
              + "), kept exactly";
      log.decide(rule, "workload.source = user_static", reason);
      return Optional.of(
          new SourceSelection(WorkloadSource.user_static, null, null, null, reason, List.of()));
    }
    return proxy(workload, deployment, log);
  }

  private static String loadControls(Traffic t, boolean gridDeclared) {
    List<String> parts = new ArrayList<>();
    if (t.hasConcurrency()) {
      parts.add("concurrency " + t.concurrency());
    }
    if (t.hasRequestRate()) {
      parts.add("request_rate " + t.requestRate());
    }
    if (t.maxConcurrency() != null) {
      parts.add("max_concurrency " + t.maxConcurrency());
    }
    if (t.maxRequestRate() != null) {
      parts.add("max_request_rate " + t.maxRequestRate().toPlainString());
    }
    if (gridDeclared) {
      parts.add("a grid maximum declared on the command line");
    }
    return String.join(", ", parts);
  }

  private static Optional<SourceSelection> proxy(
      UserWorkload workload, DeploymentRecord deployment, RuleLog log) {
    RuleFile rule = RuleFile.PROXY_WORKLOAD_SELECTION;
    Traffic traffic = workload.traffic();
    Long context = deployment.maxContextLength();
    List<RecipeShape> fitting =
        RecipeCatalogue.DYNAMO.stream()
            .filter(r -> context == null || (long) r.isl() + r.osl() <= context)
            .toList();
    if (fitting.isEmpty()) {
      log.block(
          BlockerCode.NO_DEFENSIBLE_WORKLOAD,
          "user workload "
              + workload.document().location()
              + ": no trace, no exact input_tokens/output_tokens with traffic controls, and no Dynamo"
              + " recipe shape fits the served context of "
              + context
              + " tokens; add a trace or the"
              + " exact traffic section");
      return Optional.empty();
    }
    String family =
        RecipeCatalogue.familyOf(
            workload.modelSource() != null ? workload.modelSource() : deployment.servedModel());
    int gpus = deployment.gpuTotal();
    RecipeShape best =
        fitting.stream()
            .min(
                Comparator.comparingDouble((RecipeShape r) -> distance(r, traffic, family, gpus))
                    .thenComparing(RecipeShape::id))
            .orElseThrow();
    List<String> mismatches = mismatches(best, workload, deployment, family);
    String rationale = rationale(best, traffic, family, gpus, fitting.size());
    log.decide(rule, "workload.source = recipe_proxy (" + best.id() + ")", rationale);
    log.warn(
        rule,
        "workload.source is recipe_proxy ("
            + best.id()
            + "): results support"
            + " exploration, not validation of the user's workload");
    return Optional.of(
        new SourceSelection(WorkloadSource.recipe_proxy, null, null, best, rationale, mismatches));
  }

  /**
   * How far a recipe is from what is known of the user's workload: log-ratio distance on the ISL
   * and OSL the user gave, half a point for another model family, a quarter of the log-ratio of GPU
   * counts.
   */
  static double distance(RecipeShape r, Traffic t, @Nullable String family, int gpus) {
    double d = 0;
    if (t.inputTokens() != null) {
      d += Math.abs(Math.log((double) t.inputTokens() / r.isl()));
    }
    if (t.outputTokens() != null) {
      d += Math.abs(Math.log((double) t.outputTokens() / r.osl()));
    }
    if (family == null || !family.equals(r.family())) {
      d += 0.5;
    }
    d += 0.25 * Math.abs(Math.log((double) gpus / r.recipeGpus()));
    return d;
  }

  private static String rationale(
      RecipeShape r, Traffic t, @Nullable String family, int gpus, int fitting) {
    StringBuilder sb =
        new StringBuilder(
            "no user trace and no exact input_tokens/output_tokens with" + " traffic controls; ");
    sb.append("closest of ")
        .append(fitting)
        .append(" Dynamo recipe shapes that fit the served" + " context: ")
        .append(r.id())
        .append(" (ISL ")
        .append(r.isl())
        .append(", OSL ")
        .append(r.osl())
        .append(", ")
        .append(r.concurrencyPerGpu())
        .append(" concurrent per GPU; ")
        .append(r.origin())
        .append("), chosen by ");
    List<String> by = new ArrayList<>();
    if (t.inputTokens() != null) {
      by.add("input length " + t.inputTokens());
    }
    if (t.outputTokens() != null) {
      by.add("output length " + t.outputTokens());
    }
    by.add(family == null ? "no known model family" : "model family " + family);
    by.add(gpus + " deployment GPU(s)");
    sb.append(String.join(", ", by));
    return sb.toString();
  }

  private static List<String> mismatches(
      RecipeShape r, UserWorkload w, DeploymentRecord d, @Nullable String family) {
    List<String> m = new ArrayList<>();
    m.add(
        "synthetic prompts of exactly "
            + r.isl()
            + " input tokens (stddev 0) instead of the"
            + " user's real input-length distribution");
    m.add(
        "output forced to exactly "
            + r.osl()
            + " tokens with ignore_eos instead of the user's"
            + " natural output lengths");
    m.add("random prompt content: no prefix or KV-cache reuse, whatever the user's traffic has");
    m.add("closed-loop concurrency instead of the user's arrival process");
    Traffic t = w.traffic();
    if (t.inputTokens() != null && t.inputTokens() != r.isl()) {
      m.add("user input_tokens " + t.inputTokens() + " vs recipe ISL " + r.isl());
    }
    if (t.outputTokens() != null && t.outputTokens() != r.osl()) {
      m.add("user output_tokens " + t.outputTokens() + " vs recipe OSL " + r.osl());
    }
    if (!r.model().equalsIgnoreCase(d.servedModel())) {
      m.add(
          "recipe written for "
              + r.model()
              + (family != null && family.equals(r.family()) ? " (same family)" : "")
              + ", the deployment serves "
              + d.servedModel());
    }
    if (d.gpuTotal() != r.recipeGpus()) {
      m.add(
          "recipe runs on "
              + r.recipeGpus()
              + " GPUs, the deployment has "
              + d.gpuTotal()
              + "; concurrency scaled per GPU");
    }
    if (t.hasConcurrency() || t.hasRequestRate()) {
      m.add(
          "the user's traffic controls ("
              + loadControls(t, false)
              + ") are not used: a proxy"
              + " runs the recipe's load (give input_tokens and output_tokens for user_static)");
    }
    if (!"chat".equals(w.profileType())) {
      m.add(
          "profile type '"
              + w.profileType()
              + "' traffic is not represented by a single-turn"
              + " synthetic shape");
    }
    return m;
  }
}
