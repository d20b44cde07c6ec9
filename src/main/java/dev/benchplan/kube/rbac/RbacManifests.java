package dev.benchplan.kube.rbac;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.render.AiperfJobContract;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.run.PerfYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What {@code benchplan rbac run|validate} prints: the command's targets made into {@link
 * RbacManifest}.
 */
public final class RbacManifests {
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final String NO_RULE =
      "API discovery and SelfSubjectAccessReview (the permission check) need no"
          + " rule: every authenticated user may make them";

  private RbacManifests() {}

  /**
   * For {@code benchplan run --deploy-root DIR}: the Job's namespace ({@code namespace}, else the
   * rendered perf.yaml's) and the DGD's namespace from DIR/benchmark/perf.yaml.
   *
   * @param subject who to bind, or null for the placeholder ServiceAccount benchplan in the Job's
   *     namespace
   */
  public static RbacManifest run(
      Path deployRoot, String namespace, RbacManifest.@Nullable Subject subject) {
    Path perfFile = deployRoot.resolve("benchmark").resolve("perf.yaml");
    Path jobsFile = deployRoot.resolve("benchmark").resolve(AiperfJobContract.FILE);
    if (!Files.isRegularFile(perfFile) && Files.isRegularFile(jobsFile)) {
      return runOperator(deployRoot, jobsFile, namespace, subject);
    }
    if (!Files.isRegularFile(perfFile)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--deploy-root", perfFile),
          perfFile
              + ": not found; option --deploy-root: expected the DEPLOY_ROOT"
              + " 'benchplan render' wrote (holding benchmark/perf.yaml)");
    }
    PerfYaml perf = PerfYaml.read(perfFile);
    String ns = namespace != null ? checkNamespace(namespace, "--namespace") : perf.namespace();
    if (ns == null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(perfFile, "/metadata/namespace"),
          perfFile
              + ": /metadata/namespace: the rendered Job names no namespace"
              + " (run would use the kubeconfig context's): pass --namespace NS");
    }
    String dgdNamespace = perf.annotation(JobContract.DGD).split("/", 2)[0];
    List<String> notes = new ArrayList<>();
    notes.add(
        "read from "
            + perfFile
            + ": engine job (one AIPerf pod), Job "
            + ns
            + "/"
            + perf.jobName()
            + ", "
            + perf.configMapNames().size()
            + " ConfigMap(s), DGD "
            + perf.annotation(JobContract.DGD));
    String artifacts = perf.annotation(JobContract.ARTIFACTS);
    boolean onClaim = artifacts.startsWith("pvc:");
    notes.add(
        "volumes: artifacts on "
            + artifacts
            + (onClaim
                ? " (mounted by the pods: benchplan itself needs no rule on persistentvolumeclaims; a tree past the pod-log"
                    + " bound comes back through collector pods mounting the claim: pods create/delete/get/list/watch and"
                    + " pods/log)"
                : ""));
    notes.add(NO_RULE);
    notes.add(
        "apply: kubectl apply -f (after filling in the subjects); check: kubectl auth can-i --list -n "
            + ns);
    return RbacManifest.build(
        "RBAC for benchplan run --deploy-root "
            + deployRoot
            + (namespace == null ? "" : " --namespace " + namespace),
        notes,
        RbacTargets.run(ns, dgdNamespace, onClaim),
        "benchplan-run",
        subject != null ? subject : new RbacManifest.Subject("ServiceAccount", "benchplan", ns));
  }

  /**
   * run of a deploy root rendered for the aiperf-operator engine (AIPerfJobs instead of perf.yaml).
   */
  private static RbacManifest runOperator(
      Path deployRoot, Path jobsFile, String namespace, RbacManifest.@Nullable Subject subject) {
    List<tools.jackson.databind.JsonNode> docs;
    try {
      docs = YamlDocuments.read(Files.readString(jobsFile));
    } catch (java.io.IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(jobsFile), jobsFile + ": cannot read: " + e.getMessage());
    }
    // a replayed trace's ConfigMap comes before the AIPerfJobs
    int traceMaps =
        (int) docs.stream().filter(d -> "ConfigMap".equals(d.path("kind").asString(""))).count();
    docs =
        docs.stream()
            .filter(d -> AiperfJobContract.KIND.equals(d.path("kind").asString("")))
            .toList();
    if (docs.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(jobsFile),
          jobsFile + ": holds no AIPerfJob: expected what benchplan render wrote");
    }
    tools.jackson.databind.JsonNode first = docs.get(0);
    String ns =
        namespace != null
            ? checkNamespace(namespace, "--namespace")
            : first.at("/metadata/namespace").asString(null);
    if (ns == null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(jobsFile, "/metadata/namespace"),
          jobsFile
              + ": /metadata/namespace: the rendered AIPerfJob names no namespace:"
              + " pass --namespace NS");
    }
    tools.jackson.databind.JsonNode a = first.at("/metadata/annotations");
    String dgd = a.path(JobContract.DGD).asString("");
    String results =
        a.path(AiperfJobContract.RESULTS_SERVICE)
            .asString(AiperfJobContract.DEFAULT_RESULTS_SERVICE);
    String operatorNs = results.substring(0, Math.max(0, results.indexOf('/')));
    List<String> notes = new ArrayList<>();
    notes.add(
        "read from "
            + jobsFile
            + ": engine "
            + AiperfJobContract.ENGINE
            + " (AIPerf's own operator), "
            + docs.size()
            + " AIPerfJob(s) in "
            + ns
            + ", DGD "
            + dgd);
    notes.add(
        "results: the operator's results API "
            + results
            + " through the API server's service proxy"
            + " (services/proxy get in "
            + operatorNs
            + "); no port-forward, no pod exec");
    notes.add(
        "the operator itself (its ClusterRole) creates the JobSet, pods and its own ConfigMaps; benchplan"
            + " creates only a replayed trace's ConfigMap ("
            + traceMaps
            + " here)");
    notes.add(NO_RULE);
    return RbacManifest.build(
        "RBAC for benchplan run --deploy-root "
            + deployRoot
            + (namespace == null ? "" : " --namespace " + namespace),
        notes,
        RbacTargets.runOperator(ns, dgd.split("/", 2)[0], operatorNs),
        "benchplan-run-operator",
        subject != null ? subject : new RbacManifest.Subject("ServiceAccount", "benchplan", ns));
  }

  /**
   * For {@code benchplan validate}: with {@code dgd} (NAMESPACE/NAME), an existing DGD; without it,
   * the auto-deployment.
   *
   * @param namespace validate's {@code --namespace} (discovery in one namespace), or null
   */
  public static RbacManifest validate(
      String dgd, String namespace, RbacManifest.@Nullable Subject subject) {
    return validate(dgd, namespace, subject, true);
  }

  /**
   * {@link #validate(String, String, RbacManifest.Subject)}, the auto-deployment with or without
   * its model-weights cache ({@code validate --no-model-cache}): without it, no rule for the
   * cache's PVC, populate Job or StorageClass lookup.
   */
  public static RbacManifest validate(
      String dgd, String namespace, RbacManifest.@Nullable Subject subject, boolean modelCache) {
    String discovery = namespace == null ? null : checkNamespace(namespace, "--namespace");
    List<String> notes = new ArrayList<>();
    notes.add(
        "discovery lists DGDs "
            + (discovery == null
                ? "in all namespaces (pass --namespace to both" + " commands to keep it to one)"
                : "in namespace " + discovery));
    notes.add(NO_RULE);
    if (dgd != null) {
      int slash = dgd.indexOf('/');
      if (slash <= 0 || slash == dgd.length() - 1) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--dgd"),
            "option --dgd: expected NAMESPACE/NAME (the DGD's namespace decides where"
                + " the AIPerf Job runs), got '"
                + dgd
                + "'");
      }
      String ns = checkNamespace(dgd.substring(0, slash), "--dgd");
      notes.add("the AIPerf Job runs in the DGD's namespace " + ns);
      return RbacManifest.build(
          "RBAC for benchplan validate --dgd "
              + dgd
              + (namespace == null ? "" : " --namespace " + namespace),
          notes,
          RbacTargets.validateDgd(ns, discovery),
          "benchplan-validate",
          subject != null ? subject : new RbacManifest.Subject("ServiceAccount", "benchplan", ns));
    }
    notes.add(
        "auto-deploy: validate creates a fresh namespace whose name is known only when it runs, so what it"
            + " does inside it is granted cluster-wide");
    notes.add(
        modelCache
            ? "model cache on: rules for its StorageClass lookup, PVC and populate Job are included"
                + " (validate --no-model-cache, and rbac validate --no-model-cache, leave them out)"
            : "model cache off (--no-model-cache): no rule for its StorageClass lookup, PVC or populate Job");
    return RbacManifest.build(
        "RBAC for benchplan validate (auto-deploy)"
            + (namespace == null ? "" : " --namespace " + namespace)
            + (modelCache ? "" : " --no-model-cache"),
        notes,
        RbacTargets.validateDeploy(discovery, modelCache),
        "benchplan-validate-deploy",
        subject != null
            ? subject
            : new RbacManifest.Subject(
                "ServiceAccount", "benchplan", discovery == null ? "default" : discovery));
  }

  /** {@code ns} as given with {@code option} ({@code --namespace}, {@code --dgd}). */
  private static String checkNamespace(String ns, String option) {
    if (ns.length() > 63 || !DNS_LABEL.matcher(ns).matches()) {
      throw BenchplanException.invalid(
          ErrorLocation.option(option),
          "option "
              + option
              + ": expected a namespace name (lower-case DNS label), got '"
              + ns
              + "'");
    }
    return ns;
  }
}
