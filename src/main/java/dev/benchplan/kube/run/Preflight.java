package dev.benchplan.kube.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.render.JobContract;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.run.PerfYaml;
import dev.benchplan.runrecord.RunRecordDocument;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Checks before anything is applied, following the benchmark-isolation rule: the namespace exists;
 * no other benchplan Job is benchmarking the same endpoint; the DGD's serving pods, their nodes,
 * GPU sharing on those nodes and the pods next to them; an existing Job or ConfigMap of the same
 * name. Blockers are invalid input (exit 2) naming the rule; everything found is recorded.
 */
final class Preflight {
  /** Label the Job controller puts on a Job's pods. */
  static final String JOB_NAME_LABEL = "job-name";

  private Preflight() {}

  /**
   * What preflight found.
   *
   * @param endpoint the endpoint under test
   * @param namespace whether the run's namespace exists
   * @param otherBenchmarks other benchplan Jobs on the same endpoint, and where they were looked
   *     for
   * @param dgd the DGD's serving pods
   * @param nodes the serving nodes, their GPU sharing and the other pods on them
   * @param problems isolation problems that make the run ineligible as evidence (not blockers)
   * @param existingJob a Job of the same name exists (allowed only with --replace)
   * @param existingConfigMaps ConfigMaps of the same names that exist (allowed only with --replace)
   * @param servingNodes the nodes the DGD's pods run on
   */
  record Result(
      String endpoint,
      RunRecordDocument.NamespaceCheck namespace,
      RunRecordDocument.OtherBenchmarks otherBenchmarks,
      RunRecordDocument.DgdPods dgd,
      List<RunRecordDocument.ServingNode> nodes,
      List<String> problems,
      boolean existingJob,
      List<String> existingConfigMaps,
      Set<String> servingNodes) {}

  static Result run(ClusterAccess client, PerfYaml perf, String namespace, boolean replace) {
    List<String> problems = new ArrayList<>();
    String endpoint = perf.annotation(JobContract.ENDPOINT);

    // namespace
    RunRecordDocument.NamespaceCheck nsRec;
    try {
      if (client.getNamespace(KubeCall.RUN_NAMESPACE_GET, namespace) == null) {
        throw blocker(
            BlockerCode.RUN_NAMESPACE_MISSING,
            "namespace '"
                + namespace
                + "' does not exist in the"
                + " cluster (use --namespace, or create it)");
      }
      nsRec = new RunRecordDocument.NamespaceCheck(namespace, true, null);
    } catch (KubernetesClientException e) {
      if (!ApiErrors.forbidden(e)) {
        throw ApiErrors.map("read namespace " + namespace, e);
      }
      // namespace-scoped users cannot read namespaces; creating the Job will tell
      nsRec =
          new RunRecordDocument.NamespaceCheck(
              namespace,
              null,
              "cannot read namespaces (403: get namespaces); existence not checked");
    }

    // same-name Job and ConfigMaps
    boolean existingJob;
    String jobName = perf.jobName();
    try {
      existingJob = client.getJob(KubeCall.RUN_JOB_GET, namespace, jobName) != null;
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("read Job " + namespace + "/" + jobName, e);
    }
    if (existingJob && !replace) {
      throw blocker(
          BlockerCode.RUN_OBJECTS_EXIST,
          "Job "
              + namespace
              + "/"
              + jobName
              + " already exists (an earlier run of"
              + " this perf.yaml, kept or still running): use --replace to delete it and run again, or re-render"
              + " for a new run-id");
    }
    List<String> existingConfigMaps = new ArrayList<>();
    for (String cm : perf.configMapNames()) {
      try {
        ConfigMap existing = client.getConfigMap(KubeCall.RUN_CONFIGMAP_GET, namespace, cm);
        if (existing != null) {
          existingConfigMaps.add(cm);
        }
      } catch (KubernetesClientException e) {
        throw ApiErrors.map("read ConfigMap " + namespace + "/" + cm, e);
      }
    }
    if (!existingConfigMaps.isEmpty() && !replace) {
      throw blocker(
          BlockerCode.RUN_OBJECTS_EXIST,
          "ConfigMap(s) "
              + existingConfigMaps
              + " already exist in namespace "
              + namespace
              + ": use --replace to replace them, or re-render for a new run-id");
    }

    // other benchmarks of the same endpoint
    String scope;
    List<Job> jobs;
    try {
      jobs =
          client.listJobs(
              KubeCall.RUN_JOBS_LIST_ALL,
              null,
              JobContract.MANAGED_BY,
              JobContract.MANAGED_BY_VALUE);
      scope = "all-namespaces";
    } catch (KubernetesClientException e) {
      if (!ApiErrors.forbidden(e)) {
        throw ApiErrors.map("list benchplan Jobs in all namespaces", e);
      }
      try {
        jobs =
            client.listJobs(
                KubeCall.RUN_JOBS_WATCH,
                namespace,
                JobContract.MANAGED_BY,
                JobContract.MANAGED_BY_VALUE);
      } catch (KubernetesClientException e2) {
        throw ApiErrors.map("list benchplan Jobs in namespace " + namespace, e2);
      }
      scope = "namespace";
      problems.add(
          finding(
              BlockerCode.ISOLATION_UNVERIFIED,
              "other benchmarks of "
                  + endpoint
                  + " were looked for only in namespace "
                  + namespace
                  + " (403: list jobs.batch in all namespaces)"));
    }
    List<String> active = new ArrayList<>();
    for (Job j : jobs) {
      String jn = j.getMetadata().getNamespace() + "/" + j.getMetadata().getName();
      boolean self =
          Objects.equals(j.getMetadata().getNamespace(), namespace)
              && jobName.equals(j.getMetadata().getName());
      if (self || finished(j)) {
        continue;
      }
      String other = annotation(j, JobContract.ENDPOINT);
      if (endpoint.equals(other)) {
        active.add(jn);
      }
    }
    if (!active.isEmpty()) {
      throw blocker(
          BlockerCode.ENDPOINT_BUSY,
          "Job "
              + active.get(0)
              + " is already benchmarking "
              + endpoint
              + "; never two benchmarks against one endpoint at once");
    }

    // the DGD's serving pods and their nodes
    String[] dgd = perf.annotation(JobContract.DGD).split("/", 2);
    List<RunRecordDocument.ServingPod> servingRec = new ArrayList<>();
    boolean podsListed = true;
    Set<String> servingNodes = new TreeSet<>();
    List<Pod> serving = List.of();
    try {
      serving =
          client.listPods(KubeCall.RUN_DGD_PODS_LIST, dgd[0], JobContract.DGD_POD_LABEL, dgd[1]);
    } catch (KubernetesClientException e) {
      if (!ApiErrors.forbidden(e)) {
        throw ApiErrors.map("list pods of DGD " + perf.annotation(JobContract.DGD), e);
      }
      podsListed = false;
      problems.add(
          finding(
              BlockerCode.ISOLATION_UNVERIFIED,
              "cannot list the DGD's pods in namespace "
                  + dgd[0]
                  + " (403: list pods): isolation not verified"));
    }
    for (Pod p : serving) {
      if (terminal(p)) {
        continue;
      }
      servingRec.add(
          new RunRecordDocument.ServingPod(
              p.getMetadata().getName(),
              label(p, "nvidia.com/dynamo-component-type"),
              p.getSpec() == null ? null : p.getSpec().getNodeName(),
              p.getStatus() == null ? null : p.getStatus().getPhase(),
              gpuRequest(p)));
      if (p.getSpec() != null && p.getSpec().getNodeName() != null) {
        servingNodes.add(p.getSpec().getNodeName());
      }
    }
    if (servingRec.isEmpty() && podsListed) {
      problems.add(
          finding(
              BlockerCode.ISOLATION_UNVERIFIED,
              "no running pods carry "
                  + JobContract.DGD_POD_LABEL
                  + "="
                  + dgd[1]
                  + " in namespace "
                  + dgd[0]
                  + ": the serving side could not be checked"));
    }

    List<RunRecordDocument.ServingNode> nodesRec = new ArrayList<>();
    List<String> gpuNeighbours = new ArrayList<>();
    for (String nodeName : servingNodes) {
      java.util.Optional<String> gpuProduct = null; // absent: the node could not be read
      RunRecordDocument.GpuSharing sharing = null;
      try {
        Node node = client.getNode(KubeCall.RUN_NODE_GET, nodeName);
        if (node != null) {
          Map<String, String> labels =
              node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
          gpuProduct = java.util.Optional.ofNullable(labels.get("nvidia.com/gpu.product"));
          List<String> migResources = new ArrayList<>();
          Map<String, Quantity> alloc =
              node.getStatus() == null || node.getStatus().getAllocatable() == null
                  ? Map.of()
                  : node.getStatus().getAllocatable();
          alloc.keySet().stream()
              .filter(k -> k.startsWith("nvidia.com/mig-"))
              .sorted()
              .forEach(migResources::add);
          sharing =
              new RunRecordDocument.GpuSharing(
                  labels.get("nvidia.com/mig.strategy"),
                  labels.get("nvidia.com/mig.config"),
                  labels.get("nvidia.com/gpu.sharing-strategy"),
                  labels.get("nvidia.com/gpu.replicas"),
                  List.copyOf(migResources));
          String replicas = labels.get("nvidia.com/gpu.replicas");
          String strategy = labels.get("nvidia.com/gpu.sharing-strategy");
          if ((replicas != null && !replicas.equals("1") && !replicas.equals("0"))
              || (strategy != null && !strategy.equals("none"))) {
            problems.add(
                finding(
                    BlockerCode.SERVING_GPUS_SHARED,
                    "GPUs on serving node "
                        + nodeName
                        + " are shared (sharing-strategy="
                        + strategy
                        + ", gpu.replicas="
                        + replicas
                        + ")"));
          }
        }
      } catch (KubernetesClientException e) {
        if (!ApiErrors.forbidden(e)) {
          throw ApiErrors.map("read node " + nodeName, e);
        }
        problems.add(
            finding(
                BlockerCode.ISOLATION_UNVERIFIED,
                "cannot read node " + nodeName + " (403: get nodes): GPU sharing not checked"));
      }
      List<RunRecordDocument.OtherPod> neighbours = new ArrayList<>();
      try {
        List<Pod> onNode =
            client.listPodsInAnyNamespace(
                KubeCall.RUN_NODE_PODS_LIST, Map.of("spec.nodeName", nodeName));
        for (Pod p : onNode) {
          // the field selector already filters; checking again keeps servers that ignore it honest
          if (p.getSpec() == null
              || !nodeName.equals(p.getSpec().getNodeName())
              || terminal(p)
              || (dgd[1].equals(label(p, JobContract.DGD_POD_LABEL))
                  && dgd[0].equals(p.getMetadata().getNamespace()))) {
            continue;
          }
          long gpus = gpuRequest(p);
          neighbours.add(
              new RunRecordDocument.OtherPod(
                  p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), gpus));
          if (gpus > 0) {
            gpuNeighbours.add(
                p.getMetadata().getNamespace()
                    + "/"
                    + p.getMetadata().getName()
                    + " on "
                    + nodeName);
          }
        }
      } catch (KubernetesClientException e) {
        if (!ApiErrors.forbidden(e)) {
          throw ApiErrors.map("list pods on node " + nodeName, e);
        }
        problems.add(
            finding(
                BlockerCode.ISOLATION_UNVERIFIED,
                "cannot list pods on serving node "
                    + nodeName
                    + " (403: list pods in all namespaces): competing work not checked"));
      }
      nodesRec.add(
          new RunRecordDocument.ServingNode(
              nodeName, gpuProduct, sharing, List.copyOf(neighbours)));
    }
    if (!gpuNeighbours.isEmpty()) {
      throw blocker(
          BlockerCode.SERVING_GPUS_IN_USE,
          "other pods use GPUs on the serving nodes: "
              + gpuNeighbours
              + "; serving GPUs must be exclusive during a benchmark");
    }
    return new Result(
        endpoint,
        nsRec,
        new RunRecordDocument.OtherBenchmarks(scope, List.copyOf(active)),
        new RunRecordDocument.DgdPods(dgd[0], dgd[1], List.copyOf(servingRec)),
        List.copyOf(nodesRec),
        problems,
        existingJob,
        existingConfigMaps,
        servingNodes);
  }

  /** A refusal of the isolation preflight: exit 2, its code and rule file in the message. */
  static BenchplanException blocker(BlockerCode code, String message) {
    return BenchplanException.invalid(Blocker.of(code, message).toString());
  }

  /**
   * A finding recorded in run.json that makes the run ineligible as evidence: its code, then the
   * text.
   */
  static String finding(BlockerCode code, String message) {
    return code.name() + ": " + message;
  }

  /** True when a Job has a Complete or Failed condition that is True. */
  static boolean finished(Job j) {
    if (j.getStatus() == null || j.getStatus().getConditions() == null) {
      return false;
    }
    for (JobCondition c : j.getStatus().getConditions()) {
      if (("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
          && "True".equals(c.getStatus())) {
        return true;
      }
    }
    return false;
  }

  private static boolean terminal(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  static @Nullable String annotation(Job j, String key) {
    Map<String, String> a = j.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }

  private static @Nullable String label(Pod p, String key) {
    Map<String, String> l = p.getMetadata().getLabels();
    return l == null ? null : l.get(key);
  }

  /** GPUs a pod asks for (nvidia.com/gpu or MIG slices, limits or requests). */
  static long gpuRequest(Pod p) {
    long total = 0;
    if (p.getSpec() == null || p.getSpec().getContainers() == null) {
      return 0;
    }
    for (Container c : p.getSpec().getContainers()) {
      if (c.getResources() == null) {
        continue;
      }
      Map<String, Quantity> merged = new LinkedHashMap<>();
      if (c.getResources().getRequests() != null) {
        merged.putAll(c.getResources().getRequests());
      }
      if (c.getResources().getLimits() != null) {
        merged.putAll(c.getResources().getLimits());
      }
      for (Map.Entry<String, Quantity> e : merged.entrySet()) {
        if (e.getKey().equals("nvidia.com/gpu") || e.getKey().startsWith("nvidia.com/mig-")) {
          total += Quantity.getAmountInBytes(e.getValue()).longValue();
        }
      }
    }
    return total;
  }
}
