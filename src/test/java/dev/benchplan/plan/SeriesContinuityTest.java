package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.benchplan.json.Json;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.workload.InputDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 20 item 7 (the same question next week continues the series) and issue 15 item 9 (the smoke
 * artifact's age and target are recorded, warned about, and blocked past a bound).
 */
class SeriesContinuityTest {
  /** The example smoke artifact's timestamp. */
  static final Instant SMOKE_AT = Instant.parse("2026-11-30T10:15:02.118Z");

  @TempDir Path tmp;
  PlanFixture.Inputs fx;
  Path workload;

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
    workload = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
  }

  private PlanResult plan(Instant now, PlanOptions options) {
    return new PlanService()
        .plan(
            new PlanRequest(
                InputDocument.read(workload, "user workload"),
                InputDocument.read(fx.ledger, "deployment ledger"),
                null,
                PlanFixture.Inputs.question(),
                options,
                Clock.fixed(now, ZoneOffset.UTC),
                PlanFixture.Inputs.OFFLINE,
                PlanFixture.Inputs.NO_TRACES));
  }

  private PlanBlockedException blocked(Instant now, PlanOptions options) {
    PlanBlockedException e =
        catchThrowableOfType(PlanBlockedException.class, () -> plan(now, options));
    assertThat(e).as("expected a blocker").isNotNull();
    return e;
  }

  @Test
  @DisplayName(
      "the same request a week later is SERIES_EXISTS naming the series and the reuse"
          + " command; that command continues the series; --series-id starts a new one on purpose")
  void sameQuestionNextWeek() throws Exception {
    Instant day1 = SMOKE_AT.plus(Duration.ofMinutes(10));
    PlanResult first = plan(day1, fx.options().maxConcurrency(8).build());
    assertThat(first.seriesId()).contains("-20261130-");

    Instant nextWeek = day1.plus(Duration.ofDays(7));
    PlanOptions big =
        fx.options().maxConcurrency(8).smokeMaxAgeS(Duration.ofDays(30).toSeconds()).build();
    PlanBlockedException e = blocked(nextWeek, big);
    assertThat(e.blockers()).extracting(Blocker::code).containsExactly("SERIES_EXISTS");
    String msg = e.blockers().get(0).message();
    assertThat(msg)
        .contains("series " + first.seriesId())
        .contains("--reuse-plan " + first.planPath())
        .contains("--reuse-sha256 " + first.sha256())
        .contains("--max-concurrency 8")
        .contains("--ledger " + fx.ledger.toAbsolutePath().normalize())
        .contains("--series-id");
    try (var files = Files.list(first.planPath().getParent())) {
      assertThat(files.toList()).hasSize(1); // no second series under another date
    }

    // the suggested command, as options: the series continues
    PlanResult again =
        plan(
            nextWeek,
            fx.options()
                .maxConcurrency(8)
                .smokeMaxAgeS(Duration.ofDays(30).toSeconds())
                .aiperf(dev.benchplan.aiperf.version.VersionRequest.none())
                .reuse(new ReuseRequest(first.planPath(), first.sha256()))
                .build());
    assertThat(again.reused()).isTrue();
    assertThat(again.seriesId()).isEqualTo(first.seriesId());

    // a new series on purpose
    PlanResult named =
        plan(
            nextWeek,
            fx.options()
                .maxConcurrency(8)
                .smokeMaxAgeS(Duration.ofDays(30).toSeconds())
                .seriesId("support-chat-rerun")
                .build());
    assertThat(named.reused()).isFalse();
    assertThat(named.seriesId()).isEqualTo("support-chat-rerun");
  }

  @Test
  @DisplayName(
      "a different question (another seed) is a different identity: a new series, no"
          + " SERIES_EXISTS")
  void differentIdentityIsNewSeries() {
    Instant t = SMOKE_AT.plus(Duration.ofMinutes(10));
    PlanResult a = plan(t, fx.options().seed(7L).build());
    PlanResult b = plan(t, fx.options().seed(8L).build());
    assertThat(b.seriesId()).isNotEqualTo(a.seriesId());
  }

  @Test
  @DisplayName("a day-old smoke artifact made against 127.0.0.1: age and target recorded, warned")
  void dayOldLoopbackSmokeWarns() throws Exception {
    // + 1 s: the age runs to created_at (whole seconds), and the artifact is from 10:15:02.118
    PlanResult r = plan(SMOKE_AT.plus(Duration.ofDays(1)).plusSeconds(1), fx.options().build());
    JsonNode plan = Json.JSON.readTree(Files.readAllBytes(r.planPath()));
    assertThat(plan.at("/deployment/smoke_test/age_s").asLong()).isEqualTo(86400);
    assertThat(plan.at("/deployment/smoke_test/target").asString()).isEqualTo("loopback");
    assertThat(r.warnings())
        .anySatisfy(w -> assertThat(w).contains("24 h 0 min old"))
        .anySatisfy(
            w ->
                assertThat(w)
                    .contains("127.0.0.1")
                    .contains("loopback")
                    .contains("kind-test")
                    .contains("vllm-agg-frontend.bench.svc.cluster.local"));
    assertThat(plan.at("/warnings").toString()).contains("loopback");
  }

  @Test
  @DisplayName(
      "past the bound (default 72 h, or --smoke-max-age) the plan is SMOKE_STALE, nothing"
          + " written")
  void staleSmokeBlocks() throws Exception {
    PlanBlockedException byDefault =
        blocked(SMOKE_AT.plus(Duration.ofHours(73)).plusSeconds(1), fx.options().build());
    assertThat(byDefault.blockers()).extracting(Blocker::code).containsExactly("SMOKE_STALE");
    assertThat(byDefault.blockers().get(0).message())
        .contains("73 h")
        .contains("72 h")
        .contains("--smoke-max-age");
    PlanBlockedException bySetting =
        blocked(SMOKE_AT.plus(Duration.ofHours(2)), fx.options().smokeMaxAgeS(3600L).build());
    assertThat(bySetting.blockers()).extracting(Blocker::code).containsExactly("SMOKE_STALE");
    assertThat(fx.expRoot).doesNotExist();
    // a fresh in-cluster smoke: no provenance warning
    PlanResult fresh = plan(SMOKE_AT.plus(Duration.ofMinutes(5)), fx.options().build());
    assertThat(fresh.warnings()).noneSatisfy(w -> assertThat(w).contains(" old (from"));
  }
}
