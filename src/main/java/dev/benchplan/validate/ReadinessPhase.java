package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import java.util.Objects;

/**
 * Nothing is benchmarked until the DGD serves: the default deployment successful with every
 * component ready and its frontend where the plan expects it; an existing DGD with every component
 * at its ready replicas (a DGD can say successful while one has none).
 */
final class ReadinessPhase {
  private ReadinessPhase() {}

  /** Waits for the default deployment and returns its frontend as measured. */
  static FrontendTarget deployed(
      ValidateContext ctx,
      ValidateCluster cluster,
      DgdApi api,
      DefaultDeployment deployment,
      DgdView created,
      FrontendTarget planned) {
    ValidateTimeouts t = ctx.options().timeouts();
    String ns = deployment.namespace();
    DgdCandidate ready =
        ctx.steps()
            .run(
                ValidateStep.READINESS,
                t.dgdReady(),
                "waiting for DGD "
                    + created.ref()
                    + " to be successful with every component ready ("
                    + deployment.workers()
                    + " worker(s))",
                () -> {
                  DgdCandidate c =
                      cluster.awaitReady(
                          api,
                          ns,
                          deployment.name(),
                          deployment.desiredWorkers(),
                          t.dgdReady(),
                          ctx.steps().sink());
                  FrontendMatch f =
                      Objects.requireNonNull(c.frontend()); // a ready DGD has its frontend
                  if (!f.service().name().equals(planned.service()) || f.port() != planned.port()) {
                    throw BenchplanException.runtime(
                        "the frontend Service of "
                            + created.ref()
                            + " is "
                            + f.service().name()
                            + ":"
                            + f.port()
                            + ", but the plan targets "
                            + planned.service()
                            + ":"
                            + planned.port());
                  }
                  return c;
                },
                c ->
                    "ready; frontend Service "
                        + Objects.requireNonNull(c.frontend()).service().name()
                        + ":"
                        + Objects.requireNonNull(c.frontend()).port());
    FrontendMatch f = Objects.requireNonNull(ready.frontend());
    return new FrontendTarget(
        "deployed",
        ns,
        deployment.name(),
        ready.dgd().uid(),
        api.apiVersion(),
        f.service().name(),
        f.port(),
        f.matchedBy() + (f.ownedByDgd() ? "+owner" : ""),
        planned.model(),
        planned.modelSource(),
        planned.workers(),
        planned.node());
  }

  /** Waits until every component of an existing DGD has its ready replicas. */
  static void existing(
      ValidateContext ctx, ValidateCluster cluster, DgdApi api, FrontendTarget existing) {
    ValidateTimeouts t = ctx.options().timeouts();
    ctx.steps()
        .run(
            ValidateStep.READINESS,
            t.dgdReady(),
            "waiting for every component of DGD "
                + existing.namespace()
                + "/"
                + existing.dgdName()
                + " to have its ready replicas",
            () ->
                cluster.awaitComponentsReady(
                    api,
                    existing.namespace(),
                    existing.dgdName(),
                    t.dgdReady(),
                    ctx.steps().sink()),
            DgdView::readiness);
  }
}
