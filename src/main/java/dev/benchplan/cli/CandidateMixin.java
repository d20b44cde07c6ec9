package dev.benchplan.cli;

import dev.benchplan.analysis.evidence.CandidateLabel;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --label NAME=DIR} and {@code --noise-floor ID|FILE}, shared by analyze and compare: what
 * the runs measured and which noise floor they may use are named, never guessed (issue 31).
 */
public final class CandidateMixin {
  @Option(
      names = "--label",
      paramLabel = "NAME=DIR",
      description =
          "The candidate the runs under DIR measured (repeatable). Plain AIPerf folders record none:"
              + " without a label each RUN argument is its own candidate, never pooled with another.")
  List<String> labels = new ArrayList<>();

  @Option(
      names = "--noise-floor",
      paramLabel = "ID|FILE",
      description =
          "Take the noise floor of load points with one run from this analysis (an analysis id in"
              + " the findings log of --exp-root, or a performance_analysis.json); a floor applies"
              + " only to the load point it was measured at.")
  String noiseFloor;

  /** The labels, each parsed ({@code NAME=DIR}; a bad one is exit 2 naming it). */
  List<CandidateLabel> labels() {
    return labels.stream().map(CandidateLabel::parse).toList();
  }
}
