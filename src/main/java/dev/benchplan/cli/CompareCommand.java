package dev.benchplan.cli;

import dev.benchplan.analysis.CompareService;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchplan compare}: candidate vs reference runs, eligibility first. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Compare candidate runs with reference runs: eligibility first (same workload, AIPerf version, endpoint,"
          + " streaming, model, tokenizer, load points; every run valid), then per metric the effect with its 95%%"
          + " interval, the MDE and a verdict: improved, regressed, no_change (interval inside +-MDE) or inconclusive."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  no gated metric regressed (the text says when nothing could be decided)",
      "  1  a gated metric regressed beyond the MDE (with --fail-on inconclusive: or is inconclusive)",
      "  2  ineligible (every differing field named; a side with no valid run at a load point) or"
          + " invalid input; nothing written",
      "  3  an output cannot be written"
    })
public final class CompareCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Spec CommandSpec spec;

  @Option(
      names = "--reference",
      required = true,
      arity = "1..*",
      paramLabel = "RUN",
      description = "Reference runs.")
  List<Path> reference;

  @Option(
      names = "--candidate",
      required = true,
      arity = "1..*",
      paramLabel = "RUN",
      description = "Candidate runs.")
  List<Path> candidate;

  @Option(
      names = "--mde",
      paramLabel = "PCT",
      converter = NumericOptions.EffectPercent.class,
      description =
          "Minimum detectable effect in percent, "
              + NumericOptions.EffectPercent.RANGE
              + " (default: the data's, at 80%% power).")
  Double mde;

  @Option(
      names = "--paired",
      description = "Reference[i] and candidate[i] are AB/BA pairs: analyse paired differences.")
  boolean paired;

  @Option(
      names = "--exp-root",
      converter = DirectoryConverter.class,
      paramLabel = "DIR",
      description = "Experiment root: the series noise floor for n = 1 sides.")
  Path expRoot;

  @Option(
      names = "--report-dir",
      converter = DirectoryConverter.class,
      paramLabel = "DIR",
      description =
          "Write comparison.json, report.html, summary.md, repeat_decision.json and plots/*.svg into DIR.")
  Path reportDir;

  @Option(names = "--gpus", paramLabel = "N", description = "GPU count for runs that record none.")
  Integer gpus;

  /** What makes compare exit 1. */
  enum FailOn {
    regressed,
    inconclusive
  }

  @Option(
      names = "--fail-on",
      paramLabel = "WHAT",
      defaultValue = "regressed",
      description =
          "Exit 1 when a gated metric is: regressed (default), or inconclusive (also when it"
              + " regressed): for CI that must not pass on a comparison that decided nothing.")
  FailOn failOn;

  @Mixin CandidateMixin candidates;

  @Override
  public Integer call() {
    CompareService.Outcome o =
        CompareService.compare(
            new CompareService.Request(
                reference,
                candidate,
                mde,
                paired,
                expRoot,
                reportDir,
                gpus,
                failOn == FailOn.inconclusive,
                candidates.labels(),
                candidates.noiseFloor));
    return Printer.print(spec.commandLine(), format, new Output(o), o.exitCode());
  }

  /** The result of {@code compare}: in JSON, the comparison document (comparison.json). */
  record Output(CompareService.Outcome outcome) implements CommandOutput {
    @com.fasterxml.jackson.annotation.JsonValue
    dev.benchplan.analysis.report.ComparisonDoc json() {
      return outcome.comparison();
    }

    @Override
    public void printText(java.io.PrintWriter out) {
      out.print(CompareService.text(outcome));
    }
  }
}
