package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Exactly what validate benchmarks: the DGD, its frontend Service and port, the served model and
 * where each came from.
 *
 * @param origin {@code discovered} (an existing DGD, never modified) or {@code deployed} (the
 *     default DGD validate created)
 * @param namespace the DGD's namespace
 * @param dgdName the DGD's name
 * @param dgdUid the DGD's UID
 * @param apiVersion the DGD's apiVersion
 * @param service the frontend Service's name
 * @param port the frontend Service's HTTP port
 * @param matchedBy how the Service was tied to the DGD ({@code name}, {@code labels}, ...)
 * @param model the served model name benchmarked
 * @param modelSource where the model name came from ({@code dgd:<component>}, {@code --model}, ...)
 * @param workers token-generating worker replicas (concurrency scales with them)
 * @param node the node the default deployment was pinned to, null for a discovered DGD
 */
public record FrontendTarget(
    String origin,
    String namespace,
    String dgdName,
    @Nullable String dgdUid,
    @Nullable String apiVersion,
    String service,
    int port,
    String matchedBy,
    String model,
    String modelSource,
    int workers,
    @Nullable String node) {

  public FrontendTarget {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(dgdName, "dgdName");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(model, "model");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    if (workers < 1) {
      throw new IllegalArgumentException(
          "a benchmark target needs at least one worker, got " + workers);
    }
  }

  /**
   * The target for an existing DGD. The served model is read from the DGD's workers; a model given
   * with {@code --model} must be one of them (or is used when the DGD does not say).
   */
  public static FrontendTarget discovered(DgdCandidate c, @Nullable String modelOption) {
    return discovered(c, modelOption, "option --model", MODEL_OPTION);
  }

  private static final ErrorLocation MODEL_OPTION = ErrorLocation.option("--model");

  /**
   * As {@link #discovered(DgdCandidate, String)}, the model given by {@code modelFrom} (an option,
   * or a recipe entry, at {@code modelAt}) named in the message when the DGD does not serve it.
   */
  public static FrontendTarget discovered(
      DgdCandidate c, @Nullable String modelOption, String modelFrom, ErrorLocation modelAt) {
    DgdView dgd = c.dgd();
    java.util.Set<String> served = dgd.servedModels();
    String model;
    String source;
    if (modelOption != null) {
      if (!served.isEmpty() && !served.contains(modelOption)) {
        throw BenchplanException.invalid(
            modelAt,
            modelFrom
                + ": DynamoGraphDeployment "
                + dgd.ref()
                + " serves "
                + String.join(", ", served)
                + ", not "
                + modelOption);
      }
      model = modelOption;
      String from = modelFrom.equals("option --model") ? "--model" : modelFrom;
      source =
          served.isEmpty()
              ? from + " (the DGD does not name its model)"
              : from + ", matching the DGD";
    } else if (served.size() == 1) {
      model = served.iterator().next();
      source =
          "dgd:"
              + dgd.components().stream()
                  .filter(x -> x.models().contains(model))
                  .map(DgdComponent::name)
                  .findFirst()
                  .orElse("?");
    } else if (served.isEmpty()) {
      String unresolved =
          dgd.components().stream()
              .map(DgdComponent::unresolvedModel)
              .filter(java.util.Objects::nonNull)
              .findFirst()
              .orElse(null);
      throw BenchplanException.invalid(
          MODEL_OPTION,
          "cannot read the served model of"
              + " DynamoGraphDeployment "
              + dgd.ref()
              + (unresolved == null
                  ? " (no --model or --served-model-name in its workers' command lines)"
                  : " (its model argument '" + unresolved + "' uses a variable it does not define)")
              + "; name it with --model");
    } else {
      throw BenchplanException.invalid(
          MODEL_OPTION,
          "DynamoGraphDeployment "
              + dgd.ref()
              + " serves several models ("
              + String.join(", ", served)
              + "); name one with --model");
    }
    int workers = dgd.workerReplicas();
    if (workers < 1) {
      throw dev.benchplan.error.BenchplanException.runtime(
          "DynamoGraphDeployment "
              + dgd.ref()
              + " has no worker component with replicas: nothing to scale the load by");
    }
    // discovery uses only candidates with a frontend Service
    FrontendMatch f =
        java.util.Objects.requireNonNull(c.frontend(), "the frontend of a usable DGD");
    return new FrontendTarget(
        "discovered",
        java.util.Objects.requireNonNull(
            dgd.namespace(), "a DGD read from the API has a namespace"),
        dgd.name(),
        dgd.uid(),
        dgd.apiVersion(),
        f.service().name(),
        f.port(),
        f.matchedBy() + (f.ownedByDgd() ? "+owner" : ""),
        model,
        source,
        workers,
        null);
  }

  /**
   * The target the default deployment will be once ready: the operator's frontend Service {@code
   * <dgd>-frontend} on port 8000 (checked against the real Service after readiness).
   */
  public static FrontendTarget planned(DefaultDeployment d, String nodeName, boolean modelGiven) {
    return planned(d, nodeName, modelGiven ? "--model" : "default model");
  }

  /** As {@link #planned(DefaultDeployment, String, boolean)}, with where the model came from. */
  public static FrontendTarget planned(DefaultDeployment d, String nodeName, String modelSource) {
    String service =
        new DgdComponent(
                DefaultDeployment.FRONTEND,
                DgdComponent.Role.FRONTEND,
                1,
                -1,
                java.util.List.of(),
                null)
            .serviceName(d.name());
    return new FrontendTarget(
        "deployed",
        d.namespace(),
        d.name(),
        null,
        d.apiVersion(),
        service,
        8000,
        "planned",
        d.model(),
        modelSource,
        d.workers(),
        nodeName);
  }

  /** The in-cluster base URL of the frontend (no path). */
  public String endpointUrl() {
    return "http://" + service + "." + namespace + ".svc.cluster.local:" + port;
  }
}
