package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ExitCode;
import dev.benchplan.gate.Constraint;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The default deployment, planned before anything is created: the GPU node and its worker count,
 * the runtime image, the model cache's StorageClass, the GPUs the load rests on and AICR's floor
 * scaling on a partly occupied node. Creating it is {@link DeployPhase}'s.
 */
final class DeploymentPlanPhase {
  /** The GPU model label of NVIDIA's GPU feature discovery, recorded with the deployment. */
  static final String GPU_PRODUCT_LABEL = "nvidia.com/gpu.product";

  private DeploymentPlanPhase() {}

  static TargetChoice plan(
      ValidateContext ctx,
      ValidateCluster cluster,
      DgdApi api,
      DiscoveryPhase.Discovered found,
      PerformanceRequest request) {
    ValidateOptions options = ctx.options();
    ValidateRun run = ctx.run();
    DiscoveryDecision.Deploy p = (DiscoveryDecision.Deploy) found.decision();
    ctx.doc().discovery(found.scope(), found.seen(), "deploy", p.reason());
    ValidateTimeouts t = options.timeouts();
    ctx.steps()
        .run(
            ValidateStep.OLD_NAMESPACES,
            t.oldNamespace(),
            "waiting for earlier validate namespaces to go",
            () -> {
              cluster.awaitOldNamespacesGone(
                  t.oldNamespace(), options.modelCache(), ctx.steps().sink());
              return Boolean.TRUE;
            },
            x -> "none terminating");
    GpuNodeChoice choice =
        ctx.steps()
            .run(
                ValidateStep.NODE_SELECTION,
                null,
                "choosing the GPU node"
                    + (options.nodeSelector().isEmpty()
                        ? ""
                        : " matching " + options.nodeSelector()),
                () -> DraNodeChoice.choose(cluster, options.nodeSelector()),
                c ->
                    c.node().name()
                        + " with "
                        + c.workers()
                        + " free GPU(s) -> "
                        + c.workers()
                        + " worker(s)");
    ResolvedInput image = RuntimeImage.image(options.runtimeImage(), found.platform());
    String imageText = Objects.requireNonNull(image.text()); // RuntimeImage.image always names one
    ValidateInputs inputs = found.inputs().with("runtime_image", image);
    GpuNode node = choice.node();
    String hostname = node.labels().getOrDefault(DefaultDeployment.HOSTNAME_LABEL, node.name());
    ModelCache cache =
        options.modelCache() ? modelCache(ctx, cluster, inputs, imageText, hostname, node) : null;
    DefaultDeployment deployment =
        new DefaultDeployment(
            run,
            api.apiVersion(),
            run.namespace(),
            inputs.model(),
            choice.workers(),
            hostname,
            node.taints(),
            imageText,
            options.hfTokenSecret(),
            cache);
    ctx.doc().deployment(choice, deployment);
    ResolvedInput m = Objects.requireNonNull(inputs.values().get(ValidateInputs.MODEL));
    FrontendTarget target =
        FrontendTarget.planned(deployment, node.name(), m.source() + ": " + m.origin());
    GpuCount gpus =
        new GpuCount(
            choice.workers(),
            "default deployment: 1 "
                + GpuNode.GPU_RESOURCE
                + " x "
                + choice.workers()
                + " worker(s) on node "
                + node.name(),
            null);
    return new TargetChoice(
        target,
        deployment,
        deployment.manifest(),
        node.labels().getOrDefault(GPU_PRODUCT_LABEL, "unknown"),
        gpus,
        floorScale(ctx, node, request),
        inputs);
  }

  /**
   * The model cache, its StorageClass resolved before anything is created (a missing class is exit
   * 2 with nothing left behind): --model-cache-storage-class > recipe > BENCHPLAN_VALIDATE_* > the
   * cluster's default class.
   */
  private static ModelCache modelCache(
      ValidateContext ctx,
      ValidateCluster cluster,
      ValidateInputs inputs,
      String image,
      String hostname,
      GpuNode node) {
    ValidateOptions options = ctx.options();
    ResolvedInput resolvedClass = inputs.values().get(ValidateInputs.MODEL_CACHE_STORAGE_CLASS);
    String named =
        options.modelCacheStorageClass() != null
            ? options.modelCacheStorageClass()
            : inputs.modelCacheStorageClass();
    String classSource =
        named == null
            ? "cluster-default"
            : options.modelCacheStorageClass() == null && resolvedClass != null
                ? resolvedClass.source()
                : "flag";
    // where the class was named (option, overlay entry, variable); without one, the option to name
    // it
    ErrorLocation classAt =
        options.modelCacheStorageClass() != null || named == null
            ? ErrorLocation.option("--model-cache-storage-class")
            : inputs.location(ValidateInputs.MODEL_CACHE_STORAGE_CLASS);
    String storageClass =
        ctx.steps()
            .run(
                ValidateStep.MODEL_CACHE,
                null,
                named == null
                    ? "finding the cluster's default StorageClass for the model cache"
                    : "checking StorageClass " + named + " for the model cache",
                () -> storageClass(cluster, named, classAt),
                x -> x + (named == null ? " (cluster default)" : ""));
    return new ModelCache(
        ctx.run(),
        ctx.run().namespace(),
        inputs.model(),
        storageClass,
        classSource,
        options.modelCacheSize(),
        image,
        options.hfTokenSecret(),
        hostname,
        node.taints(),
        Math.max(1, options.timeouts().modelCache().toSeconds()));
  }

  /** The cluster's answer, a refusal (exit 2) placed where the class was named. */
  private static String storageClass(
      ValidateCluster cluster, @Nullable String named, ErrorLocation classAt) {
    try {
      return cluster.modelCacheStorageClass(named);
    } catch (BenchplanException e) {
      if (e.exitCode() != ExitCode.INVALID || !e.location().equals(ErrorLocation.NONE)) {
        throw e;
      }
      throw BenchplanException.invalid(classAt, String.valueOf(e.getMessage()), e);
    }
  }

  /**
   * AICR's rule on a partly occupied node: the throughput floor times free GPUs / node GPUs,
   * recorded with the figures; null on a node with every GPU free.
   */
  private static TargetChoice.@Nullable FloorScale floorScale(
      ValidateContext ctx, GpuNode n, PerformanceRequest asked) {
    long free = n.freeGpus();
    long all = n.allocatableGpus();
    if (all < 1 || free >= all) {
      return null;
    }
    TargetChoice.FloorScale scale =
        new TargetChoice.FloorScale(
            BigDecimal.valueOf(free)
                .divide(BigDecimal.valueOf(all), 6, RoundingMode.HALF_UP)
                .stripTrailingZeros(),
            "free / node GPUs " + free + "/" + all + " on node " + n.name());
    Constraint floor = asked.throughputFloor();
    if (floor != null) {
      PerformanceRequest scaled = asked.forLoad(null, null, scale.scale(), scale.why());
      // the scaled request keeps the floor it scaled
      BigDecimal scaledFloor = Objects.requireNonNull(scaled.throughputFloor()).threshold();
      ctx.doc()
          .floorScaling(
              new ValidateVerdict.FloorScaling(
                  n.name(), free, all, scale.scale(), floor.threshold(), scaledFloor));
      ctx.err()
          .println(
              "validate: throughput floor "
                  + floor.threshold().toPlainString()
                  + " scaled to "
                  + scaledFloor.toPlainString()
                  + " ("
                  + scale.why()
                  + "), as AICR does");
    }
    return scale;
  }
}
