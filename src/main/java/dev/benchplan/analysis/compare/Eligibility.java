package dev.benchplan.analysis.compare;

import dev.benchplan.analysis.evidence.RunEvidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * May these runs be compared? The valid runs (invalid ones are excluded and listed by compare, not
 * refused) share the series, workload (trace SHA-256 or synthetic shape), AIPerf version, endpoint
 * type, streaming, model and tokenizer; both sides were run at the same load points, and each side
 * has a valid run at every one. Anything else is a list of problems naming every differing field.
 */
public final class Eligibility {
  private Eligibility() {}

  /**
   * The result.
   *
   * @param fields the shared identity (field to value), when eligible
   * @param problems every problem, empty when eligible
   * @param warnings what does not stop the comparison but is not a match either (a field neither
   *     side recorded)
   */
  public record Result(Map<String, String> fields, List<String> problems, List<String> warnings) {
    public boolean eligible() {
      return problems.isEmpty();
    }
  }

  /** Checks both sides. */
  public static Result check(List<RunEvidence> reference, List<RunEvidence> candidate) {
    List<String> problems = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    List<RunEvidence> refValid = reference.stream().filter(RunEvidence::valid).toList();
    List<RunEvidence> candValid = candidate.stream().filter(RunEvidence::valid).toList();
    Map<String, String> shared = new LinkedHashMap<>();
    List<RunEvidence> all = new ArrayList<>(refValid);
    all.addAll(candValid);
    if (!all.isEmpty()) {
      List<String> keys = new ArrayList<>(all.get(0).identity().keySet());
      keys.add("series_id");
      for (String key : keys) {
        Set<String> refValues = values(refValid, key);
        Set<String> candValues = values(candValid, key);
        Set<String> allValues = new LinkedHashSet<>(refValues);
        allValues.addAll(candValues);
        if (allValues.size() == 1
            && key.equals("aiperf_version")
            && allValues.contains(dev.benchplan.analysis.evidence.RunLoader.NOT_RECORDED)) {
          // the instrument's version unknown on both sides is not the same version
          shared.put(key, "unknown");
          warnings.add(
              "aiperf_version unknown: neither side's runs record it (a warning, not a match: the"
                  + " sides may have run different AIPerf versions)");
        } else if (allValues.size() == 1) {
          shared.put(key, allValues.iterator().next());
        } else if (!refValues.isEmpty() && !candValues.isEmpty()) {
          problems.add(
              key
                  + " differs: reference "
                  + String.join(" | ", refValues)
                  + ", candidate "
                  + String.join(" | ", candValues));
        }
      }
    }
    Set<String> refPoints = new TreeSet<>(LoadPointOrder.NUMERIC);
    reference.forEach(r -> refPoints.add(r.loadPoint()));
    Set<String> candPoints = new TreeSet<>(LoadPointOrder.NUMERIC);
    candidate.forEach(r -> candPoints.add(r.loadPoint()));
    if (!refPoints.equals(candPoints)) {
      problems.add("load_point differs: reference " + refPoints + ", candidate " + candPoints);
    } else {
      shared.put("load_points", String.join(", ", refPoints));
      for (String lp : refPoints) {
        noValidRun(problems, "reference", lp, reference);
        noValidRun(problems, "candidate", lp, candidate);
      }
    }
    return new Result(shared, problems, List.copyOf(warnings));
  }

  /** A side with no valid run at a load point cannot be compared there. */
  private static void noValidRun(
      List<String> problems, String side, String loadPoint, List<RunEvidence> runs) {
    List<RunEvidence> at = runs.stream().filter(r -> r.loadPoint().equals(loadPoint)).toList();
    if (at.stream().noneMatch(RunEvidence::valid)) {
      List<String> why = new ArrayList<>();
      for (RunEvidence r : at) {
        invalid(why, side, r);
      }
      problems.add(
          "no valid " + side + " run at " + loadPoint + " (" + String.join("; ", why) + ")");
    }
  }

  private static void invalid(List<String> problems, String side, RunEvidence r) {
    if (!r.valid()) {
      problems.add(
          side
              + " run "
              + r.source().label()
              + " is invalid under the audit: "
              + String.join("; ", r.audit().blockers()));
    }
  }

  private static Set<String> values(List<RunEvidence> runs, String key) {
    Set<String> v = new LinkedHashSet<>();
    for (RunEvidence r : runs) {
      v.add(key.equals("series_id") ? r.seriesId() : r.identity().get(key));
    }
    return v;
  }
}
