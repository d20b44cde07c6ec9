package dev.benchplan.workload;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The deployed candidate a plan measures: read from a deployment ledger ({@link
 * DeploymentLedgerReader}) or built in code ({@link #inMemory}).
 *
 * @param source the ledger path, or a name for records built in code
 * @param sourceSha256 SHA-256 of the ledger file (or of the canonical JSON of a record built in
 *     code)
 * @param dgdName metadata.name of the DynamoGraphDeployment
 * @param kubeContext the kube context it runs in
 * @param namespace its namespace
 * @param dgdPath the applied DGD manifest (absolute path, or a name)
 * @param dgdSha256 SHA-256 of the applied manifest
 * @param frontendService the frontend Service name
 * @param frontendPort the frontend Service port
 * @param servedModel the model name the endpoint serves
 * @param tokenizer the tokenizer the benchmark uses
 * @param gpus GPUs by SKU
 * @param maxContextLength the served context limit in tokens, or null when unknown
 * @param smoke the smoke evidence
 * @param secrets Secret names the deployment references (never values), sorted, unique
 */
public record DeploymentRecord(
    String source,
    String sourceSha256,
    String dgdName,
    String kubeContext,
    String namespace,
    String dgdPath,
    String dgdSha256,
    String frontendService,
    int frontendPort,
    String servedModel,
    String tokenizer,
    List<GpuAllocation> gpus,
    @Nullable Long maxContextLength,
    SmokeEvidence smoke,
    List<String> secrets) {
  private static final Pattern DNS1123 = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  public DeploymentRecord {
    Objects.requireNonNull(source, "source");
    requireSha(sourceSha256, "sourceSha256");
    requireDns(dgdName, "dgd_name");
    requireText(kubeContext, "kube_context");
    requireDns(namespace, "namespace");
    requireText(dgdPath, "dgd path");
    requireSha(dgdSha256, "dgd sha256");
    requireDns(frontendService, "frontend service");
    if (frontendPort < 1 || frontendPort > 65535) {
      throw new IllegalArgumentException("frontend port must be 1..65535, got " + frontendPort);
    }
    requireText(servedModel, "served_model");
    requireText(tokenizer, "tokenizer");
    gpus = List.copyOf(gpus);
    if (gpus.isEmpty()) {
      throw new IllegalArgumentException("a deployment needs at least one GPU entry");
    }
    if (maxContextLength != null && maxContextLength < 1) {
      throw new IllegalArgumentException("max_context_length must be positive");
    }
    Objects.requireNonNull(smoke, "smoke");
    secrets = secrets.stream().distinct().sorted().toList();
    secrets.forEach(s -> requireDns(s, "secret name"));
  }

  /** Total GPUs over every SKU. */
  public int gpuTotal() {
    return gpus.stream().mapToInt(GpuAllocation::gpuCount).sum();
  }

  /** The in-cluster base URL of the frontend Service (no path). */
  public String endpointUrl() {
    return "http://" + frontendService + "." + namespace + ".svc.cluster.local:" + frontendPort;
  }

  /**
   * A record built in code (e.g. by {@code benchplan validate}, which deploys its own DGD). Its
   * source SHA-256 is that of the canonical JSON of its fields; the DGD enters by content ({@code
   * dgd_sha256}), not by path, so the hash does not depend on where the files lie (a plan records
   * paths relative to its experiment root, and render re-derives this hash from the plan).
   *
   * @param name what to call it in the plan, e.g. {@code validate:in-cluster}
   */
  public static DeploymentRecord inMemory(
      String name,
      String dgdName,
      String kubeContext,
      String namespace,
      String dgdPath,
      String dgdSha256,
      String frontendService,
      int frontendPort,
      String servedModel,
      String tokenizer,
      List<GpuAllocation> gpus,
      @Nullable Long maxContextLength,
      SmokeEvidence smoke,
      List<String> secrets) {
    ObjectNode n = Json.JSON.createObjectNode();
    n.put("dgd_name", dgdName)
        .put("kube_context", kubeContext)
        .put("namespace", namespace)
        .put("dgd_sha256", dgdSha256)
        .put("frontend_service", frontendService)
        .put("frontend_port", frontendPort)
        .put("served_model", servedModel)
        .put("tokenizer", tokenizer)
        .put("max_context_length", maxContextLength)
        .put("smoke_kind", smoke.kind());
    ArrayNode g = n.putArray("gpus");
    gpus.forEach(a -> g.addObject().put("gpu_type", a.gpuType()).put("gpu_count", a.gpuCount()));
    ArrayNode s = n.putArray("secrets");
    secrets.stream().sorted().forEach(s::add);
    return new DeploymentRecord(
        name,
        Sha256.hex(CanonicalJson.bytes(n)),
        dgdName,
        kubeContext,
        namespace,
        dgdPath,
        dgdSha256,
        frontendService,
        frontendPort,
        servedModel,
        tokenizer,
        gpus,
        maxContextLength,
        smoke,
        secrets);
  }

  private static void requireText(String v, String what) {
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
  }

  private static void requireSha(String v, String what) {
    if (v == null || !v.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException(what + " must be 64 lowercase hex characters");
    }
  }

  private static void requireDns(String v, String what) {
    if (v == null || v.length() > 63 || !DNS1123.matcher(v).matches()) {
      throw new IllegalArgumentException(what + " must be a DNS-1123 label: '" + v + "'");
    }
  }
}
