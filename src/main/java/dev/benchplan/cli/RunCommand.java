package dev.benchplan.cli;

import dev.benchplan.gate.ConstraintResult;
import dev.benchplan.gate.Verdict;
import dev.benchplan.json.Json;
import dev.benchplan.kube.run.RunProgress;
import dev.benchplan.kube.run.RunServices;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code benchplan run}: run a rendered perf.yaml in the cluster, collect artifacts, gate, clean up. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run DEPLOY_ROOT/benchmark/perf.yaml in the cluster: check the plan it names, preflight isolation,"
          + " apply the ConfigMaps and the AIPerf Job, watch it, collect the AIPerf summary and the pod log"
          + " into DEPLOY_ROOT/benchmark/runs/<run-id>/, gate (--constraints, else the plan's gates) and"
          + " delete what was applied (unless --keep). Progress goes to stderr."
    },
    footerHeading = "%nExit codes:%n",
    footer = {"  0  gate passed or skipped", "  1  gate failed", "  2  invalid input or preflight blocker (nothing applied)",
        "  3  cluster or run error (Job failed, deadline, API errors); also after Ctrl-C, once cleaned up"})
public final class RunCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Spec CommandSpec spec;

  @Option(names = "--deploy-root", required = true, paramLabel = "DIR",
      description = "DEPLOY_ROOT holding benchmark/perf.yaml (from 'benchplan render').")
  Path deployRoot;

  @Option(names = "--context", paramLabel = "CTX", description = "kubeconfig context (default: the current one).")
  String context;

  @Option(names = "--namespace", paramLabel = "NS",
      description = "Namespace to run in (default: perf.yaml's, else the context's).")
  String namespace;

  @Option(names = "--constraints", paramLabel = "OVERLAY",
      description = "AICR overlay with gate constraints (default: the plan's objectives.gates).")
  Path constraints;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Bound on the whole Job (default: its activeDeadlineSeconds + 60s).")
  Duration timeout;

  @Option(names = "--schedule-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      defaultValue = "5m", description = "Bound on the pod being scheduled and its container starting (default: ${DEFAULT-VALUE}).")
  Duration scheduleTimeout;

  @Option(names = "--keep", description = "Keep the Job and ConfigMaps afterwards.")
  boolean keep;

  @Option(names = "--replace", description = "Replace a Job/ConfigMaps of the same names (and keep an earlier run"
      + " directory of the same run-id under a new name).")
  boolean replace;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    RunProgress progress = (phase, elapsed, detail) -> {
      long s = elapsed.getSeconds();
      err.printf(Locale.ROOT, "benchplan run [%d:%02d] %s%s%n", s / 60, s % 60, phase,
          detail == null || detail.isBlank() ? "" : ": " + detail.replace('\n', ' '));
      err.flush();
    };
    RunOutcome outcome = RunServices.kubernetes().run(
        new RunRequest(deployRoot, context, namespace, constraints, timeout, scheduleTimeout, keep, replace), progress);
    PrintWriter out = spec.commandLine().getOut();
    if (format.json()) {
      FormatMixin.printJson(out, toJson(outcome));
    } else {
      printText(out, outcome);
    }
    out.flush();
    return outcome.exitCode();
  }

  private static ObjectNode toJson(RunOutcome o) {
    ObjectNode root = Json.JSON.createObjectNode();
    root.put("run_id", o.runId());
    root.put("run_dir", o.runDir().toString());
    root.put("exit_reason", o.exitReason());
    root.put("exit_code", o.exitCode());
    root.put("eligible", o.record().path("eligible").asBoolean());
    root.set("verdict", o.verdict().toJson());
    root.set("run", o.record());
    ArrayNode cleanup = root.putArray("cleanup");
    o.cleanup().forEach(cleanup::add);
    return root;
  }

  private static void printText(PrintWriter out, RunOutcome o) {
    Verdict v = o.verdict();
    out.println("run " + o.runId() + ": " + v.verdict().json().toUpperCase(Locale.ROOT) + " (" + o.exitReason() + ")");
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
    o.record().path("ineligible_reasons").forEach(r -> why.append(why.length() == 0 ? "" : "; ").append(r.asString()));
    out.println("evidence: " + (eligible ? "eligible" : "NOT eligible: " + why));
    o.record().path("isolation").path("warnings").forEach(w -> out.println("warning: " + w.asString()));
    out.println("cleanup: " + String.join("; ", o.cleanup()));
  }
}
