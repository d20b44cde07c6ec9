package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.benchplan.diagnostics.Finding;
import dev.benchplan.gate.ConstraintResult;
import dev.benchplan.gate.GateOptions;
import dev.benchplan.gate.GateService;
import dev.benchplan.gate.RequestSummary;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.gate.VerdictDocument;
import dev.benchplan.gate.VerdictReports;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchplan gate}: gate an AIPerf summary export on throughput and TTFT constraints. */
@Command(
    name = "gate",
    mixinStandardHelpOptions = true,
    description = {
      "Gate an AIPerf summary export (profile_export_aiperf.json) on throughput and TTFT constraints.",
      "Constraints come from an AICR-style overlay (--constraints) or from flags; with none, the gate"
          + " skips. Throughput fails below (1 - tolerance) x its floor, TTFT p99 above (1 + tolerance) x"
          + " its ceiling; a missing gated metric or a cancelled run is an error, never a pass."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  pass or skip",
      "  1  fail",
      "  2  invalid input",
      "  3  error (metric missing, run cancelled, client-bound run: the load generator was the bottleneck)"
    })
public final class GateCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Spec CommandSpec spec;

  @Option(
      names = "--results",
      required = true,
      paramLabel = "FILE|DIR",
      description =
          "AIPerf summary export (profile_export_aiperf.json), or a run directory or an AIPerf artifact"
              + " directory in any layout (profile_runs/run_NNNN, <param>_<value>, trials): every run in it is gated,"
              + " with the capacity under the gates for a sweep. Per-request records (profile_export.jsonl) and"
              + " AIPerf's log feed the diagnostics: a suspected stalled worker is reported, a client-bound run is an"
              + " error.")
  Path results;

  @Option(
      names = "--constraints",
      paramLabel = "OVERLAY",
      description =
          "AICR overlay YAML: spec.validation.performance.constraints (RecipeMetadata) or"
              + " validation.performance.constraints.")
  Path overlay;

  @Option(
      names = "--allow-unknown-constraints",
      description =
          "List an overlay's unknown inference-* constraint names as ignored instead of refusing"
              + " them (exit 2): for an overlay newer than benchplan.")
  boolean allowUnknownConstraints;

  @Option(
      names = "--min-throughput",
      paramLabel = "TOKENS_PER_SEC",
      converter = NumericOptions.Throughput.class,
      description =
          "inference-throughput >= X (output_token_throughput avg, tokens/sec; "
              + NumericOptions.Throughput.RANGE
              + ").")
  BigDecimal minThroughput;

  @Option(
      names = "--max-ttft-p99",
      paramLabel = "MS",
      converter = NumericOptions.Millis.class,
      description =
          "inference-ttft-p99 <= Y (time_to_first_token p99, ms; "
              + NumericOptions.Millis.RANGE
              + ").")
  BigDecimal maxTtftP99;

  @Option(
      names = "--tolerance",
      defaultValue = "0.10",
      paramLabel = "FRACTION",
      converter = NumericOptions.Tolerance.class,
      description =
          "Relative tolerance on every threshold, "
              + NumericOptions.Tolerance.RANGE
              + " (default: ${DEFAULT-VALUE}).")
  BigDecimal tolerance;

  @Option(
      names = "--max-error-rate",
      defaultValue = "0.01",
      paramLabel = "FRACTION",
      converter = NumericOptions.Fraction.class,
      description =
          "Largest acceptable share of failed requests, "
              + NumericOptions.Fraction.RANGE
              + " (default: ${DEFAULT-VALUE}).")
  BigDecimal maxErrorRate;

  @Option(
      names = "--report-dir",
      paramLabel = "DIR",
      converter = DirectoryConverter.class,
      description = "Also write verdict.json, ctrf-report.json and junit.xml into DIR.")
  Path reportDir;

  @Override
  public Integer call() {
    GateService.Outcome outcome =
        GateService.gate(
            new GateService.Request(
                results,
                overlay,
                minThroughput,
                maxTtftP99,
                new GateOptions(tolerance, maxErrorRate),
                reportDir,
                allowUnknownConstraints),
            Clock.systemUTC());
    return Printer.print(
        spec.commandLine(), format, new Output(outcome), outcome.verdict().exitCode());
  }

  /** The gate's result: in JSON, the verdict document (schemas/verdict.schema.json). */
  record Output(GateService.Outcome outcome) implements CommandOutput {
    @JsonValue
    VerdictDocument json() {
      return outcome.verdict().document();
    }

    @Override
    public void printText(PrintWriter out) {
      GateCommand.printText(out, outcome);
    }
  }

  private static void printText(PrintWriter out, GateService.Outcome outcome) {
    Verdict v = outcome.verdict();
    String head = "verdict: " + v.verdict().json().toUpperCase(Locale.ROOT);
    // with constraint lines below, the message would only repeat them
    // with constraint lines below, the message would only repeat them (not so over several runs:
    // it names the run the lines belong to)
    out.println(v.constraints().isEmpty() || v.runs() != null ? head + "  " + v.message() : head);
    for (ConstraintResult c : v.constraints()) {
      out.printf(Locale.ROOT, "  %-5s %s%n", c.status().json(), c.message());
    }
    RequestSummary r = v.requests();
    if (r.status() != Status.SKIP) {
      out.printf(
          Locale.ROOT,
          "  %-5s request-error-rate: %s of %s requests failed (%s), max %s%n",
          r.status().json(),
          plain(r.errors()),
          r.total() == null ? "unknown" : plain(r.total()),
          r.errorRate() == null ? "rate unknown" : percent(r.errorRate()),
          percent(r.maxErrorRate()));
    }
    for (String ignored : v.ignored()) {
      out.println("  ignored " + ignored);
    }
    for (String w : v.warnings()) {
      out.println("warning: " + w);
    }
    if (v.runs() != null) {
      for (dev.benchplan.gate.RunVerdicts.Entry e : v.runs().runs()) {
        out.printf(
            Locale.ROOT,
            "  run %-5s %s (%s)%n",
            e.verdict().verdict().json(),
            e.label(),
            e.directory().isEmpty() ? "." : e.directory());
      }
      if (v.runs().capacity() != null) {
        out.println(v.runs().capacity().message());
      }
    }
    for (Finding f : v.findings()) {
      out.println("finding: " + f.kind().json() + " (" + f.kind().severity() + "): " + f.message());
      for (String e : f.evidence()) {
        out.println("  log: " + e);
      }
      out.println("  recommendation: " + f.recommendation());
    }
    out.println("constraints: " + v.constraintsSource());
    if (v.runs() != null) {
      out.println(
          "source: "
              + v.source().path()
              + " ("
              + v.runs().runs().size()
              + " measured run(s); each run's"
              + " export and SHA-256 in --format json runs[].source)");
    } else {
      out.println(
          "source: "
              + v.source().path()
              + " (sha256 "
              + v.source().sha256()
              + ", layout "
              + v.source().layout()
              + ", aiperf_version "
              + (v.source().aiperfVersion() == null ? "not recorded" : v.source().aiperfVersion())
              + ")");
    }
    if (outcome.reportDir() != null) {
      out.println(
          "reports: "
              + outcome.reportDir().resolve(VerdictReports.VERDICT)
              + ", "
              + outcome.reportDir().resolve(VerdictReports.CTRF)
              + ", "
              + outcome.reportDir().resolve(VerdictReports.JUNIT));
    }
  }

  private static String percent(BigDecimal fraction) {
    return fraction
            .movePointRight(2)
            .round(new java.math.MathContext(4))
            .stripTrailingZeros()
            .toPlainString()
        + "%";
  }

  private static String plain(BigDecimal v) {
    return v.stripTrailingZeros().toPlainString();
  }
}
