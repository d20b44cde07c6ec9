package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanJson;
import dev.benchplan.plan.PlanService;
import dev.benchplan.plan.SeriesIdentity;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.DeploymentLedgerReader;
import dev.benchplan.workload.DeploymentRecord;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.SmokeEvidence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The candidate a render measures, always from a deployment ledger, never from the plan's text
 * alone (agent-docs/rules/benchmarking/series-boundaries.md: a reused series changes only the
 * endpoint address, Job identity, namespace and artifact wiring of the run-scoped files).
 *
 * <ul>
 *   <li>With {@code --ledger FILE} (the next candidate of a series): the ledger is read and checked
 *       like {@code plan} checks it, and its frozen fields ({@code /deployment/served_model},
 *       {@code /deployment/tokenizer}) must equal the series plan's; its DGD, namespace, endpoint
 *       and Secrets are what the run measures.
 *   <li>Without it: the ledger the plan records ({@code /deployment/ledger_path}, resolved against
 *       the plan's folder when relative) is re-read, must still hash to {@code
 *       /deployment/ledger_sha256}, and every deployment field of the plan must agree with it, so a
 *       plan edited by hand after it was written is refused. A plan built in code with in-cluster
 *       readiness (benchplan validate) has no ledger file: its recorded SHA-256 is re-derived from
 *       its own deployment fields instead.
 * </ul>
 *
 * @param plan the plan with {@code /deployment} replaced by the candidate's (same path and SHA-256)
 * @param ledgerPath the ledger the candidate came from
 * @param ledgerSha256 its SHA-256
 * @param fromPlan true when it is the plan's own ledger (no {@code --ledger})
 */
public record CandidateBinding(
    VerifiedPlan plan, String ledgerPath, String ledgerSha256, boolean fromPlan) {
  /** Deployment fields render compares between a plan and its ledger (paths are location-bound). */
  static final List<String> DEPLOYMENT_FIELDS =
      List.of(
          "dgd_name",
          "kube_context",
          "namespace",
          "dgd_sha256",
          "frontend_service",
          "frontend_port",
          "endpoint_url",
          "served_model",
          "tokenizer",
          "gpus",
          "max_context_length",
          "secrets");

  /** {@code namespace/dgd-name} of the candidate. */
  public String dgd() {
    return plan.plan().deployment().namespace() + "/" + plan.plan().deployment().dgdName();
  }

  /** Binds the candidate; throws invalid input (exit 2) naming the fields on any disagreement. */
  public static CandidateBinding bind(VerifiedPlan verified, @Nullable Path ledger) {
    return bind(verified, ledger, null);
  }

  /**
   * As {@link #bind(VerifiedPlan, Path)}, and with {@code smokeAge} the bound ledger's smoke
   * artifact must be young enough (plan's SMOKE_STALE rule, applied again): else invalid input,
   * nothing written.
   */
  public static CandidateBinding bind(
      VerifiedPlan verified, @Nullable Path ledger, SmokeEvidence.@Nullable AgeCheck smokeAge) {
    BenchmarkPlan.Deployment recorded = verified.plan().deployment();
    String source = verified.path().toString();
    if (ledger != null) {
      DeploymentRecord d = read(ledger.toAbsolutePath().normalize(), "--ledger " + ledger);
      if (smokeAge != null) {
        smokeAge.requireFresh(d.smoke(), "--ledger " + ledger);
      }
      BenchmarkPlan.Deployment candidate = PlanService.deployment(d);
      List<String> frozen = new ArrayList<>();
      JsonNode a = tree(recorded);
      JsonNode b = tree(candidate);
      for (String pointer : SeriesIdentity.POINTERS) {
        if (pointer.startsWith("/deployment/")) {
          String field = pointer.substring("/deployment/".length());
          if (!same(a.path(field), b.path(field))) {
            frozen.add(
                pointer
                    + " ("
                    + a.path(field)
                    + " in the series, "
                    + b.path(field)
                    + " in the ledger)");
          }
        }
      }
      if (!frozen.isEmpty()) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--ledger", ledger),
            "--ledger "
                + ledger
                + ": the candidate differs from series "
                + verified.plan().seriesId()
                + " ("
                + source
                + ") in frozen field(s) "
                + String.join("; ", frozen)
                + ": expected a candidate the series can measure; plan a new"
                + " series for it");
      }
      if (d.sourceSha256().equals(recorded.ledgerSha256())) {
        requireAgreement(verified, candidate, d.source());
      }
      return new CandidateBinding(
          withDeployment(verified, candidate), d.source(), d.sourceSha256(), false);
    }
    if (recorded.smokeTest() != null
        && "in_cluster_readiness".equals(recorded.smokeTest().kind())) {
      return inCode(verified, recorded);
    }
    Path path = Path.of(recorded.ledgerPath());
    if (!path.isAbsolute()) {
      path = verified.folder().resolve(path).normalize();
    }
    if (!Files.isRegularFile(path)) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/deployment/ledger_path"),
          source
              + " /deployment/ledger_path: the plan's deployment"
              + " ledger "
              + path
              + " is not there; render takes the candidate it measures from a"
              + " ledger: expected it at that path, or --ledger FILE naming the candidate's ledger");
    }
    String actual = Sha256.ofFile(path);
    if (!actual.equals(recorded.ledgerSha256())) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/deployment/ledger_sha256"),
          source
              + " /deployment/ledger_sha256: the plan's ledger "
              + path
              + " hashes to "
              + actual
              + ", the plan records "
              + recorded.ledgerSha256()
              + ": expected the ledger the plan was written from; give the changed candidate's ledger"
              + " with --ledger FILE");
    }
    DeploymentRecord d = read(path, source + " /deployment/ledger_path " + path);
    if (smokeAge != null) {
      smokeAge.requireFresh(d.smoke(), "ledger " + path);
    }
    BenchmarkPlan.Deployment candidate = PlanService.deployment(d);
    requireAgreement(verified, candidate, path.toString());
    return new CandidateBinding(verified, path.toString(), actual, true);
  }

  private static CandidateBinding inCode(VerifiedPlan verified, BenchmarkPlan.Deployment p) {
    SmokeEvidence smoke =
        new SmokeEvidence.InClusterReadiness(
            p.smokeTest().readiness() == null
                ? "?"
                : p.smokeTest().readiness().getOrDefault("declared_by", "?"),
            p.smokeTest().readiness() == null
                ? "?"
                : p.smokeTest().readiness().getOrDefault("description", "?"));
    DeploymentRecord d;
    try {
      d =
          DeploymentRecord.inMemory(
              p.ledgerPath(),
              p.dgdName(),
              p.kubeContext(),
              p.namespace(),
              p.dgdPath(),
              p.dgdSha256(),
              p.frontendService(),
              p.frontendPort(),
              p.servedModel(),
              p.tokenizer(),
              p.gpus(),
              p.maxContextLength(),
              smoke,
              p.secrets());
    } catch (IllegalArgumentException e) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(verified.path(), "/deployment"),
          verified.path() + " /deployment: " + e.getMessage());
    }
    List<String> problems = new ArrayList<>();
    if (!d.sourceSha256().equals(p.ledgerSha256())) {
      problems.add(
          "/deployment/ledger_sha256 (the plan's deployment fields hash to "
              + d.sourceSha256()
              + ")");
    }
    if (!d.endpointUrl().equals(p.endpointUrl())) {
      problems.add(
          "/deployment/endpoint_url ('"
              + p.endpointUrl()
              + "' in the plan, '"
              + d.endpointUrl()
              + "' from its frontend Service)");
    }
    if (!problems.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(verified.path()),
          verified.path()
              + ": the plan's deployment disagrees with"
              + " the in-code record it was written from in "
              + String.join("; ", problems)
              + ": expected an unedited plan");
    }
    return new CandidateBinding(verified, p.ledgerPath(), p.ledgerSha256(), true);
  }

  private static void requireAgreement(
      VerifiedPlan verified, BenchmarkPlan.Deployment ledger, String ledgerPath) {
    JsonNode a = tree(verified.plan().deployment());
    JsonNode b = tree(ledger);
    List<String> diffs = new ArrayList<>();
    for (String field : DEPLOYMENT_FIELDS) {
      if (!same(a.path(field), b.path(field))) {
        diffs.add(
            "/deployment/"
                + field
                + " ("
                + compact(a.path(field))
                + " in the plan, "
                + compact(b.path(field))
                + " in the ledger)");
      }
    }
    if (!diffs.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(verified.path()),
          verified.path()
              + ": the plan's deployment disagrees with"
              + " its ledger "
              + ledgerPath
              + " in "
              + String.join("; ", diffs)
              + ": expected the"
              + " fields the ledger records; a plan is never edited after it is written");
    }
  }

  /** The smoke evidence a deployment ledger file carries (exit 2 when it does not read). */
  public static SmokeEvidence smokeOf(Path ledger, String what) {
    return read(ledger, what).smoke();
  }

  private static DeploymentRecord read(Path ledger, String what) {
    InputDocument doc = InputDocument.read(ledger, "deployment ledger");
    RuleLog log = new RuleLog();
    Optional<DeploymentRecord> d = DeploymentLedgerReader.read(doc, log);
    if (d.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(ledger),
          what + ": " + String.join("; ", log.blockers().stream().map(Blocker::message).toList()));
    }
    return d.get();
  }

  private static VerifiedPlan withDeployment(VerifiedPlan v, BenchmarkPlan.Deployment d) {
    return new VerifiedPlan(v.path(), v.sha256(), v.plan().toBuilder().deployment(d).build());
  }

  private static JsonNode tree(BenchmarkPlan.Deployment d) {
    return PlanJson.sectionTree(d);
  }

  private static boolean same(JsonNode a, JsonNode b) {
    return Arrays.equals(
        CanonicalJson.bytes(a.isMissingNode() ? Json.JSON.nullNode() : a),
        CanonicalJson.bytes(b.isMissingNode() ? Json.JSON.nullNode() : b));
  }

  private static String compact(JsonNode n) {
    String s = n.isMissingNode() ? "absent" : n.toString();
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }
}
