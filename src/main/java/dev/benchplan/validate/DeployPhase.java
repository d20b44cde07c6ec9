package dev.benchplan.validate;

/**
 * Creates the default deployment as planned: the run's namespace, the model cache (PVC and its
 * populate Job) and the DGD, each recorded in the ledger before it is created.
 */
final class DeployPhase {
  private DeployPhase() {}

  /** Creates everything and returns the DGD as created (not yet ready). */
  static DgdView deploy(
      ValidateContext ctx,
      ValidateCluster cluster,
      DgdApi api,
      DefaultDeployment deployment,
      FrontendTarget planned) {
    ValidateTimeouts t = ctx.options().timeouts();
    String ns = deployment.namespace();
    ctx.steps()
        .run(
            ValidateStep.NAMESPACE,
            t.oldNamespace(),
            "creating namespace " + ns,
            () -> {
              cluster.createNamespace(
                  ctx.run(), ns, ctx.ledger(), t.oldNamespace(), ctx.steps().sink());
              return ns;
            },
            x -> "created " + x);
    ModelCache cache = deployment.modelCache();
    if (cache != null) {
      ctx.steps()
          .run(
              ValidateStep.MODEL_CACHE,
              t.modelCache(),
              cache.downloading(),
              () -> {
                cluster.populateModelCache(cache, ctx.steps().sink());
                return cache;
              },
              c -> "cached; workers mount it read-only, offline");
    }
    return ctx.steps()
        .run(
            ValidateStep.DEPLOY,
            null,
            "creating DGD "
                + ns
                + "/"
                + deployment.name()
                + " ("
                + api.apiVersion()
                + ", "
                + deployment.workers()
                + " x "
                + DefaultDeployment.WORKER
                + " on "
                + planned.node()
                + ")",
            () -> cluster.createDgd(api, deployment.manifest(), ctx.ledger()),
            v -> "created " + v.ref());
  }
}
