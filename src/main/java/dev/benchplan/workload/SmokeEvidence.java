package dev.benchplan.workload;

import dev.benchplan.json.Sha256;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Proof that the deployed endpoint serves before anything is planned
 * (agent-docs/rules/execution/deployment-ledger.md).
 */
public sealed interface SmokeEvidence
    permits SmokeEvidence.Artifact, SmokeEvidence.InClusterReadiness {
  /** The oldest smoke artifact a plan accepts unless {@code --smoke-max-age} says otherwise. */
  Duration DEFAULT_MAX_AGE = Duration.ofDays(3);

  /** Past this age a plan warns, giving the age. */
  Duration WARN_AGE = Duration.ofHours(1);

  /**
   * Where a smoke artifact came from, as the plan records it.
   *
   * @param ageS seconds from the artifact's timestamp to the plan's creation, or null when it has
   *     no timestamp
   * @param target what it reached: {@code in-cluster} (the frontend Service's address), {@code
   *     loopback} (127.0.0.1/localhost: a port-forward or a local server) or {@code other:HOST}
   */
  record Provenance(@Nullable Long ageS, String target) {}

  /**
   * Checks a smoke artifact's age and target against the deployment planned for: warns when it is
   * older than {@link #WARN_AGE}, has no timestamp, is dated in the future or reached anything but
   * the in-cluster endpoint; blocks (SMOKE_STALE) when it is older than {@code maxAgeS}. Warnings
   * name the artifact by {@code shownPath} (as the plan records it: location-independent).
   */
  static Provenance provenance(
      Artifact a,
      String shownPath,
      Instant now,
      String endpointUrl,
      String kubeContext,
      long maxAgeS,
      RuleLog log) {
    RuleFile rule = RuleFile.DEPLOYMENT_LEDGER;
    Long age = null;
    if (a.timestamp() == null) {
      log.warn(rule, "smoke test artifact " + shownPath + " has no timestamp: its age is unknown");
    } else {
      try {
        age = Duration.between(Instant.parse(a.timestamp()), now).toSeconds();
      } catch (DateTimeParseException e) {
        log.warn(
            rule,
            "smoke test artifact "
                + shownPath
                + " /timestamp '"
                + a.timestamp()
                + "' is not an ISO-8601 instant: its age is unknown");
      }
    }
    if (age != null) {
      if (age > maxAgeS) {
        // nothing later depends on it: the plan goes on to report every other problem too
        log.blockIndependent(
            BlockerCode.SMOKE_STALE,
            "smoke test artifact "
                + a.path()
                + " /timestamp "
                + a.timestamp()
                + " is "
                + human(age)
                + " old, past the limit of "
                + human(maxAgeS)
                + ": run `benchplan smoke` against the endpoint again and record the new artifact in"
                + " the ledger (or raise the limit with --smoke-max-age)");
      } else if (age < -60) {
        log.warn(
            rule,
            "smoke test artifact "
                + shownPath
                + " /timestamp "
                + a.timestamp()
                + " is "
                + human(-age)
                + " in the future: check the clocks");
      } else if (age > WARN_AGE.toSeconds()) {
        log.warn(
            rule,
            "smoke test artifact "
                + shownPath
                + " is "
                + human(age)
                + " old (from "
                + a.timestamp()
                + "): it shows the endpoint served then, not now");
      }
    }
    String target = target(a.url(), endpointUrl);
    String reached = "smoke test artifact " + shownPath + " reached " + a.url();
    String notInCluster =
        "not the in-cluster endpoint " + endpointUrl + " of context '" + kubeContext + "'";
    if (target.equals("loopback")) {
      log.warn(
          rule,
          reached
              + " (loopback: a port-forward or a local server), "
              + notInCluster
              + ": it proves the served model answered through that path only");
    } else if (!target.equals("in-cluster")) {
      log.warn(rule, reached + ", " + notInCluster);
    }
    return new Provenance(age, target);
  }

  private static String target(@Nullable String url, String endpointUrl) {
    String host = host(url);
    if (host == null) {
      return "other:unknown";
    }
    if (LOOPBACK.contains(host) || host.startsWith("127.")) {
      return "loopback";
    }
    String endpointHost = host(endpointUrl);
    if (host.equals(endpointHost)
        || (endpointHost != null && endpointHost.startsWith(host + "."))) {
      return "in-cluster";
    }
    return "other:" + host;
  }

  private static @Nullable String host(@Nullable String url) {
    if (url == null) {
      return null;
    }
    try {
      String h = URI.create(url).getHost();
      return h == null ? null : h.toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Plan's SMOKE_STALE rule applied again by {@code render} and {@code run} at their own time.
   *
   * @param maxAge the oldest artifact accepted ({@code --smoke-max-age}, default {@link
   *     #DEFAULT_MAX_AGE})
   * @param now the time it is judged at (the planning clock: {@code SOURCE_DATE_EPOCH} or the
   *     system clock, as plan judges)
   */
  record AgeCheck(Duration maxAge, Instant now) {
    public AgeCheck {
      Objects.requireNonNull(maxAge, "maxAge");
      Objects.requireNonNull(now, "now");
      if (maxAge.isNegative()
          || maxAge.compareTo(Duration.ofSeconds(InputRanges.MAX_SMOKE_MAX_AGE_S)) > 0) {
        throw new IllegalArgumentException(
            "maxAge must be 0 to " + InputRanges.MAX_SMOKE_MAX_AGE_S + " s, got " + maxAge);
      }
    }

    /**
     * A smoke artifact older than {@code maxAge} at {@code now} is invalid input (exit 2, nothing
     * created), naming {@code where} (the ledger that binds it). Returns the artifact's age in
     * seconds, or null when it has none (no timestamp, or in-cluster readiness).
     */
    public @Nullable Long requireFresh(SmokeEvidence evidence, String where) {
      return SmokeEvidence.requireFresh(evidence, now, maxAge, where);
    }
  }

  private static @Nullable Long requireFresh(
      SmokeEvidence evidence, Instant now, Duration maxAge, String where) {
    if (!(evidence instanceof Artifact a) || a.timestamp() == null) {
      return null;
    }
    long age;
    try {
      age = Duration.between(Instant.parse(a.timestamp()), now).toSeconds();
    } catch (DateTimeParseException e) {
      return null; // plan warned that its age is unknown
    }
    if (age > maxAge.toSeconds()) {
      throw dev.benchplan.error.BenchplanException.invalid(
          where
              + ": smoke test artifact "
              + a.path()
              + " /timestamp "
              + a.timestamp()
              + " is "
              + human(age)
              + " old, past the limit of "
              + human(maxAge.toSeconds())
              + " (SMOKE_STALE, rule: "
              + RuleFile.DEPLOYMENT_LEDGER.path()
              + "): run `benchplan smoke` against the endpoint again and record the new artifact"
              + " in the ledger (or raise the limit with --smoke-max-age); nothing created");
    }
    return age;
  }

  private static String human(long seconds) {
    if (seconds >= 2 * 86400) {
      return (seconds / 3600) + " h (" + (seconds / 86400) + " days)";
    }
    if (seconds >= 3600) {
      return (seconds / 3600) + " h " + (seconds % 3600 / 60) + " min";
    }
    return seconds + " s";
  }

  /** Host names that mean "this machine". */
  Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0");

  /** {@code smoke_artifact} or {@code in_cluster_readiness}, as recorded in the plan. */
  String kind();

  /**
   * A smoke-test artifact written by {@code benchplan smoke}, checked to exist, to hash to the
   * recorded SHA-256 and to say {@code success: true}. The only kind a ledger file can carry.
   *
   * @param path absolute path of the artifact
   * @param sha256 its SHA-256 (verified)
   * @param model the model the smoke test asked for
   * @param url the URL it reached
   * @param timestamp when it ran (ISO-8601 UTC), or null
   * @param timing what the smoke request measured, or null when the artifact does not say
   */
  record Artifact(
      String path,
      String sha256,
      @Nullable String model,
      @Nullable String url,
      @Nullable String timestamp,
      @Nullable SmokeTiming timing)
      implements SmokeEvidence {
    public Artifact {
      Objects.requireNonNull(path, "path");
      if (!Sha256.isSha256(sha256)) {
        throw new IllegalArgumentException("smoke artifact sha256 must be 64 hex characters");
      }
    }

    @Override
    public String kind() {
      return "smoke_artifact";
    }
  }

  /**
   * Readiness proven inside the cluster by the benchmark itself: the AIPerf Job waits until a real
   * completion succeeds before it measures. Only for plans built in code by a caller that deploys
   * the candidate itself (e.g. {@code benchplan validate}); recorded as such in the plan.
   *
   * @param declaredBy who declares it, e.g. {@code benchplan validate}
   * @param description how readiness is proven, in one sentence
   */
  record InClusterReadiness(String declaredBy, String description) implements SmokeEvidence {
    public InClusterReadiness {
      Objects.requireNonNull(declaredBy, "declaredBy");
      Objects.requireNonNull(description, "description");
      if (declaredBy.isBlank() || description.isBlank()) {
        throw new IllegalArgumentException("in-cluster readiness needs who declares it and how");
      }
    }

    @Override
    public String kind() {
      return "in_cluster_readiness";
    }
  }
}
