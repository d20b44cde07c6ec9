package dev.benchplan.analysis.audit;

import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Cross-checks AIPerf's own aggregate files against the runs under them (audit check {@code
 * aiperf_aggregate}): {@code aggregate/profile_export_aiperf_aggregate.json} (a multi-run
 * confidence aggregate: per {@code <tag>_<stat>} the mean, min and max over the runs) and {@code
 * sweep_aggregate/profile_export_aiperf_sweep.json} (per sweep combination the same, in {@code
 * per_combination_metrics[]} or the older {@code per_value_metrics{}}), in every layout of the
 * AIPerf artifact table. benchplan recomputes each figure from the runs' own summaries; a figure
 * that differs by more than {@link #RELATIVE_TOLERANCE}, or a run count that differs, is a {@code
 * warn} finding on every run the aggregate covers (the per-run exports stay the evidence: the
 * aggregate is derived from them). An aggregate file that does not parse (named with its line and
 * column), is empty or has the wrong shape is a {@code warn} on the runs it would cover (for a
 * sweep file, every run under it), never skipped silently; the file is left as it is. A run no
 * aggregate covers gets {@code not_checked}.
 */
public final class AggregateCrossCheck {
  public static final String ID = "aiperf_aggregate";
  public static final String CONFIDENCE_FILE = "profile_export_aiperf_aggregate.json";
  public static final String SWEEP_FILE = "profile_export_aiperf_sweep.json";

  /**
   * Relative tolerance: AIPerf writes doubles; anything beyond float rounding is a disagreement.
   */
  public static final double RELATIVE_TOLERANCE = 1e-6;

  private static final Set<String> STATS =
      Set.of(
          "avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99");
  private static final int MAX_DEPTH = 4;

  /** What a confidence aggregate must hold, for findings. */
  static final String CONFIDENCE_EXPECTED =
      "AIPerf's multi-run aggregate (a JSON object with a metrics object)";

  /** What a sweep aggregate must hold, for findings. */
  static final String SWEEP_EXPECTED =
      "AIPerf's sweep aggregate (a JSON object with per_combination_metrics[] or"
          + " per_value_metrics{})";

  private AggregateCrossCheck() {}

  /**
   * One aggregate file and the runs it covers, grouped per combination; {@code unusable} says why a
   * file that does not parse or has the wrong shape cannot be compared (its runs get a finding).
   */
  private record Target(
      Path file,
      String what,
      JsonNode metrics,
      List<RunEvidence> runs,
      long declaredRuns,
      @Nullable String unusable) {}

  /**
   * The check of every run under {@code base} (a RUN argument, or its {@code aiperf/} tree): a
   * check per run, keyed by the run itself (identity: a run's record hash walks its whole evidence,
   * per-request columns included, on every look-up).
   */
  public static IdentityHashMap<RunEvidence, AuditCheck> check(Path base, List<RunEvidence> runs) {
    IdentityHashMap<RunEvidence, List<String>> findings = new IdentityHashMap<>();
    IdentityHashMap<RunEvidence, List<String>> agreed = new IdentityHashMap<>();
    IdentityHashMap<RunEvidence, List<String>> unusable = new IdentityHashMap<>();
    for (Target t : targets(base, runs)) {
      if (t.unusable() != null) {
        for (RunEvidence r : t.runs()) {
          unusable.computeIfAbsent(r, k -> new ArrayList<>()).add(t.what() + ": " + t.unusable());
        }
        continue;
      }
      List<String> problems = compare(t);
      for (RunEvidence r : t.runs()) {
        (problems.isEmpty() ? agreed : findings)
            .computeIfAbsent(r, k -> new ArrayList<>())
            .add(problems.isEmpty() ? t.what() : t.what() + ": " + String.join("; ", problems));
      }
    }
    IdentityHashMap<RunEvidence, AuditCheck> out = new IdentityHashMap<>();
    for (RunEvidence r : runs) {
      if (findings.containsKey(r) || unusable.containsKey(r)) {
        List<String> parts = new ArrayList<>();
        if (unusable.containsKey(r)) {
          parts.add(
              "AIPerf's aggregate file cannot be read: "
                  + String.join(" | ", unusable.get(r))
                  + " (left as it is)");
        }
        if (findings.containsKey(r)) {
          parts.add(
              "AIPerf's aggregate disagrees with the run summaries: "
                  + String.join(" | ", findings.get(r)));
        }
        out.put(
            r,
            AuditCheck.warn(
                ID, String.join("; ", parts) + " (the per-run exports stay the evidence)"));
      } else if (agreed.containsKey(r)) {
        out.put(
            r,
            AuditCheck.pass(
                ID,
                "AIPerf's aggregate agrees with the run summaries (relative tolerance "
                    + RELATIVE_TOLERANCE
                    + "): "
                    + String.join(" | ", agreed.get(r))));
      } else {
        out.put(
            r,
            AuditCheck.notChecked(
                ID, "no AIPerf aggregate file (aggregate/, sweep_aggregate/) covers this run"));
      }
    }
    return out;
  }

  private static List<Target> targets(Path base, List<RunEvidence> runs) {
    List<Target> out = new ArrayList<>();
    for (Path dir : aggregateDirs(base)) {
      JsonInput.Parsed conf = read(dir.resolve(CONFIDENCE_FILE));
      if (conf != null) {
        // <X>/aggregate covers <X>/profile_runs/*; <X>/aggregate/<p>_<v> covers
        // <X>/profile_runs/trial_*/<p>_<v>
        boolean perPoint = !dir.getFileName().toString().equals("aggregate");
        Path x = perPoint ? parent(parent(dir)) : parent(dir);
        Path trials = x.resolve("profile_runs");
        String point = perPoint ? dir.getFileName().toString() : null;
        List<RunEvidence> covered =
            runs.stream()
                .filter(
                    r ->
                        r.source().dir().startsWith(trials)
                            && (point == null
                                || r.source().dir().getFileName().toString().equals(point)))
                .toList();
        ObjectNode c = conf.tree();
        String unusable =
            c == null
                ? conf.explain(CONFIDENCE_EXPECTED)
                : c.path("metrics").isObject()
                    ? null
                    : "no metrics object; expected " + CONFIDENCE_EXPECTED;
        out.add(
            new Target(
                dir.resolve(CONFIDENCE_FILE),
                base.relativize(dir.resolve(CONFIDENCE_FILE)).toString(),
                c == null ? Json.JSON.missingNode() : c.path("metrics"),
                covered,
                c == null ? -1 : c.path("metadata").path("num_successful_runs").asLong(-1),
                unusable));
      }
      JsonInput.Parsed sweepFile = read(dir.resolve(SWEEP_FILE));
      if (sweepFile != null) {
        Path x = parent(dir);
        if (x.getFileName() != null && x.getFileName().toString().equals("aggregate")) {
          x = parent(x);
        }
        Path root = x;
        String shown = base.relativize(dir.resolve(SWEEP_FILE)).toString();
        ObjectNode sweep = sweepFile.tree();
        boolean shaped =
            sweep != null
                && (sweep.path("per_combination_metrics").isArray()
                    || sweep.path("per_value_metrics").isObject());
        if (sweep == null || !shaped) {
          // which combination a run is cannot be read from the file: every run under it is named
          out.add(
              new Target(
                  dir.resolve(SWEEP_FILE),
                  shown,
                  Json.JSON.missingNode(),
                  runs.stream().filter(r -> r.source().dir().startsWith(root)).toList(),
                  -1,
                  sweep == null
                      ? sweepFile.explain(SWEEP_EXPECTED)
                      : "neither per_combination_metrics[] nor per_value_metrics{}; expected "
                          + SWEEP_EXPECTED));
          continue;
        }
        for (Map.Entry<String, JsonNode> combo : combinations(sweep).entrySet()) {
          List<RunEvidence> covered =
              runs.stream()
                  .filter(
                      r ->
                          r.source().dir().startsWith(root)
                              && combo.getKey().equals(pointOf(root, r.source().dir())))
                  .toList();
          out.add(
              new Target(
                  dir.resolve(SWEEP_FILE),
                  shown + " " + combo.getKey(),
                  combo.getValue(),
                  covered,
                  -1,
                  null));
        }
      }
    }
    return out;
  }

  /** A found aggregate folder lies below the RUN argument: it has a parent. */
  private static Path parent(Path p) {
    Path parent = p.toAbsolutePath().getParent();
    return parent == null ? p : p.getParent() == null ? parent : p.getParent();
  }

  /** {@code param=value} of a sweep combination to its metrics block. */
  private static Map<String, JsonNode> combinations(JsonNode sweep) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (JsonNode c : sweep.path("per_combination_metrics")) {
      JsonNode params = c.path("parameters");
      if (params.size() == 1) {
        String name = params.propertyNames().iterator().next();
        out.put(name + "=" + number(params.get(name).asString()), c.path("metrics"));
      }
    }
    String param = sweep.path("metadata").path("parameter_name").asString(null);
    if (param != null) {
      for (String v : sweep.path("per_value_metrics").propertyNames()) {
        out.put(param + "=" + number(v), sweep.path("per_value_metrics").get(v));
      }
    }
    return out;
  }

  private static @Nullable String pointOf(Path root, Path dir) {
    String[] p = RunLocator.sweepPoint(root, dir);
    return p == null ? null : p[0] + "=" + number(p[1]);
  }

  private static String number(String v) {
    try {
      return new java.math.BigDecimal(v).stripTrailingZeros().toPlainString();
    } catch (NumberFormatException e) {
      return v;
    }
  }

  private static List<String> compare(Target t) {
    List<String> problems = new ArrayList<>();
    if (t.runs().isEmpty()) {
      return problems;
    }
    if (t.declaredRuns() >= 0 && t.declaredRuns() != t.runs().size()) {
      problems.add(
          "num_successful_runs " + t.declaredRuns() + ", " + t.runs().size() + " runs found");
    }
    int compared = 0;
    for (String key : t.metrics().propertyNames()) {
      int cut = key.lastIndexOf('_');
      if (cut <= 0 || !STATS.contains(key.substring(cut + 1))) {
        continue; // a key benchplan cannot map to a summary statistic is not compared
      }
      String tag = key.substring(0, cut);
      String stat = key.substring(cut + 1);
      double[] v =
          t.runs().stream()
              .map(r -> r.stat(tag, stat))
              .filter(java.util.Optional::isPresent)
              .mapToDouble(java.util.Optional::get)
              .toArray();
      if (v.length != t.runs().size()) {
        continue;
      }
      JsonNode m = t.metrics().get(key);
      double mean = 0;
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (double x : v) {
        mean += x / v.length;
        min = Math.min(min, x);
        max = Math.max(max, x);
      }
      compared++;
      differs(problems, key, "mean", m.path("mean"), mean);
      differs(problems, key, "min", m.path("min"), min);
      differs(problems, key, "max", m.path("max"), max);
    }
    if (compared == 0) {
      problems.add("no metric could be compared");
    }
    return problems;
  }

  private static void differs(
      List<String> problems, String key, String field, JsonNode reported, double mine) {
    if (!reported.isNumber()) {
      return;
    }
    double r = reported.asDouble();
    if (Math.abs(r - mine) > RELATIVE_TOLERANCE * Math.max(Math.abs(r), Math.abs(mine)) + 1e-12) {
      problems.add(
          String.format(Locale.ROOT, "%s %s %.6g, the runs give %.6g", key, field, r, mine));
    }
  }

  private static List<Path> aggregateDirs(Path base) {
    List<Path> out = new ArrayList<>();
    walk(base, 0, out);
    return out;
  }

  private static void walk(Path dir, int depth, List<Path> out) {
    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
    Path parent = dir.getParent();
    boolean inAggregate =
        parent != null
            && parent.getFileName() != null
            && parent.getFileName().toString().equals("aggregate");
    if (name.equals("aggregate") || name.equals("sweep_aggregate") || inAggregate) {
      if (Files.isRegularFile(dir.resolve(CONFIDENCE_FILE))
          || Files.isRegularFile(dir.resolve(SWEEP_FILE))) {
        out.add(dir);
      }
    }
    if (depth >= MAX_DEPTH) {
      return;
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path c : s.filter(Files::isDirectory).sorted().toList()) {
        walk(c, depth + 1, out);
      }
    } catch (IOException e) {
      // an unlistable folder holds no aggregate benchplan can read; the runs' own audit names read
      // errors
    }
  }

  /** The file parsed, or what is wrong with it; null when there is no such file. */
  private static JsonInput.@Nullable Parsed read(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return JsonInput.parse(Files.readAllBytes(file));
    } catch (IOException e) {
      return new JsonInput.Parsed(null, "cannot read: " + InputErrors.describe(e), null);
    }
  }
}
