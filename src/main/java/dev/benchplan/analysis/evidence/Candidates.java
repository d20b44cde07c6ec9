package dev.benchplan.analysis.evidence;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which candidate each run measured ({@link Candidate}): run.json's record, else the {@code
 * --label} covering the run (the deepest folder wins), else "unknown", one per RUN argument. A
 * compare side names the candidate of its runs of unknown identity; a side never pools two
 * candidates.
 */
public final class Candidates {
  private Candidates() {}

  /** The runs found under one RUN argument, each with its candidate. */
  public static List<RunEvidence> assign(
      Path arg, List<RunEvidence> runs, List<CandidateLabel> labels) {
    List<RunEvidence> out = new ArrayList<>();
    for (RunEvidence r : runs) {
      CandidateLabel label =
          labels.stream()
              .filter(l -> l.covers(arg, r.source().dir()))
              .max(Comparator.comparingInt(l -> l.dir().getNameCount()))
              .orElse(null);
      Candidate recorded = r.candidate().known() ? r.candidate() : null;
      Candidate c;
      if (recorded != null) {
        c = label == null ? recorded : recorded.named(label.name(), label.dir());
      } else if (label != null) {
        c = Candidate.labelled(label.name(), label.dir());
      } else {
        c = Candidate.unknown(arg);
      }
      out.add(r.with(r.audit(), c));
    }
    return out;
  }

  /**
   * Every label names at least one run, and no label names runs of two recorded candidates: else
   * invalid input (exit 2).
   */
  public static void checkLabels(List<CandidateLabel> labels, List<RunEvidence> runs) {
    for (CandidateLabel l : labels) {
      Set<String> ids = new LinkedHashSet<>();
      boolean any = false;
      for (RunEvidence r : runs) {
        if (r.candidate().name().equals(l.name()) && r.candidate().source().contains("--label")) {
          any = true;
          ids.add(r.candidate().id());
        }
      }
      if (!any) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--label", l.dir()),
            "--label " + l.name() + "=" + l.dir() + ": no RUN given lies under " + l.dir());
      }
      if (ids.size() > 1) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--label", l.dir()),
            "--label "
                + l.name()
                + "="
                + l.dir()
                + ": names runs whose run.json record different candidates "
                + ids
                + ": runs of different candidates are never pooled");
      }
    }
  }

  /**
   * The runs of one compare side as one candidate: the one their run.json or {@code --label}
   * records, else the side's name. Two candidates on one side, or known and unknown runs mixed, are
   * invalid input: they would be pooled into one load point.
   */
  public static List<RunEvidence> side(String side, List<RunEvidence> runs) {
    Map<String, Candidate> known = new LinkedHashMap<>();
    List<String> unknown = new ArrayList<>();
    for (RunEvidence r : runs) {
      if (r.candidate().known()) {
        known.putIfAbsent(r.candidate().id(), r.candidate());
      } else {
        unknown.add(r.source().label());
      }
    }
    if (known.size() > 1) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--" + side),
          "compare: --"
              + side
              + " holds runs of "
              + known.size()
              + " candidates ("
              + String.join(", ", known.values().stream().map(Candidate::name).toList())
              + "): runs of different candidates are never pooled; give one candidate per side");
    }
    if (known.size() == 1 && !unknown.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--" + side),
          "compare: --"
              + side
              + " mixes runs of candidate "
              + known.values().iterator().next().name()
              + " with runs of unknown identity ("
              + String.join(", ", unknown)
              + "): name them with --label NAME=DIR or compare them on their own");
    }
    Candidate c = known.isEmpty() ? Candidate.side(side) : known.values().iterator().next();
    return runs.stream().map(r -> r.with(r.audit(), c)).toList();
  }
}
