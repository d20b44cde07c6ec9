package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.gate.ConstraintReader;
import dev.benchplan.gate.ConstraintResult;
import dev.benchplan.gate.Verdict;
import dev.benchplan.gate.VerdictDocument;
import dev.benchplan.kube.run.LogRecovery;
import dev.benchplan.kube.run.RunServices;
import dev.benchplan.plan.PlanClock;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.progress.RunProgress;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.workload.SmokeEvidence;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

/**
 * {@code benchplan run}: run a rendered perf.yaml in the cluster, collect artifacts, gate, clean
 * up.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run DEPLOY_ROOT/benchmark/perf.yaml in the cluster: check the plan it names, preflight isolation,"
          + " apply the ConfigMaps and the AIPerf Job, watch it, collect the AIPerf summary and the pod log"
          + " into DEPLOY_ROOT/benchmark/runs/<run-id>/, gate (--constraints, else the plan's gates) and"
          + " delete what was applied (unless --keep). Progress goes to stderr.",
      "With --from-log LOG: no cluster; the run directory is recovered from the Job's log saved with"
          + " `kubectl logs` (not eligible as evidence: pod, node and isolation are not known)."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  gate passed or skipped",
      "  1  gate failed",
      "  2  invalid input or preflight blocker (nothing applied); --from-log: a log without its end"
          + " marker, cut, or failing a checksum (nothing written)",
      "  3  cluster or run error (Job failed, deadline, API errors); also after Ctrl-C, once cleaned up"
    })
public final class RunCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Spec CommandSpec spec;

  @Mixin PerfYamlRootMixin deployRoot;

  @Mixin ContextMixin context;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description = "Namespace to run in (default: perf.yaml's, else the context's).")
  String namespace;

  @Option(
      names = "--constraints",
      paramLabel = "OVERLAY",
      description = "AICR overlay with gate constraints (default: the plan's objectives.gates).")
  Path constraints;

  @Option(
      names = "--allow-unknown-constraints",
      description =
          "List the overlay's unknown inference-* constraint names as ignored instead of refusing"
              + " them (exit 2): for an overlay newer than benchplan.")
  boolean allowUnknownConstraints;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Bound on the whole Job (default: its activeDeadlineSeconds + 60s).")
  Duration timeout;

  @Option(
      names = "--schedule-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      defaultValue = "5m",
      description =
          "Bound on the pod being scheduled and its container starting (default: ${DEFAULT-VALUE}).")
  Duration scheduleTimeout;

  @Option(
      names = "--smoke-max-age",
      paramLabel = "DURATION",
      converter = NumericOptions.SmokeMaxAge.class,
      description =
          "The oldest smoke-test artifact the ledger perf.yaml binds may carry now, "
              + NumericOptions.SmokeMaxAge.RANGE
              + " (default: 72h, as plan and render): older is refused before anything is created"
              + " (exit 2);"
              + " run.json records its age (smoke_evidence).")
  Duration smokeMaxAge;

  @Option(names = "--keep", description = "Keep the Job and ConfigMaps afterwards.")
  boolean keep;

  @Option(
      names = "--replace",
      description =
          "Replace a Job/ConfigMaps of the same names (and keep an earlier run"
              + " directory of the same run-id under a new name).")
  boolean replace;

  @Option(
      names = "--from-log",
      paramLabel = "LOG",
      description =
          "Recover the run from the AIPerf Job's log saved with `kubectl logs` (an interrupted run):"
              + " nothing in the cluster is read or changed; the same verified run directory is"
              + " written, not eligible as evidence (pod, node and isolation unknown). A log without"
              + " its end marker, cut, or failing a checksum is exit 2 with nothing written.")
  Path fromLog;

  @Override
  public Integer call() {
    RunProgress progress = ProgressRenderer.forStderr("run", spec.commandLine().getErr());
    RunRequest request =
        RunRequest.builder(deployRoot.deployRoot())
            .context(context.context())
            .namespace(namespace)
            .constraintsOverlay(constraints)
            .timeout(timeout)
            .scheduleTimeout(scheduleTimeout)
            .keep(keep)
            .replace(replace)
            // read here only when its unknown names are allowed; else the run reads it
            .constraints(
                allowUnknownConstraints && constraints != null
                    ? ConstraintReader.fromOverlay(constraints, true)
                    : null)
            .smokeAge(
                new SmokeEvidence.AgeCheck(
                    smokeMaxAge != null ? smokeMaxAge : SmokeEvidence.DEFAULT_MAX_AGE,
                    // judged as plan and render judge: SOURCE_DATE_EPOCH, else the system clock
                    PlanClock.fromEnvironment(System.getenv()).instant()))
            .build();
    RunOutcome outcome =
        fromLog != null
            ? LogRecovery.recover(request, fromLog, java.time.Clock.systemUTC(), progress)
            : RunServices.kubernetes().run(request, progress);
    return Printer.print(spec.commandLine(), format, Output.of(outcome), outcome.exitCode());
  }

  /** The result of {@code run}: the run, its verdict, its run record, and what was cleaned up. */
  record Output(
      @JsonProperty("run_id") String runId,
      @JsonProperty("run_dir") String runDir,
      @JsonProperty("exit_reason") String exitReason,
      @JsonProperty("exit_code") int exitCode,
      @JsonProperty("eligible") boolean eligible,
      @JsonProperty("verdict") VerdictDocument verdict,
      @JsonProperty("run") JsonNode run,
      @JsonProperty("cleanup") List<String> cleanup,
      @JsonIgnore RunOutcome outcome)
      implements CommandOutput {
    static Output of(RunOutcome o) {
      return new Output(
          o.runId(),
          o.runDir().toString(),
          o.exitReason(),
          o.exitCode(),
          o.record().path("eligible").asBoolean(),
          o.verdict().document(),
          o.record(),
          o.cleanup(),
          o);
    }

    @Override
    public void printText(PrintWriter out) {
      RunCommand.printText(out, outcome);
    }
  }

  private static void printText(PrintWriter out, RunOutcome o) {
    Verdict v = o.verdict();
    out.println(
        "run "
            + o.runId()
            + ": "
            + v.verdict().json().toUpperCase(Locale.ROOT)
            + " ("
            + o.exitReason()
            + ")");
    boolean measured = v.constraints().stream().anyMatch(c -> c.measured() != null);
    if (measured) {
      for (ConstraintResult c : v.constraints()) {
        out.printf(Locale.ROOT, "  %-5s %s%n", c.status().json(), c.message());
      }
    } else if (!v.constraints().isEmpty()) {
      // the run produced nothing to gate: name the constraints once, then say why
      StringBuilder names = new StringBuilder();
      v.constraints().forEach(c -> names.append(names.length() == 0 ? "" : ", ").append(c.name()));
      out.println("  not measured: " + names);
    }
    if (v.verdict() == dev.benchplan.gate.Status.ERROR || v.constraints().isEmpty()) {
      out.println("  " + v.message().replace("\n", "\n  "));
    }
    out.println("run directory: " + o.runDir());
    boolean eligible = o.record().path("eligible").asBoolean();
    StringBuilder why = new StringBuilder();
    o.record()
        .path("ineligible_reasons")
        .forEach(r -> why.append(why.length() == 0 ? "" : "; ").append(r.asString()));
    out.println("evidence: " + (eligible ? "eligible" : "NOT eligible: " + why));
    o.record()
        .path("isolation")
        .path("warnings")
        .forEach(w -> out.println("warning: " + w.asString()));
    out.println("cleanup: " + String.join("; ", o.cleanup()));
  }
}
