package dev.benchplan.validate;

import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ExitCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * validate's discovery: connect, look up the DGD CRD, find the DGDs in scope and decide between one
 * existing DGD (read here into a {@link TargetChoice}) and the default deployment ({@link
 * DeploymentPlanPhase}); several candidates are refused (exit 2, nothing written).
 */
final class DiscoveryPhase {
  private DiscoveryPhase() {}

  /**
   * What discovery found.
   *
   * @param scope the namespaces searched, in words
   * @param seen every DGD seen
   * @param decision use one of them, or deploy (never ambiguous: that is refused)
   * @param platform the Dynamo platform version, with its source
   * @param inputs the inputs with the platform version
   */
  record Discovered(
      String scope,
      List<DgdCandidate> seen,
      DiscoveryDecision decision,
      ResolvedInput platform,
      ValidateInputs inputs) {
    Discovered {
      Objects.requireNonNull(scope, "scope");
      seen = List.copyOf(seen);
      if (decision instanceof DiscoveryDecision.Ambiguous) {
        throw new IllegalArgumentException("an ambiguous discovery is refused, not carried on");
      }
      Objects.requireNonNull(platform, "platform");
      Objects.requireNonNull(inputs, "inputs");
    }
  }

  static ValidateCluster connect(ValidateContext ctx, ValidateService.ClusterConnector connector) {
    ValidateCluster cluster =
        ctx.steps()
            .run(
                ValidateStep.CONNECT,
                null,
                "connecting",
                () -> connector.connect(ctx.options()),
                ValidateCluster::describe);
    ctx.doc().cluster(cluster.describe());
    return cluster;
  }

  static DgdApi crdCheck(ValidateContext ctx, ValidateCluster cluster) {
    return ctx.steps()
        .run(
            ValidateStep.CRD_CHECK,
            null,
            "looking up " + DgdApi.PLURAL + "." + DgdApi.GROUP,
            cluster::dgdApi,
            a ->
                a.installed()
                    ? "served versions " + a.servedVersions() + ", using " + a.apiVersion()
                    : "not installed");
  }

  /**
   * Without the DGD CRD there is nothing to validate (skip), unless the recipe names the Dynamo
   * platform (error: the platform is missing or broken); null when the CRD is installed.
   */
  static @Nullable Conclusion withoutCrd(
      DgdApi api, RecipeSettings recipe, @Nullable Path recipePath) {
    if (api.installed()) {
      return null;
    }
    String crd = "the DynamoGraphDeployment CRD (" + DgdApi.PLURAL + "." + api.group() + ")";
    if (recipe.dynamoPlatform()) {
      return Conclusion.error(
          recipePath
              + " lists "
              + RecipeSettings.DYNAMO_PLATFORM
              + " in spec.componentRefs, but "
              + crd
              + " is not installed in the cluster: the platform is missing or broken",
          ValidateStep.CRD_CHECK);
    }
    return Conclusion.skip(
        crd + " is not installed in the cluster: no Dynamo platform to validate");
  }

  /**
   * Finds the DGDs, decides, and reads the platform version; several candidates without --dgd are
   * refused as invalid input.
   */
  static Discovered discover(
      ValidateContext ctx,
      ValidateCluster cluster,
      DgdApi api,
      ConstraintsPhase.Resolved resolved) {
    ValidateOptions options = ctx.options();
    String scope =
        options.namespace() == null ? "all namespaces" : "namespace " + options.namespace();
    List<DgdCandidate> seen =
        ctx.steps()
            .run(
                ValidateStep.DISCOVERY,
                null,
                "looking for DGDs in " + scope,
                () -> cluster.discover(api, options.namespace()),
                s -> s.size() + " DGD(s) seen");
    DiscoveryDecision decision =
        ctx.steps()
            .run(
                ValidateStep.DISCOVERY,
                null,
                "deciding",
                () -> DiscoveryDecision.decide(seen, options.dgd(), scope),
                DiscoveryPhase::describe);
    ResolvedInput platform =
        ctx.steps()
            .run(
                ValidateStep.CRD_CHECK,
                null,
                "reading the Dynamo platform version",
                () ->
                    RuntimeImage.platformVersion(resolved.recipe(), cluster::dynamoPlatformVersion),
                v ->
                    v.value() == null
                        ? "unknown (" + v.origin() + ")"
                        : v.value() + " (" + v.source() + ": " + v.origin() + ")");
    ValidateInputs inputs = resolved.inputs().with("dynamo_platform_version", platform);
    ctx.doc().inputs(inputs);
    if (decision instanceof DiscoveryDecision.Ambiguous a) {
      // invalid input like a bad option: nothing was created, nothing is written
      throw new ValidateStepException(
          ValidateStep.DISCOVERY,
          ExitCode.INVALID,
          a.message(),
          null,
          ErrorLocation.option("--dgd"));
    }
    return new Discovered(scope, seen, decision, platform, inputs);
  }

  /** The existing DGD discovery chose: its frontend, served model, document and GPUs. */
  static TargetChoice existing(
      ValidateContext ctx, ValidateCluster cluster, DgdApi api, Discovered found) {
    DiscoveryDecision.Use use = (DiscoveryDecision.Use) found.decision();
    ValidateOptions options = ctx.options();
    ctx.doc()
        .discovery(
            found.scope(),
            found.seen(),
            "discovered",
            "exactly one usable DGD" + (options.dgd() == null ? "" : " (named with --dgd)"));
    ValidateInputs inputs = found.inputs();
    ResolvedInput m = Objects.requireNonNull(inputs.values().get(ValidateInputs.MODEL));
    FrontendTarget t =
        ctx.steps()
            .run(
                ValidateStep.DISCOVERY,
                null,
                "reading the served model",
                () ->
                    FrontendTarget.discovered(
                        use.candidate(),
                        inputs.modelGiven() ? inputs.model() : null,
                        m.source().equals("flag")
                            ? "option --model"
                            : Objects.requireNonNull(m.origin()),
                        inputs.location(ValidateInputs.MODEL)),
                x -> x.model() + " (" + x.modelSource() + ")");
    ValidateInputs withModel =
        inputs.modelGiven()
            ? inputs
            : inputs.with(
                ValidateInputs.MODEL, new ResolvedInput(t.model(), "dgd", t.modelSource()));
    ObjectNode dgdDocument =
        ctx.steps()
            .run(
                ValidateStep.DISCOVERY,
                null,
                "recording DGD " + t.namespace() + "/" + t.dgdName(),
                () -> cluster.dgdDocument(api, t.namespace(), t.dgdName()),
                d -> "recorded as read");
    String older =
        RuntimeImage.olderThanPlatform(
            t.namespace() + "/" + t.dgdName(), DgdGpus.images(dgdDocument), found.platform());
    if (older != null) {
      ctx.warn(older);
    }
    return new TargetChoice(
        t, null, dgdDocument, "unknown", DgdGpus.count(dgdDocument), null, withModel);
  }

  private static String describe(DiscoveryDecision d) {
    if (d instanceof DiscoveryDecision.Use u) {
      return "benchmarking existing " + u.candidate().describe();
    }
    if (d instanceof DiscoveryDecision.Ambiguous a) {
      return a.candidates().size() + " candidates: ambiguous";
    }
    return "auto-deploy: " + ((DiscoveryDecision.Deploy) d).reason();
  }
}
