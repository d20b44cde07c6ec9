package dev.benchplan.verify;

import dev.benchplan.analysis.AnalyzeService;
import dev.benchplan.analysis.CompareService;
import dev.benchplan.analysis.compare.Slo;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.evidence.RunLoader;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.analysis.report.AnalysisMarkdown;
import dev.benchplan.analysis.report.RunDocuments;
import dev.benchplan.analysis.series.FindingLine;
import dev.benchplan.analysis.series.FindingsLog;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Verifies what {@code analyze} and {@code compare} wrote: every document matches its schema, every
 * input file they list (summary, records, run.json, plan) still hashes to the recorded SHA-256, and
 * the documents recomputed from those inputs equal the stored ones — for an analysis the per-run
 * audit and summary, performance_analysis.json (with the series history the findings log held
 * before it), its markdown and repeat_decision.json; for a comparison comparison.json, summary.md
 * and repeat_decision.json (with the findings log under the recorded experiment root when it used a
 * series noise floor: {@link NoiseFloorRoot}). report.html and plots/ are drawings of these
 * documents and are not re-drawn. Recorded relative paths are resolved against the current
 * directory, as {@code analyze} and {@code compare} were given them.
 */
final class AnalysisVerifier {
  private static final Pattern MDE = Pattern.compile("--mde ([0-9.eE+-]+)%");

  private AnalysisVerifier() {}

  static boolean isAnalysis(Path dir) {
    return Files.isRegularFile(dir.resolve(AnalyzeService.ANALYSIS));
  }

  static boolean isComparison(Path dir) {
    return Files.isRegularFile(dir.resolve(CompareService.COMPARISON));
  }

  static VerifyReport analysis(Path dir) {
    String label = dir.toString();
    List<String> checks = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Path file = dir.resolve(AnalyzeService.ANALYSIS);
    byte[] bytes = read(file);
    JsonNode stored = parse(file, bytes);
    String name = label + "/" + AnalyzeService.ANALYSIS;
    checks.add("schemas");
    if (!schema(name, stored, "performance-analysis.schema.json", findings)) {
      return new VerifyReport("analysis", label, null, checks, findings, notes);
    }
    checks.add("inputs re-hashed");
    List<JsonNode> runBlocks = new ArrayList<>();
    for (int i = 0; i < stored.path("inputs").size(); i++) {
      JsonNode in = stored.path("inputs").get(i);
      runBlocks.add(in.path("run"));
      rehash(name, "/inputs/" + i + "/files", in.path("files"), findings);
    }
    if (!findings.isEmpty()) {
      notes.add("not recomputed: an input is missing or changed (listed above)");
      return new VerifyReport("analysis", label, null, checks, findings, notes);
    }
    checks.add("recomputed from the inputs");
    Integer gpus = null;
    List<Slo> slos = new ArrayList<>();
    for (JsonNode s : stored.path("series")) {
      for (JsonNode d : s.path("slos")) {
        if ("--slo".equals(d.path("source").asString())) {
          Slo slo =
              new Slo(
                  d.path("metric").asString(),
                  d.path("stat").asString(),
                  d.path("operator").asString(),
                  d.path("threshold").asDouble(),
                  "--slo");
          if (!slos.contains(slo)) {
            slos.add(slo);
          }
        }
      }
    }
    List<RunEvidence> runs;
    try {
      gpus = gpusFlag(dir);
      runs = relocate(runBlocks, gpus);
    } catch (BenchplanException e) {
      findings.add(
          new Finding(name, "/inputs", "the recorded runs no longer load: " + e.getMessage()));
      return new VerifyReport("analysis", label, null, checks, findings, notes);
    }
    Path expRoot = Path.of(stored.path("exp_root").asString());
    String sha = Sha256.hex(bytes);
    List<FindingLine> log = FindingsLog.read(expRoot);
    List<FindingLine> history = new ArrayList<>();
    boolean logged = false;
    for (FindingLine line : log) {
      if (sha.equals(line.analysisSha256())) {
        logged = true;
        break;
      }
      history.add(line);
    }
    if (!logged) {
      findings.add(
          new Finding(
              FindingsLog.path(expRoot).toString(),
              "",
              "no line records this"
                  + " analysis (analysis_sha256 "
                  + sha
                  + "): analyze appends one, and earlier lines are"
                  + " never rewritten"));
      // the history is what preceded the line analyze wrote for this file (it names the file)
      history = new ArrayList<>();
      Path self = file.toAbsolutePath().normalize();
      int last = -1;
      for (int i = 0; i < log.size(); i++) {
        String p = log.get(i).analysisPath();
        if (p != null && !p.isEmpty() && Path.of(p).toAbsolutePath().normalize().equals(self)) {
          last = i;
        }
      }
      history.addAll(log.subList(0, last < 0 ? log.size() : last));
    }
    // a floor the analysis was given by --noise-floor ID|FILE is named again, from the same log
    String namedFloor = null;
    for (JsonNode series : stored.path("series")) {
      for (JsonNode point : series.at("/noise_floor/load_points")) {
        String arg =
            dev.benchplan.analysis.series.NoiseFloors.argumentOf(
                point.path("source").asString(null));
        namedFloor = arg != null ? arg : namedFloor;
      }
    }
    AnalyzeService.Computed again;
    try {
      again =
          AnalyzeService.compute(
              runs,
              slos,
              history,
              expRoot,
              namedFloor == null
                  ? null
                  : dev.benchplan.analysis.series.NoiseFloors.explicit(
                      namedFloor, history, FindingsLog.path(expRoot)));
    } catch (BenchplanException e) {
      findings.add(
          new Finding(name, "/series", "the named noise floor no longer loads: " + e.getMessage()));
      return new VerifyReport("analysis", label, null, checks, findings, notes);
    }
    diff(name, stored, again.analysis(), findings);
    same(
        label + "/" + AnalyzeService.ANALYSIS_MD,
        dir.resolve(AnalyzeService.ANALYSIS_MD),
        AnalysisMarkdown.render(again.analysis()),
        findings);
    same(
        label + "/summary.md",
        dir.resolve("summary.md"),
        AnalysisMarkdown.prSummary(again.analysis()),
        findings);
    Set<String> names = new HashSet<>();
    for (RunEvidence r : runs) {
      String dirName = AnalyzeService.safe(r.source().label());
      while (!names.add(dirName)) {
        dirName = dirName + "_";
      }
      Path d = dir.resolve("runs").resolve(dirName);
      document(
          label + "/runs/" + dirName + "/" + AnalyzeService.AUDIT,
          d.resolve(AnalyzeService.AUDIT),
          RunDocuments.audit(r),
          "benchmark-audit.schema.json",
          findings);
      document(
          label + "/runs/" + dirName + "/" + AnalyzeService.SUMMARY,
          d.resolve(AnalyzeService.SUMMARY),
          RunDocuments.summary(r),
          "benchmark-summary.schema.json",
          findings);
    }
    List<dev.benchplan.analysis.series.SeriesAnalysis.Result> results = again.results();
    for (dev.benchplan.analysis.series.SeriesAnalysis.Result r : results) {
      String rdName = AnalyzeService.repeatDecisionName(results, r);
      document(
          label + "/" + rdName,
          dir.resolve(rdName),
          AnalyzeService.repeatDecision(r, again.analysisId(), sha, again.planned()),
          "repeat-decision.schema.json",
          findings);
    }
    notes.add("report.html and plots/ draw these documents and were not re-drawn");
    return new VerifyReport("analysis", label, null, checks, findings, notes);
  }

  static VerifyReport comparison(Path dir) {
    String label = dir.toString();
    List<String> checks = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Path file = dir.resolve(CompareService.COMPARISON);
    byte[] bytes = read(file);
    JsonNode stored = parse(file, bytes);
    String name = label + "/" + CompareService.COMPARISON;
    checks.add("schemas");
    if (!schema(name, stored, "comparison.schema.json", findings)) {
      return new VerifyReport("comparison", label, null, checks, findings, notes);
    }
    checks.add("inputs re-hashed");
    List<List<Path>> sides = new ArrayList<>();
    for (String side : List.of("reference", "candidate")) {
      List<JsonNode> blocks = new ArrayList<>();
      for (int i = 0; i < stored.path(side).size(); i++) {
        JsonNode in = stored.path(side).get(i);
        blocks.add(in.path("run"));
        rehash(name, "/" + side + "/" + i + "/files", in.path("files"), findings);
      }
      sides.add(bases(blocks));
    }
    if (!findings.isEmpty()) {
      notes.add("not recomputed: an input is missing or changed (listed above)");
      return new VerifyReport("comparison", label, null, checks, findings, notes);
    }
    boolean usedFloor = !stored.path("noise_floor").isNull();
    if (usedFloor && !stored.path("noise_floor_source").isObject()) {
      notes.add(
          "not recomputed: a side had one run and the comparison used the series noise floor"
              + " from a findings log whose experiment root it does not record");
      return new VerifyReport("comparison", label, null, checks, findings, notes);
    }
    try (NoiseFloorRoot floorRoot =
        usedFloor ? NoiseFloorRoot.locate(name, stored) : new NoiseFloorRoot(null, false, null)) {
      if (floorRoot.problem() != null) {
        findings.add(floorRoot.problem());
        return new VerifyReport("comparison", label, null, checks, findings, notes);
      }
      return recompute(dir, bytes, stored, sides, floorRoot, checks, findings, notes);
    }
  }

  /**
   * The comparison recomputed from its inputs (and, when it used a series noise floor, the findings
   * log it was found in), compared with what compare wrote.
   */
  private static VerifyReport recompute(
      Path dir,
      byte[] bytes,
      JsonNode stored,
      List<List<Path>> sides,
      NoiseFloorRoot floorRoot,
      List<String> checks,
      List<Finding> findings,
      List<String> notes) {
    String label = dir.toString();
    String name = label + "/" + CompareService.COMPARISON;
    checks.add("recomputed from the inputs");
    Double mde = null;
    Matcher m = MDE.matcher(stored.at("/method/mde").asString(""));
    if (m.matches()) {
      mde = Double.valueOf(m.group(1));
    }
    CompareService.Outcome again;
    try {
      again =
          CompareService.compare(
              new CompareService.Request(
                  sides.get(0),
                  sides.get(1),
                  mde,
                  stored.path("paired").asBoolean(),
                  floorRoot.root(),
                  null,
                  null,
                  stored.path("fail_on").asString("regressed").equals("inconclusive"),
                  labels(stored),
                  dev.benchplan.analysis.series.NoiseFloors.argumentOf(
                      stored.at("/noise_floor_source/description").asString(null))));
    } catch (BenchplanException e) {
      findings.add(
          new Finding(
              name,
              "/eligibility",
              "recomputed from the inputs, the runs no" + " longer compare: " + e.getMessage()));
      return new VerifyReport("comparison", label, null, checks, findings, notes);
    }
    Object recomputed = again.comparison();
    if (floorRoot.temporary()
        && Json.JSON.readTree(CanonicalJson.bytes(recomputed)) instanceof ObjectNode tree
        && tree.get("noise_floor_source") instanceof ObjectNode src) {
      // the log was read from a copy of its earlier lines: the root is the recorded one
      src.put("exp_root", stored.at("/noise_floor_source/exp_root").asString());
      recomputed = tree;
    }
    diff(name, stored, recomputed, findings);
    same(
        label + "/summary.md",
        dir.resolve("summary.md"),
        CompareService.summaryMd(again.comparison()),
        findings);
    Path rd = dir.resolve(AnalyzeService.REPEAT_DECISION);
    if (Files.isRegularFile(rd)) {
      JsonNode decision = parse(rd, read(rd));
      String rdName = label + "/" + AnalyzeService.REPEAT_DECISION;
      if (schema(rdName, decision, "repeat-decision.schema.json", findings)) {
        if (!decision.at("/source/analysis_sha256").asString().equals(Sha256.hex(bytes))) {
          findings.add(
              new Finding(
                  rdName,
                  "/source/analysis_sha256",
                  "records "
                      + decision.at("/source/analysis_sha256").asString()
                      + ", but comparison.json hashes"
                      + " to "
                      + Sha256.hex(bytes)));
        }
        if (!decision
            .path("decision")
            .asString()
            .equals(again.comparison().repeatDecision().decision())) {
          findings.add(
              new Finding(
                  rdName,
                  "/decision",
                  "records "
                      + decision.path("decision").asString()
                      + ", recomputed "
                      + again.comparison().repeatDecision().decision()));
        }
      }
    }
    notes.add("report.html and plots/ draw these documents and were not re-drawn");
    return new VerifyReport("comparison", label, null, checks, findings, notes);
  }

  /** Re-hashes the {@code files} array of one run (path + SHA-256 each). */
  /**
   * An input's path as analyze read it: from the current directory, except a plan named as run.json
   * names it, relative to DEPLOY_ROOT (the run directory's {@code ../../..}).
   */
  private static Path inputPath(String recorded, String role, JsonNode files) {
    Path path = Path.of(recorded);
    if (!role.equals("plan") || path.isAbsolute() || Files.isRegularFile(path)) {
      return path;
    }
    for (JsonNode g : files) {
      if (g.path("role").asString("").equals("run_json")) {
        Path deployRoot = Path.of(g.path("path").asString("")).toAbsolutePath().normalize();
        for (int up = 0; up < 4 && deployRoot != null; up++) {
          deployRoot = deployRoot.getParent(); // run.json, <run-id>, runs, benchmark
        }
        if (deployRoot != null) {
          Path resolved = deployRoot.resolve(path).normalize();
          return Files.isRegularFile(resolved) ? resolved : path;
        }
      }
    }
    return path;
  }

  private static void rehash(String name, String pointer, JsonNode files, List<Finding> findings) {
    for (int j = 0; j < files.size(); j++) {
      JsonNode f = files.get(j);
      String p = f.path("path").asString("");
      Path path = inputPath(p, f.path("role").asString(""), files);
      if (!Files.isRegularFile(path)) {
        findings.add(
            new Finding(
                name,
                pointer + "/" + j + "/path",
                "the "
                    + f.path("role").asString("input")
                    + " "
                    + p
                    + " is missing (looked for "
                    + path.toAbsolutePath()
                    + ")"));
      } else if (!Sha256.ofFile(path).equals(f.path("sha256").asString())) {
        findings.add(
            new Finding(
                name,
                pointer + "/" + j + "/sha256",
                "the "
                    + f.path("role").asString("input")
                    + " "
                    + p
                    + " changed: recorded "
                    + f.path("sha256").asString()
                    + ", now "
                    + Sha256.ofFile(path)));
      }
    }
  }

  /**
   * The RUN arguments the runs were found under: a run's label is the argument's folder name
   * followed by the run's path below it, so the argument is the run directory less those parts.
   */
  private static final java.util.regex.Pattern LABEL =
      java.util.regex.Pattern.compile("--label ([A-Za-z0-9][A-Za-z0-9._+-]*)=(.+)$");

  /** The {@code --label NAME=DIR} options a comparison was given, from its runs' candidates. */
  private static List<dev.benchplan.analysis.evidence.CandidateLabel> labels(JsonNode stored) {
    Set<dev.benchplan.analysis.evidence.CandidateLabel> out = new LinkedHashSet<>();
    for (String side : List.of("reference", "candidate")) {
      for (JsonNode in : stored.path(side)) {
        Matcher m = LABEL.matcher(in.at("/run/candidate/source").asString(""));
        if (m.find()) {
          out.add(
              new dev.benchplan.analysis.evidence.CandidateLabel(m.group(1), Path.of(m.group(2))));
        }
      }
    }
    return List.copyOf(out);
  }

  private static List<Path> bases(List<JsonNode> runBlocks) {
    Set<Path> out = new LinkedHashSet<>();
    for (JsonNode run : runBlocks) {
      Path dir = Path.of(run.path("dir").asString());
      int below = run.path("label").asString().split("/").length - 1;
      Path base = dir;
      for (int i = 0; i < below && base.getParent() != null; i++) {
        base = base.getParent();
      }
      out.add(base);
    }
    return List.copyOf(out);
  }

  /** The runs again, found the way analyze found them, in the recorded order. */
  private static List<RunEvidence> relocate(List<JsonNode> runBlocks, @Nullable Integer gpus) {
    List<RunSource> found = new ArrayList<>();
    for (Path base : bases(runBlocks)) {
      found.addAll(RunLocator.locate(base));
    }
    List<RunEvidence> out = new ArrayList<>();
    for (JsonNode run : runBlocks) {
      Path dir = Path.of(run.path("dir").asString()).toAbsolutePath().normalize();
      RunSource s =
          found.stream()
              .filter(
                  f ->
                      f.dir().toAbsolutePath().normalize().equals(dir)
                          && f.label().equals(run.path("label").asString()))
              .findFirst()
              .orElseThrow(
                  () ->
                      BenchplanException.invalid(
                          run.path("dir").asString()
                              + ": no run with label "
                              + run.path("label").asString()
                              + " is there now"));
      RunEvidence loaded = RunLoader.load(s, gpus);
      // the candidate analyze assigned (run.json, --label or the RUN argument), as it recorded it
      out.add(
          run.path("candidate").isObject()
              ? loaded.with(
                  loaded.audit(),
                  dev.benchplan.json.Json.JSON.treeToValue(
                      run.path("candidate"), dev.benchplan.analysis.evidence.Candidate.class))
              : loaded);
    }
    // the aiperf_aggregate check spans the runs under one RUN argument, as analyze ran it
    for (Path base : bases(runBlocks)) {
      Path b = base.toAbsolutePath().normalize();
      List<RunEvidence> under =
          out.stream()
              .filter(r -> r.source().dir().toAbsolutePath().normalize().startsWith(b))
              .toList();
      List<RunEvidence> checked = AnalyzeService.crossCheckAggregates(base, under);
      for (int i = 0; i < under.size(); i++) {
        out.set(out.indexOf(under.get(i)), checked.get(i));
      }
    }
    // then the provenance check over all of them, as analyze ran it
    out = new ArrayList<>(AnalyzeService.withProvenance(out));
    return out;
  }

  /** {@code --gpus}, when analyze was given it (the per-run summaries say so). */
  private static @Nullable Integer gpusFlag(Path dir) {
    Path runs = dir.resolve("runs");
    if (!Files.isDirectory(runs)) {
      return null;
    }
    try (var s = Files.list(runs)) {
      for (Path d : s.sorted().toList()) {
        Path summary = d.resolve(AnalyzeService.SUMMARY);
        if (Files.isRegularFile(summary)) {
          JsonNode g = Json.JSON.readTree(Files.readAllBytes(summary)).path("gpu_count");
          if ("--gpus".equals(g.path("source").asString()) && g.path("value").isIntegralNumber()) {
            return g.path("value").asInt();
          }
        }
      }
    } catch (IOException | JacksonException e) {
      return null; // the per-run documents are compared below, and a broken one is named there
    }
    return null;
  }

  private static void document(
      String name, Path file, Object expected, String schema, List<Finding> findings) {
    if (!Files.isRegularFile(file)) {
      findings.add(new Finding(name, "", "missing: recomputed from the inputs, it exists"));
      return;
    }
    byte[] bytes;
    JsonNode stored;
    try {
      bytes = Files.readAllBytes(file);
      stored = Json.JSON.readTree(bytes);
    } catch (IOException | JacksonException e) {
      findings.add(new Finding(name, "", "not readable JSON: " + e.getMessage()));
      return;
    }
    if (!schema(name, stored, schema, findings)) {
      return;
    }
    if (!Arrays.equals(bytes, CanonicalJson.bytes(expected))) {
      int before = findings.size();
      diff(name, stored, expected, findings);
      if (findings.size() == before) {
        findings.add(
            new Finding(
                name,
                "",
                "the same content in other bytes (not the canonical" + " form analyze writes)"));
      }
    }
  }

  private static void same(String name, Path file, String expected, List<Finding> findings) {
    try {
      if (!Files.isRegularFile(file)) {
        findings.add(new Finding(name, "", "missing: recomputed from the inputs, it exists"));
      } else if (!Files.readString(file, StandardCharsets.UTF_8).equals(expected)) {
        findings.add(new Finding(name, "", "recomputed from the inputs, the text differs"));
      }
    } catch (IOException e) {
      findings.add(new Finding(name, "", "cannot read: " + e.getMessage()));
    }
  }

  private static void diff(String name, JsonNode stored, Object again, List<Finding> findings) {
    // numbers compared as written: the recomputed tree goes through the same canonical bytes
    List<JsonDiff.Difference> diffs =
        JsonDiff.of(stored, Json.JSON.readTree(CanonicalJson.bytes(again)));
    for (JsonDiff.Difference d :
        diffs.subList(0, Math.min(diffs.size(), PlanVerifier.MAX_DIFFERENCES))) {
      findings.add(
          new Finding(
              name,
              d.pointer(),
              "recomputed from the inputs: recorded " + d.before() + ", recomputed " + d.after()));
    }
    if (diffs.size() > PlanVerifier.MAX_DIFFERENCES) {
      findings.add(
          new Finding(
              name,
              "",
              (diffs.size() - PlanVerifier.MAX_DIFFERENCES)
                  + " more differing pointer(s) not listed"));
    }
  }

  private static boolean schema(String name, JsonNode doc, String schema, List<Finding> findings) {
    List<SchemaValidator.Problem> problems = SchemaValidator.bundled(schema).validate(doc);
    for (SchemaValidator.Problem p : problems) {
      findings.add(new Finding(name, p.pointer(), "does not match " + schema + ": " + p.message()));
    }
    return problems.isEmpty();
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": cannot read: " + e.getMessage(), e);
    }
  }

  private static JsonNode parse(Path file, byte[] bytes) {
    try {
      JsonNode n = Json.JSON.readTree(bytes);
      if (n == null || !n.isObject()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, ""), file + ": /: expected a JSON object");
      }
      return n;
    } catch (JacksonException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": not valid JSON: expected the document analyze or" + " compare wrote",
          e);
    }
  }
}
