package dev.benchplan.plan;

import dev.benchplan.aiperf.version.IndexFetcher;
import dev.benchplan.aiperf.version.VersionRequest;
import dev.benchplan.json.Sha256;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.TraceInspector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A deployment folder written by the test (DGD, smoke artifact, ledger with the real SHA-256s) and
 * helpers that build plan requests against it.
 */
final class PlanFixtures {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);

  /** A fetcher for tests that must not reach any index. */
  static final IndexFetcher OFFLINE =
      uri -> {
        throw new ConnectException("offline test: no index at " + uri);
      };

  /** An inspector for tests whose workload has no trace. */
  static final TraceInspector NO_TRACES =
      (f, b, c, s, e) -> {
        throw new AssertionError("no trace expected in this test: " + f);
      };

  static final String DGD =
      """
      apiVersion: nvidia.com/v1alpha1
      kind: DynamoGraphDeployment
      metadata:
        name: vllm-agg
      spec:
        services:
          Frontend:
            componentType: frontend
            replicas: 1
          VllmDecodeWorker:
            envFromSecret: hf-token-secret
            componentType: worker
            replicas: 1
            resources:
              limits:
                gpu: "1"
            extraPodSpec:
              imagePullSecrets:
                - name: nvcr-pull
      """;

  /** A successful smoke artifact as `benchplan smoke` writes it (the committed example). */
  static final String SMOKE_OK = readExample("smoke_test_artifact.json");

  static final String STATIC_WORKLOAD =
      """
      profile:
        name: Support Chat
        type: chat
      model:
        source: Qwen/Qwen3-0.6B
      traffic:
        input_tokens: 512
        output_tokens: 128
        concurrency: [16]
        request_count: 1000
      objectives:
        ttft_ms_p95_max: 300
        output_tput_per_gpu_min: 1500
        custom_slos:
          - {metric: time_to_first_token, stat: p99, max: 500}
      """;

  final Path root;
  final Path deployDir;
  final Path ledger;
  final Path expRoot;

  private PlanFixtures(Path root) {
    this.root = root;
    this.deployDir = root.resolve("deploy");
    this.ledger = deployDir.resolve("ledger.yaml");
    this.expRoot = root.resolve("exp");
  }

  /** Writes a valid deployment folder (ledger + DGD + successful smoke artifact). */
  static PlanFixtures create(Path root) {
    PlanFixtures f = new PlanFixtures(root);
    f.writeDeployment(SMOKE_OK, true);
    return f;
  }

  void writeDeployment(String smokeArtifact, boolean ledgerSuccess) {
    write(deployDir.resolve("dgd.yaml"), DGD);
    write(deployDir.resolve("smoke_test_artifact.json"), smokeArtifact);
    writeLedger(
        Sha256.ofFile(deployDir.resolve("dgd.yaml")),
        Sha256.ofFile(deployDir.resolve("smoke_test_artifact.json")),
        ledgerSuccess);
  }

  void writeLedger(String dgdSha, String smokeSha, boolean success) {
    write(
        ledger,
        """
        dgd_name: vllm-agg
        kube_context: kind-test
        namespace: bench
        applied_dgd: {path: dgd.yaml, sha256: %s}
        frontend: {service: vllm-agg-frontend, port: 8000}
        served_model: Qwen/Qwen3-0.6B
        tokenizer: Qwen/Qwen3-0.6B
        gpus: [{gpu_type: H100, gpu_count: 2}]
        max_context_length: 40960
        smoke_test: {artifact_path: smoke_test_artifact.json, sha256: %s, success: %s}
        secrets: [hf-token-secret]
        """
            .formatted(dgdSha, smokeSha, success));
  }

  /** Writes a workload file under the fixture root and returns its path. */
  Path workload(String name, String yaml) {
    Path p = root.resolve(name);
    write(p, yaml);
    return p;
  }

  PlanOptions.Builder options() {
    return PlanOptions.builder().expRoot(expRoot).aiperf(VersionRequest.pinned("0.13.0"));
  }

  static Question question() {
    return new Question(
        "What output throughput does vllm-agg sustain within the support SLOs?",
        Intent.characterization,
        "16 concurrent users",
        List.of());
  }

  PlanRequest request(Path workloadFile, PlanOptions options) {
    return request(workloadFile, options, question(), NO_TRACES, OFFLINE);
  }

  PlanRequest request(
      Path workloadFile,
      PlanOptions options,
      Question q,
      TraceInspector inspector,
      IndexFetcher fetcher) {
    return new PlanRequest(
        InputDocument.read(workloadFile, "user workload"),
        InputDocument.read(ledger, "deployment ledger"),
        null,
        q,
        options,
        CLOCK,
        fetcher,
        inspector);
  }

  static String readExample(String name) {
    try {
      return Files.readString(Path.of("examples", name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path p, String content) {
    try {
      Files.createDirectories(p.toAbsolutePath().getParent());
      Files.writeString(p, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
