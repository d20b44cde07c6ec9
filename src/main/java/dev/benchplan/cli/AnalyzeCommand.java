package dev.benchplan.cli;

import dev.benchplan.analysis.AnalyzeService;
import dev.benchplan.analysis.AnalyzeText;
import dev.benchplan.plan.PlanPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code benchplan analyze}: audit, summarize and analyse runs. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Audit, summarize and analyse benchmark runs: benchmark_audit.json and benchmark_summary.json per run,"
          + " performance_analysis.json/.md, repeat_decision.json, report.html with SVG plots and summary.md;"
          + " one line appended to <EXP_ROOT>/analysis/performance_findings.jsonl per series.",
      "RUN is a benchplan run directory (benchmark/runs/<run-id>/) or an AIPerf artifact directory in any layout."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  analysed (invalid runs are reported, not an error)",
      "  2  invalid input (nothing written)"
    })
public final class AnalyzeCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Spec CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "RUN",
      description = "Run directories or AIPerf artifact directories.")
  List<Path> runs;

  @Option(
      names = "--exp-root",
      converter = DirectoryConverter.class,
      defaultValue = PlanPaths.DEFAULT_EXP_ROOT,
      paramLabel = "DIR",
      description =
          "Experiment root: series history and the findings log (default: ${DEFAULT-VALUE}).")
  Path expRoot;

  @Option(
      names = "--report-dir",
      converter = DirectoryConverter.class,
      paramLabel = "DIR",
      description = "Where the documents go (default: <EXP_ROOT>/analysis/<analysis-id>/).")
  Path reportDir;

  @Option(
      names = "--gpus",
      paramLabel = "N",
      description = "GPU count for runs whose plan or telemetry records none.")
  Integer gpus;

  @Option(
      names = "--slo",
      paramLabel = "METRIC.STAT<=X",
      description =
          "An SLO to evaluate, e.g. time_to_first_token.p99<=500 (repeatable; adds to the plan's).")
  List<String> slos = new ArrayList<>();

  @Mixin CandidateMixin candidates;

  @Override
  public Integer call() {
    AnalyzeService.Outcome outcome =
        AnalyzeService.analyze(
            new AnalyzeService.Request(
                runs, expRoot, reportDir, gpus, slos, candidates.labels(), candidates.noiseFloor));
    return Printer.print(spec.commandLine(), format, new Output(outcome), 0);
  }

  /** The result of {@code analyze}: in JSON, {@link AnalyzeText#output}. */
  record Output(AnalyzeService.Outcome outcome) implements CommandOutput {
    @com.fasterxml.jackson.annotation.JsonValue
    AnalyzeText.Output json() {
      return AnalyzeText.output(outcome);
    }

    @Override
    public void printText(java.io.PrintWriter out) {
      out.print(AnalyzeText.text(outcome));
    }
  }
}
