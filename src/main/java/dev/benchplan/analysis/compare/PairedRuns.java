package dev.benchplan.analysis.compare;

import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.runrecord.RunRecordDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * AB/BA pairs as run.json records them ({@code /pair}: id, order, arm; written by {@code run} from
 * render's {@code --pair}): when any compared run carries a pair, every run must, the reference
 * side holds the A arms and the candidate side the B arms, and each pair id has exactly one run of
 * each arm at the same load point. The two sides are then aligned by pair id, so reference[i] and
 * candidate[i] are the two halves of one pair whatever order the runs were given in.
 */
public final class PairedRuns {
  private PairedRuns() {}

  /**
   * The two sides in pair order.
   *
   * @param reference the A arms, by pair id
   * @param candidate the B arms, in the same order
   */
  public record Aligned(List<RunEvidence> reference, List<RunEvidence> candidate) {}

  /** The pair a run's run.json records ({@code id}, {@code order}, {@code arm}), or null. */
  public static RunRecordDocument.@Nullable Pair pair(RunEvidence r) {
    RunRecordDocument rec = r.source().runRecord();
    return rec == null ? null : rec.pair();
  }

  /** True when any run on either side records a pair. */
  public static boolean labelled(List<RunEvidence> reference, List<RunEvidence> candidate) {
    return reference.stream().anyMatch(r -> pair(r) != null)
        || candidate.stream().anyMatch(r -> pair(r) != null);
  }

  /**
   * Aligns the sides by pair id; anything that does not form whole pairs is invalid input (exit 2).
   */
  public static Aligned align(List<RunEvidence> reference, List<RunEvidence> candidate) {
    List<String> problems = new ArrayList<>();
    Map<String, RunEvidence> a = arms(reference, "reference", "A", problems);
    Map<String, RunEvidence> b = arms(candidate, "candidate", "B", problems);
    for (String id : a.keySet()) {
      if (!b.containsKey(id)) {
        problems.add("pair " + id + " has no candidate run (arm B)");
      }
    }
    for (String id : b.keySet()) {
      if (!a.containsKey(id)) {
        problems.add("pair " + id + " has no reference run (arm A)");
      }
    }
    List<RunEvidence> ref = new ArrayList<>();
    List<RunEvidence> cand = new ArrayList<>();
    for (Map.Entry<String, RunEvidence> e : a.entrySet()) {
      RunEvidence other = b.get(e.getKey());
      if (other == null) {
        continue;
      }
      if (!e.getValue().loadPoint().equals(other.loadPoint())) {
        problems.add(
            "pair "
                + e.getKey()
                + ": reference at "
                + e.getValue().loadPoint()
                + ", candidate at "
                + other.loadPoint());
      }
      String order = Objects.requireNonNull(pair(e.getValue())).order();
      if (!order.equals(Objects.requireNonNull(pair(other)).order())) {
        problems.add(
            "pair "
                + e.getKey()
                + ": the two runs record different orders ("
                + order
                + ", "
                + Objects.requireNonNull(pair(other)).order()
                + ")");
      }
      ref.add(e.getValue());
      cand.add(other);
    }
    if (!problems.isEmpty()) {
      throw BenchplanException.invalid(
          "compare: the AB/BA pairs recorded in run.json (/pair) do not form whole"
              + " pairs: "
              + String.join("; ", problems));
    }
    return new Aligned(ref, cand);
  }

  private static Map<String, RunEvidence> arms(
      List<RunEvidence> runs, String side, String arm, List<String> problems) {
    Map<String, RunEvidence> out = new TreeMap<>();
    for (RunEvidence r : runs) {
      RunRecordDocument.Pair p = pair(r);
      if (p == null) {
        problems.add(
            side
                + " run "
                + r.source().label()
                + " records no pair in run.json (/pair): either every"
                + " compared run is half of an AB/BA pair or none is");
        continue;
      }
      String id = p.id();
      if (!p.arm().equals(arm)) {
        problems.add(
            side
                + " run "
                + r.source().label()
                + " is arm "
                + p.arm()
                + " of pair "
                + id
                + "; the "
                + side
                + " side holds arm "
                + arm);
      } else if (out.putIfAbsent(id, r) != null) {
        problems.add(
            "pair "
                + id
                + " has more than one "
                + side
                + " run ("
                + out.get(id).source().label()
                + ", "
                + r.source().label()
                + ")");
      }
    }
    return out;
  }
}
