package dev.benchplan.kube.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.render.JobContract;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks before anything is applied, following the benchmark-isolation rule: the namespace exists;
 * no other benchplan Job is benchmarking the same endpoint; the DGD's serving pods, their nodes,
 * GPU sharing on those nodes and the pods next to them; an existing Job or ConfigMap of the same
 * name. Blockers are invalid input (exit 2) naming the rule; everything found is recorded.
 */
final class Preflight {
  /** The rule file cited in blocker messages. */
  static final String ISOLATION_RULE = "agent-docs/rules/benchmarking/benchmark-isolation.md";
  /** Label the Job controller puts on a Job's pods. */
  static final String JOB_NAME_LABEL = "job-name";

  private Preflight() {}

  /**
   * What preflight found.
   *
   * @param isolation the isolation record (run.json {@code isolation})
   * @param problems isolation problems that make the run ineligible as evidence (not blockers)
   * @param existingJob a Job of the same name exists (allowed only with --replace)
   * @param existingConfigMaps ConfigMaps of the same names that exist (allowed only with --replace)
   * @param servingNodes the nodes the DGD's pods run on
   */
  record Result(ObjectNode isolation, List<String> problems, boolean existingJob,
      List<String> existingConfigMaps, Set<String> servingNodes) {}

  static Result run(KubernetesClient client, PerfYaml perf, String namespace, boolean replace) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode iso = f.objectNode();
    List<String> problems = new ArrayList<>();
    String endpoint = perf.annotation(JobContract.ENDPOINT);
    iso.put("endpoint", endpoint);

    // namespace
    ObjectNode nsRec = iso.putObject("namespace");
    nsRec.put("name", namespace);
    try {
      if (client.namespaces().withName(namespace).get() == null) {
        throw BenchplanException.invalid("namespace '" + namespace + "' does not exist in the cluster"
            + " (use --namespace, or create it)");
      }
      nsRec.put("exists", true);
    } catch (KubernetesClientException e) {
      if (!ApiErrors.forbidden(e)) {
        throw ApiErrors.map("read namespace " + namespace, e);
      }
      nsRec.putNull("exists"); // namespace-scoped users cannot read namespaces; creating the Job will tell
      nsRec.put("note", "cannot read namespaces (403); existence not checked");
    }

    // same-name Job and ConfigMaps
    boolean existingJob;
    String jobName = perf.jobName();
    try {
      existingJob = client.batch().v1().jobs().inNamespace(namespace).withName(jobName).get() != null;
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("read Job " + namespace + "/" + jobName, e);
    }
    if (existingJob && !replace) {
      throw BenchplanException.invalid("Job " + namespace + "/" + jobName + " already exists (an earlier run of"
          + " this perf.yaml, kept or still running): use --replace to delete it and run again, or re-render"
          + " for a new run-id");
    }
    List<String> existingConfigMaps = new ArrayList<>();
    for (String cm : perf.configMapNames()) {
      try {
        ConfigMap existing = client.configMaps().inNamespace(namespace).withName(cm).get();
        if (existing != null) {
          existingConfigMaps.add(cm);
        }
      } catch (KubernetesClientException e) {
        throw ApiErrors.map("read ConfigMap " + namespace + "/" + cm, e);
      }
    }
    if (!existingConfigMaps.isEmpty() && !replace) {
      throw BenchplanException.invalid("ConfigMap(s) " + existingConfigMaps + " already exist in namespace "
          + namespace + ": use --replace to replace them, or re-render for a new run-id");
    }

    // other benchmarks of the same endpoint
    ObjectNode others = iso.putObject("other_benchmarks");
    List<Job> jobs;
    try {
      jobs = client.batch().v1().jobs().inAnyNamespace().withLabel(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE).list().getItems();
      others.put("scope", "all-namespaces");
    } catch (KubernetesClientException e) {
      if (!ApiErrors.forbidden(e)) {
        throw ApiErrors.map("list benchplan Jobs in all namespaces", e);
      }
      try {
        jobs = client.batch().v1().jobs().inNamespace(namespace).withLabel(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE).list().getItems();
      } catch (KubernetesClientException e2) {
        throw ApiErrors.map("list benchplan Jobs in namespace " + namespace, e2);
      }
      others.put("scope", "namespace");
      problems.add("other benchmarks of " + endpoint + " were looked for only in namespace " + namespace
          + " (listing Jobs in all namespaces is forbidden)");
    }
    ArrayNode active = others.putArray("active_same_endpoint");
    for (Job j : jobs) {
      String jn = j.getMetadata().getNamespace() + "/" + j.getMetadata().getName();
      boolean self = Objects.equals(j.getMetadata().getNamespace(), namespace) && jobName.equals(j.getMetadata().getName());
      if (self || finished(j)) {
        continue;
      }
      String other = annotation(j, JobContract.ENDPOINT);
      if (endpoint.equals(other)) {
        active.add(jn);
      }
    }
    if (!active.isEmpty()) {
      throw BenchplanException.invalid("blocker: Job " + active.get(0).asString() + " is already benchmarking "
          + endpoint + "; never two benchmarks against one endpoint at once (" + ISOLATION_RULE + ")");
    }

    // the DGD's serving pods and their nodes
    String[] dgd = perf.annotation(JobContract.DGD).split("/", 2);
    ObjectNode dgdRec = iso.putObject("dgd");
    dgdRec.put("namespace", dgd[0]);
    dgdRec.put("name", dgd[1]);
    ArrayNode servingRec = dgdRec.putArray("serving_pods");
    Set<String> servingNodes = new TreeSet<>();
    List<Pod> serving = List.of();
    try {
      serving = client.pods().inNamespace(dgd[0]).withLabel(JobContract.DGD_POD_LABEL, dgd[1]).list().getItems();
    } catch (KubernetesClientException e) {
      if (!ApiErrors.forbidden(e)) {
        throw ApiErrors.map("list pods of DGD " + perf.annotation(JobContract.DGD), e);
      }
      problems.add("cannot list the DGD's pods in namespace " + dgd[0] + " (403): isolation not verified");
    }
    for (Pod p : serving) {
      if (terminal(p)) {
        continue;
      }
      ObjectNode o = servingRec.addObject();
      o.put("name", p.getMetadata().getName());
      o.put("component_type", label(p, "nvidia.com/dynamo-component-type"));
      o.put("node", p.getSpec() == null ? null : p.getSpec().getNodeName());
      o.put("phase", p.getStatus() == null ? null : p.getStatus().getPhase());
      o.put("gpus", gpuRequest(p));
      if (p.getSpec() != null && p.getSpec().getNodeName() != null) {
        servingNodes.add(p.getSpec().getNodeName());
      }
    }
    if (servingRec.isEmpty() && problems.stream().noneMatch(s -> s.startsWith("cannot list the DGD"))) {
      problems.add("no running pods carry " + JobContract.DGD_POD_LABEL + "=" + dgd[1] + " in namespace " + dgd[0]
          + ": the serving side could not be checked");
    }

    ArrayNode nodesRec = iso.putArray("serving_nodes");
    List<String> gpuNeighbours = new ArrayList<>();
    for (String nodeName : servingNodes) {
      ObjectNode n = nodesRec.addObject();
      n.put("name", nodeName);
      try {
        Node node = client.nodes().withName(nodeName).get();
        if (node != null) {
          ObjectNode sharing = n.putObject("gpu_sharing");
          Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
          n.put("gpu_product", labels.get("nvidia.com/gpu.product"));
          sharing.put("mig_strategy", labels.get("nvidia.com/mig.strategy"));
          sharing.put("mig_config", labels.get("nvidia.com/mig.config"));
          sharing.put("sharing_strategy", labels.get("nvidia.com/gpu.sharing-strategy"));
          sharing.put("gpu_replicas", labels.get("nvidia.com/gpu.replicas"));
          List<String> migResources = new ArrayList<>();
          Map<String, Quantity> alloc = node.getStatus() == null || node.getStatus().getAllocatable() == null
              ? Map.of() : node.getStatus().getAllocatable();
          alloc.keySet().stream().filter(k -> k.startsWith("nvidia.com/mig-")).sorted().forEach(migResources::add);
          ArrayNode mr = sharing.putArray("mig_resources");
          migResources.forEach(mr::add);
          String replicas = labels.get("nvidia.com/gpu.replicas");
          String strategy = labels.get("nvidia.com/gpu.sharing-strategy");
          if ((replicas != null && !replicas.equals("1") && !replicas.equals("0"))
              || (strategy != null && !strategy.equals("none"))) {
            problems.add("GPUs on serving node " + nodeName + " are shared (sharing-strategy=" + strategy
                + ", gpu.replicas=" + replicas + ")");
          }
        }
      } catch (KubernetesClientException e) {
        if (!ApiErrors.forbidden(e)) {
          throw ApiErrors.map("read node " + nodeName, e);
        }
        problems.add("cannot read node " + nodeName + " (403): GPU sharing not checked");
      }
      ArrayNode neighbours = n.putArray("other_pods");
      try {
        List<Pod> onNode = client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).list().getItems();
        for (Pod p : onNode) {
          // the field selector already filters; checking again keeps servers that ignore it honest
          if (p.getSpec() == null || !nodeName.equals(p.getSpec().getNodeName()) || terminal(p)
              || dgd[1].equals(label(p, JobContract.DGD_POD_LABEL)) && dgd[0].equals(p.getMetadata().getNamespace())) {
            continue;
          }
          ObjectNode o = neighbours.addObject();
          o.put("pod", p.getMetadata().getNamespace() + "/" + p.getMetadata().getName());
          long gpus = gpuRequest(p);
          o.put("gpus", gpus);
          if (gpus > 0) {
            gpuNeighbours.add(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName() + " on " + nodeName);
          }
        }
      } catch (KubernetesClientException e) {
        if (!ApiErrors.forbidden(e)) {
          throw ApiErrors.map("list pods on node " + nodeName, e);
        }
        problems.add("cannot list pods on serving node " + nodeName + " (403): competing work not checked");
      }
    }
    if (!gpuNeighbours.isEmpty()) {
      throw BenchplanException.invalid("blocker: other pods use GPUs on the serving nodes: " + gpuNeighbours
          + "; serving GPUs must be exclusive during a benchmark (" + ISOLATION_RULE + ")");
    }
    iso.putObject("client"); // filled in once the AIPerf pod is placed
    return new Result(iso, problems, existingJob, existingConfigMaps, servingNodes);
  }

  /** True when a Job has a Complete or Failed condition that is True. */
  static boolean finished(Job j) {
    if (j.getStatus() == null || j.getStatus().getConditions() == null) {
      return false;
    }
    for (JobCondition c : j.getStatus().getConditions()) {
      if (("Complete".equals(c.getType()) || "Failed".equals(c.getType())) && "True".equals(c.getStatus())) {
        return true;
      }
    }
    return false;
  }

  private static boolean terminal(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  static String annotation(Job j, String key) {
    Map<String, String> a = j.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }

  private static String label(Pod p, String key) {
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
