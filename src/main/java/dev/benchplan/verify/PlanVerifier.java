package dev.benchplan.verify;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import dev.benchplan.plan.PlanJson;
import dev.benchplan.plan.PlanOrigin;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.rules.RuleFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Verifies one plan file: SHA-256, canonical form, schema, file name and place, plan_id recipe,
 * every recorded input re-hashed, every cited rule present, and the plan re-derived offline from
 * its recorded invocation, clock and AIPerf resolution, byte for byte.
 */
final class PlanVerifier {
  /** How many differing pointers of a re-derivation are listed (the count is always given). */
  static final int MAX_DIFFERENCES = 40;

  private final PlanReplay replay;

  PlanVerifier(PlanReplay replay) {
    this.replay = replay;
  }

  /** The inputs a plan names: (pointer of the path, pointer of the SHA-256, what it is). */
  record Input(String pathPointer, String shaPointer, String what) {}

  static final List<Input> INPUTS =
      List.of(
          new Input("/user_workload/path", "/user_workload/sha256", "user workload"),
          new Input("/deployment/ledger_path", "/deployment/ledger_sha256", "deployment ledger"),
          new Input("/deployment/dgd_path", "/deployment/dgd_sha256", "applied DGD"),
          new Input(
              "/deployment/smoke_test/path", "/deployment/smoke_test/sha256", "smoke artifact"),
          new Input("/workload/trace/path", "/workload/trace/sha256", "trace"));

  private static final Input TRACE = INPUTS.get(4);

  /**
   * @throws BenchplanException (exit 2) when the file is missing, unreadable, not JSON or not a
   *     JSON object, or the given SHA-256 is malformed
   */
  VerifyReport verify(Path file, String expectedSha) {
    if (expectedSha != null && !Sha256.isSha256(expectedSha)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--sha256"),
          "--sha256 '" + expectedSha + "': expected 64 hexadecimal characters");
    }
    Path path = file.toAbsolutePath().normalize();
    String name = file.toString();
    byte[] bytes = read(path);
    JsonNode tree = parse(path, bytes);
    String sha = Sha256.hex(bytes);
    List<String> checks = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();

    checks.add("sha256");
    if (expectedSha != null && !sha.equals(expectedSha.toLowerCase(Locale.ROOT))) {
      findings.add(
          new Finding(
              name,
              "",
              "SHA-256 is "
                  + sha
                  + ", expected "
                  + expectedSha
                  + " (--sha256): the plan was edited or another file was named"));
    } else if (expectedSha == null) {
      notes.add(
          "no --sha256 given: the file's SHA-256 "
              + sha
              + " was not compared with a"
              + " recorded one");
    }
    checks.add("schema");
    List<SchemaValidator.Problem> problems =
        SchemaValidator.bundled(PlanFile.SCHEMA).validate(tree);
    for (SchemaValidator.Problem p : problems) {
      findings.add(
          new Finding(name, p.pointer(), "does not match " + PlanFile.SCHEMA + ": " + p.message()));
    }
    if (!problems.isEmpty()) {
      notes.add("the plan does not match its schema: no further check was made");
      return new VerifyReport("plan", name, sha, checks, findings, notes);
    }
    checks.add("canonical form");
    if (!Arrays.equals(bytes, CanonicalJson.bytes(tree))) {
      findings.add(
          new Finding(
              name,
              "",
              "not in the canonical form benchplan writes (sorted"
                  + " keys, 2-space indent, final newline): the file was reformatted or edited"));
    }
    checks.add("plan_id");
    checkPlanId(name, (ObjectNode) tree, findings);
    String seriesId = tree.path("series_id").asString();
    checks.add("file name and place");
    if (!path.getFileName().toString().equals(seriesId + ".json")) {
      findings.add(
          new Finding(
              name,
              "/series_id",
              "the file is named "
                  + path.getFileName()
                  + ", expected "
                  + seriesId
                  + ".json (a plan is stored under its series ID)"));
    }
    Path expRoot = PlanPaths.expRootOf(path);
    if (expRoot == null) {
      findings.add(
          new Finding(
              name,
              "/provenance/anchors/exp_root",
              "the plan does not lie in"
                  + " <EXP_ROOT>/inputs/benchmark-plans/, so its relative paths have no anchor"));
      return new VerifyReport("plan", name, sha, checks, findings, notes);
    }
    checks.add("inputs re-hashed");
    // a re-derivation scans (and hashes) the trace anyway: it is not read twice
    boolean rederivable = rederivable(tree);
    boolean inputsHold = checkInputs(name, tree, expRoot, rederivable, findings);
    checks.add("cited rules exist");
    checkRules(name, tree, expRoot, findings, notes);
    checks.add("re-derived offline");
    if (!inputsHold) {
      notes.add("not re-derived: an input is missing or changed (listed above)");
    } else {
      rederive(name, bytes, tree, expRoot, findings, notes);
    }
    return new VerifyReport("plan", name, sha, checks, findings, notes);
  }

  private static byte[] read(Path path) {
    if (!Files.isRegularFile(path)) {
      throw BenchplanException.invalid(
          ErrorLocation.file(path),
          path
              + ": no such file: expected a plan file written by"
              + " `benchplan plan`, or a run directory");
    }
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(path), path + ": cannot read: " + e.getMessage(), e);
    }
  }

  private static JsonNode parse(Path path, byte[] bytes) {
    return PlanJson.parseObject(bytes).orThrow(null, path, PlanJson.EXPECTED);
  }

  /**
   * plan_id = series_id + "." + the first 12 hex digits of SHA-256(canonical plan with plan_id
   * "pending").
   */
  static String planId(ObjectNode plan) {
    ObjectNode copy = plan.deepCopy();
    copy.put("plan_id", "pending");
    return copy.path("series_id").asString()
        + "."
        + Sha256.hex(CanonicalJson.bytes(copy)).substring(0, 12);
  }

  private static void checkPlanId(String name, ObjectNode tree, List<Finding> findings) {
    String recorded = tree.path("plan_id").asString();
    String derived = planId(tree);
    if (!recorded.equals(derived)) {
      findings.add(
          new Finding(
              name,
              "/plan_id",
              "recorded "
                  + recorded
                  + ", but the content"
                  + " gives "
                  + derived
                  + ": the plan was edited after it was written"));
    }
  }

  private static boolean rederivable(JsonNode tree) {
    return tree.at("/provenance/invocation").isObject()
        && "operator_pin".equals(tree.at("/aiperf/resolution/mechanism").asString(""));
  }

  private static boolean checkInputs(
      String name,
      JsonNode tree,
      Path expRoot,
      boolean traceHashedByRederivation,
      List<Finding> findings) {
    boolean hold = true;
    for (Input in : INPUTS) {
      JsonNode p = tree.at(in.pathPointer());
      if (!p.isString() || tree.at(in.shaPointer()).isMissingNode()) {
        continue; // not part of this plan (e.g. no trace, in-cluster readiness)
      }
      if (in.pathPointer().startsWith("/deployment/smoke_test")
          && !"smoke_artifact".equals(tree.at("/deployment/smoke_test/kind").asString())) {
        continue;
      }
      Path file = PlanPaths.resolve(expRoot, p.asString());
      String recordedSha = tree.at(in.shaPointer()).asString();
      if (!Files.isRegularFile(file)) {
        findings.add(
            new Finding(
                name,
                in.pathPointer(),
                "the " + in.what() + " " + p.asString() + " is missing (looked for " + file + ")"));
        hold = false;
        continue;
      }
      if (traceHashedByRederivation && in.pathPointer().equals(TRACE.pathPointer())) {
        continue; // hashed by the re-derivation's scan, compared there
      }
      String actual = Sha256.ofFile(file);
      if (!actual.equals(recordedSha)) {
        findings.add(
            new Finding(
                name,
                in.shaPointer(),
                "the "
                    + in.what()
                    + " "
                    + p.asString()
                    + " changed since planning: recorded "
                    + recordedSha
                    + ", now "
                    + actual));
        hold = false;
      }
    }
    return hold;
  }

  private static void checkRules(
      String name, JsonNode tree, Path expRoot, List<Finding> findings, List<String> notes) {
    Set<String> known =
        Stream.of(RuleFile.values()).map(RuleFile::path).collect(Collectors.toSet());
    Path rulesDir = RulesFolder.find(expRoot);
    if (rulesDir == null) {
      notes.add(
          "agent-docs/rules not found above "
              + expRoot
              + " or beside benchplan: cited"
              + " rules were checked against benchplan's own rule list only");
    }
    JsonNode applied = tree.path("rules_applied");
    for (int i = 0; i < applied.size(); i++) {
      String rule = applied.get(i).path("rule").asString();
      boolean exists =
          rulesDir != null ? Files.isRegularFile(rulesDir.resolve(rule)) : known.contains(rule);
      if (!exists) {
        findings.add(
            new Finding(
                name,
                "/rules_applied/" + i + "/rule",
                "cites "
                    + rule
                    + ", which is not a rule file in "
                    + (rulesDir != null ? rulesDir : "agent-docs/rules")));
      }
    }
  }

  /** Hashes the trace (when the plan has one) and lists it when it changed. */
  private static boolean traceChanged(
      String name, JsonNode tree, Path expRoot, List<Finding> findings) {
    JsonNode p = tree.at(TRACE.pathPointer());
    if (!p.isString()) {
      return false;
    }
    Path file = PlanPaths.resolve(expRoot, p.asString());
    String recorded = tree.at(TRACE.shaPointer()).asString("");
    String actual = Files.isRegularFile(file) ? Sha256.ofFile(file) : recorded;
    if (actual.equals(recorded)) {
      return false;
    }
    findings.add(
        new Finding(
            name,
            TRACE.shaPointer(),
            "the trace "
                + p.asString()
                + " changed since planning: recorded "
                + recorded
                + ", now "
                + actual));
    return true;
  }

  private void rederive(
      String name,
      byte[] bytes,
      JsonNode tree,
      Path expRoot,
      List<Finding> findings,
      List<String> notes) {
    BenchmarkPlan plan = PlanJson.read(tree, BenchmarkPlan.class);
    BenchmarkPlan.Provenance prov = plan.provenance();
    if (prov == null || prov.invocation() == null) {
      notes.add(
          "not re-derived: the plan records no invocation (written by an older benchplan,"
              + " or built in code by validate)");
      return;
    }
    String mechanism = plan.aiperf().resolution().mechanism();
    if (!"operator_pin".equals(mechanism)) {
      notes.add(
          "not re-derived: the AIPerf version was resolved by "
              + mechanism
              + " through the"
              + " package index, which verify does not ask (offline); inputs and rules were checked");
      return;
    }
    BenchmarkPlan.Tool running = PlanOrigin.runningTool();
    if (!running.equals(prov.benchplan())) {
      notes.add(
          "the plan was written by benchplan "
              + prov.benchplan().version()
              + " (commit "
              + prov.benchplan().commit()
              + "); re-derived with "
              + running.version()
              + " (commit "
              + running.commit()
              + ")");
    }
    Clock clock = Clock.fixed(Instant.parse(plan.createdAt()), ZoneOffset.UTC);
    byte[] again;
    try {
      again =
          replay.replay(
              prov.invocation().arguments(),
              expRoot,
              clock,
              new PlanOrigin(prov.benchplan(), prov.clock(), prov.invocation()));
    } catch (PlanBlockedException e) {
      if (traceChanged(name, tree, expRoot, findings)) {
        return; // the changed trace is why it no longer plans
      }
      e.blockers()
          .forEach(
              b ->
                  findings.add(
                      new Finding(
                          name,
                          "/provenance/invocation",
                          "re-deriving is blocked: " + b.code() + ": " + b.message())));
      return;
    } catch (BenchplanException | picocli.CommandLine.ParameterException e) {
      if (traceChanged(name, tree, expRoot, findings)) {
        return;
      }
      findings.add(
          new Finding(
              name,
              "/provenance/invocation",
              "the recorded invocation does" + " not re-derive: " + e.getMessage()));
      return;
    }
    if (Arrays.equals(bytes, again)) {
      return;
    }
    JsonNode derived = PlanJson.parse(again);
    String traceSha = tree.at(TRACE.shaPointer()).asString("");
    String traceNow = derived.at(TRACE.shaPointer()).asString("");
    if (!traceSha.equals(traceNow)) {
      findings.add(
          new Finding(
              name,
              TRACE.shaPointer(),
              "the trace "
                  + tree.at(TRACE.pathPointer()).asString()
                  + " changed since planning: recorded "
                  + traceSha
                  + ", now "
                  + traceNow));
      notes.add("the re-derived plan was not compared: an input changed (listed above)");
      return;
    }
    List<JsonDiff.Difference> diffs = JsonDiff.of(tree, derived);
    if (diffs.isEmpty()) {
      findings.add(new Finding(name, "", "re-derived plan has the same content in other bytes"));
    }
    for (JsonDiff.Difference d : diffs.subList(0, Math.min(diffs.size(), MAX_DIFFERENCES))) {
      findings.add(
          new Finding(
              name,
              d.pointer(),
              "re-derived plan differs: recorded " + d.before() + ", re-derived " + d.after()));
    }
    if (diffs.size() > MAX_DIFFERENCES) {
      findings.add(
          new Finding(
              name,
              "",
              (diffs.size() - MAX_DIFFERENCES) + " more differing pointer(s) not listed"));
    }
  }
}
