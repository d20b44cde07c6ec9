package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ExitCode;
import dev.benchplan.plan.PlanClock;
import dev.benchplan.render.JobBudget;
import dev.benchplan.render.PairLabel;
import dev.benchplan.render.PlanRenderer;
import dev.benchplan.render.RenderRequest;
import dev.benchplan.render.RenderResult;
import dev.benchplan.workload.SmokeEvidence;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchplan render}: a verified plan into aiperf-config.yaml and a perf.yaml Job. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = {
      "Render a plan into DEPLOY_ROOT/benchmark/aiperf-config.yaml and"
          + " DEPLOY_ROOT/benchmark/perf.yaml (ConfigMaps, then one batch/v1 Job).",
      "The plan must hash to --plan-sha256 and pass its schema; a trace it names must still hash"
          + " to the recorded SHA-256. One Job measures the whole plan: every load point and"
          + " every repetition (or only the point --load-point names)."
    })
public final class RenderCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Spec CommandSpec spec;

  @Option(names = "--plan", required = true, paramLabel = "PATH", description = "The plan JSON.")
  Path plan;

  @Option(
      names = "--plan-sha256",
      required = true,
      paramLabel = "SHA",
      description = "The plan's SHA-256 as recorded when it was written.")
  String planSha256;

  @Option(
      names = "--deploy-root",
      required = true,
      paramLabel = "DIR",
      converter = DirectoryConverter.class,
      description = "Existing folder; files go to DIR/benchmark/.")
  Path deployRoot;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description = "Namespace for the Job and ConfigMaps (default: the plan's deployment).")
  String namespace;

  @Option(
      names = "--job-name",
      paramLabel = "NAME",
      description = "Job name (default: bp-<series>-<run-id>).")
  String jobName;

  @Option(
      names = "--image",
      paramLabel = "IMAGE",
      description = "AIPerf image (default: the plan's); pinned, never latest.")
  String image;

  @Option(
      names = "--artifacts",
      paramLabel = "pvc:CLAIM[/SUBPATH]",
      description =
          "Write artifacts to a PVC, optionally in a folder of it (default: an emptyDir).")
  String artifacts;

  @Option(
      names = "--artifacts-pvc",
      paramLabel = "CLAIM",
      description =
          "AIPerf writes its artifacts to this PVC (in the Job's namespace); a tree past the pod-log bound"
              + " (12 MiB) is brought back by collector pods mounting it. Without it, render refuses a plan"
              + " whose estimated artifacts exceed the bound.")
  String artifactsPvc;

  @Option(
      names = "--trace-source",
      paramLabel = "pvc:CLAIM/PATH|configmap",
      description =
          "How the trace reaches the pod (default: a ConfigMap when it fits under 900 KiB).")
  String traceSource;

  @Option(
      names = "--ledger",
      paramLabel = "FILE",
      description =
          "The deployment ledger of the candidate to measure (a series' next candidate): checked"
              + " like plan checks it, its frozen fields must equal the series'. Default: the"
              + " ledger the plan records, re-read by its SHA-256.")
  Path ledger;

  @Option(
      names = "--load-point",
      paramLabel = "VALUE",
      description = "The concurrency or request rate to measure when the plan has several.")
  String loadPoint;

  @Option(
      names = "--timeout-ready-request",
      paramLabel = "SECONDS",
      converter = NumericOptions.RequestTimeoutSeconds.class,
      description =
          "How long each readiness request of the Job (model list, first chat completion) may take,"
              + " inside the overall wait for the model ("
              + NumericOptions.RequestTimeoutSeconds.RANGE
              + " s, or e.g. 2m; default: "
              + JobBudget.READY_REQUEST_SECONDS
              + "). A fresh worker's first completion can take"
              + " ~45 s and starts over when the client gives up.")
  Integer readyRequestTimeout;

  @Option(
      names = "--smoke-max-age",
      paramLabel = "DURATION",
      converter = NumericOptions.SmokeMaxAge.class,
      description =
          "The oldest smoke-test artifact the bound ledger may carry now, "
              + NumericOptions.SmokeMaxAge.RANGE
              + " (default: 72h, as plan):"
              + " older is refused (exit 2, nothing written). A plan made today is not run next"
              + " month on a week-old smoke test.")
  Duration smokeMaxAge;

  @Option(
      names = "--pair",
      paramLabel = "ID",
      description =
          "This run is one half of the AB/BA pair ID (needs --pair-order and --pair-arm);"
              + " run records it in run.json and compare pairs reference and candidate runs by it.")
  String pair;

  @Option(
      names = "--pair-order",
      paramLabel = "AB|BA",
      description = "The order of the pair: AB (the reference, arm A, runs first) or BA.")
  String pairOrder;

  @Option(
      names = "--pair-arm",
      paramLabel = "A|B",
      description = "This run's arm: A (reference) or B (candidate).")
  String pairArm;

  @Override
  public Integer call() {
    if ((pair == null) != (pairOrder == null) || (pair == null) != (pairArm == null)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--pair, --pair-order and --pair-arm go"
              + " together: a paired run names its pair, the pair's order and its own arm");
    }
    PairLabel pairLabel = pair == null ? null : new PairLabel(pair, pairOrder, pairArm);
    if (artifactsPvc != null && artifacts != null) {
      throw dev.benchplan.error.BenchplanException.invalid(
          ErrorLocation.option("--artifacts-pvc"),
          "options --artifacts-pvc and --artifacts: both name the artifact claim: expected one of them");
    }
    RenderResult r =
        PlanRenderer.render(
            RenderRequest.builder(plan, planSha256, deployRoot)
                .namespace(namespace)
                .jobName(jobName)
                .image(image)
                .artifacts(artifactsPvc != null ? "pvc:" + artifactsPvc : artifacts)
                .traceSource(traceSource)
                .loadPoint(loadPoint)
                .runId(runIdClock(), runIdRandom())
                .ledger(ledger)
                .readyRequestTimeoutSeconds(readyRequestTimeout)
                .pair(pairLabel)
                .refusePastLogBound(true)
                .smokeAge(
                    new SmokeEvidence.AgeCheck(
                        smokeMaxAge != null ? smokeMaxAge : SmokeEvidence.DEFAULT_MAX_AGE,
                        // judged as plan judges: SOURCE_DATE_EPOCH, else the system clock
                        PlanClock.fromEnvironment(System.getenv()).instant()))
                .build());
    return Printer.print(spec.commandLine(), format, Output.of(r), ExitCode.OK);
  }

  /** Reproducible captures (scripts/docs-captures.sh) fix the run id: see {@link #FIXED_RUN_ID}. */
  private static Clock runIdClock() {
    return System.getenv(FIXED_RUN_ID) == null
        ? Clock.systemUTC()
        : Clock.fixed(PlanClock.fromEnvironment(System.getenv()).instant(), ZoneOffset.UTC);
  }

  private static RandomGenerator runIdRandom() {
    String seed = System.getenv(FIXED_RUN_ID);
    return seed == null ? new SecureRandom() : new SplittableRandom(seed.hashCode());
  }

  /**
   * Set (to any seed), the run id comes from SOURCE_DATE_EPOCH's time and that seed, so identical
   * inputs render byte-identical files; for the docs' captures only, as every render then gets the
   * same run id.
   */
  static final String FIXED_RUN_ID = "BENCHPLAN_FIXED_RUN_ID";

  /**
   * The result of {@code render}: the two files, their SHA-256, the Job and the candidate measured.
   */
  record Output(
      @JsonProperty("aiperf_config") String aiperfConfig,
      @JsonProperty("perf_yaml") String perfYaml,
      @JsonProperty("sha256") Sha sha256,
      @JsonProperty("job_name") String jobName,
      @JsonProperty("namespace") String namespace,
      @JsonProperty("mode") String mode,
      @JsonProperty("run_id") String runId,
      @JsonProperty("load_point") @Nullable String loadPoint,
      @JsonProperty("candidate") Candidate candidate,
      @JsonProperty("artifacts") Artifacts artifacts,
      @JsonProperty("gates") List<GateOutput> gates)
      implements CommandOutput {
    static Output of(RenderResult r) {
      return new Output(
          r.aiperfConfig().toString(),
          r.perfYaml().toString(),
          new Sha(r.aiperfConfigSha256(), r.perfYamlSha256()),
          r.jobName(),
          r.namespace(),
          r.mode(),
          r.runId(),
          r.loadPoint(),
          new Candidate(r.candidateDgd(), r.endpoint(), r.ledger(), r.ledgerSha256()),
          new Artifacts(r.artifactEstimateBytes(), r.artifactTransport()),
          GateOutput.of(r.gates()));
    }

    @Override
    public void printText(PrintWriter out) {
      out.printf("aiperf-config.yaml  %s%n  sha256 %s%n", aiperfConfig, sha256.aiperfConfig());
      out.printf("perf.yaml           %s%n  sha256 %s%n", perfYaml, sha256.perfYaml());
      out.printf(
          "job %s in namespace %s, run %s, AIPerf %s mode%s%n",
          jobName, namespace, runId, mode, loadPoint == null ? "" : ", load point " + loadPoint);
      out.printf(
          "candidate %s at %s%n  ledger %s (sha256 %s)%n",
          candidate.dgd(), candidate.endpoint(), candidate.ledger(), candidate.ledgerSha256());
      if (artifacts.estimateBytes() > 0) {
        out.printf(
            java.util.Locale.ROOT,
            "artifacts estimated %.1f MiB (%d bytes): %s%n",
            artifacts.estimateBytes() / (1024.0 * 1024.0),
            artifacts.estimateBytes(),
            artifacts.transport());
      } else {
        out.printf("artifacts: %s%n", artifacts.transport());
      }
      GateOutput.printText(out, gates);
    }
  }

  /** The artifact tree's estimated size and how it comes back. */
  record Artifacts(
      @JsonProperty("estimate_bytes") long estimateBytes,
      @JsonProperty("transport") String transport) {}

  /** The candidate the rendered Job measures, and the ledger it came from. */
  record Candidate(
      @JsonProperty("dgd") String dgd,
      @JsonProperty("endpoint") String endpoint,
      @JsonProperty("ledger") String ledger,
      @JsonProperty("ledger_sha256") String ledgerSha256) {}

  /** The SHA-256 of each rendered file. */
  record Sha(
      @JsonProperty("aiperf_config") String aiperfConfig,
      @JsonProperty("perf_yaml") String perfYaml) {}
}
