package dev.benchplan.render;

import dev.benchplan.plan.BenchmarkPlan;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What render wrote.
 *
 * @param aiperfConfig the aiperf-config.yaml path
 * @param aiperfConfigSha256 its SHA-256
 * @param perfYaml the perf.yaml path
 * @param perfYamlSha256 its SHA-256
 * @param jobName the Job's name
 * @param namespace where the objects go
 * @param mode {@code config} or {@code flags}
 * @param runId the run id chosen at render time
 * @param loadPoint the measured load point ({@code [1, 2, 4]} for a grid), or null for a
 *     fixed-schedule replay
 * @param candidateDgd {@code namespace/name} of the DGD measured
 * @param endpoint the endpoint measured
 * @param ledger the deployment ledger the candidate came from
 * @param ledgerSha256 its SHA-256
 * @param mechanism how the measured runs execute ({@link MeasuredRuns})
 * @param measuredRuns load points times repetitions
 * @param artifactEstimateBytes the artifact tree's estimated size
 * @param artifactTransport how the tree comes back (pod log, or a claim and collector pods)
 * @param gates the plan's gates the run will judge, each with its tolerance
 */
public record RenderResult(
    Path aiperfConfig,
    String aiperfConfigSha256,
    Path perfYaml,
    String perfYamlSha256,
    String jobName,
    String namespace,
    String mode,
    String runId,
    @Nullable String loadPoint,
    String candidateDgd,
    String endpoint,
    String ledger,
    String ledgerSha256,
    String mechanism,
    int measuredRuns,
    long artifactEstimateBytes,
    String artifactTransport,
    List<BenchmarkPlan.Gate> gates) {
  public RenderResult {
    gates = List.copyOf(gates);
  }
}
