package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.workload.InputRanges;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The smoke artifact's age in a plan: measured at the instant created_at records, so a plan made on
 * a clock with a fraction of a second re-derives byte for byte on the clock {@code verify} uses;
 * and the limit a plan built in code may set is held to the option's bound.
 */
class PlanSmokeAgeTest {
  @TempDir Path tmp;

  /** The example smoke artifact is from 10:15:02.118: 3.782 s before this, 2.882 s before :05. */
  static final Instant SUB_SECOND = Instant.parse("2026-11-30T10:15:05.900Z");

  @Test
  @DisplayName("a sub-second clock: the plan's smoke age is the one verify re-derives, bytes equal")
  void subSecondClock() throws Exception {
    PlanFixture.Inputs fx = PlanFixture.Inputs.create(tmp);
    Path workload = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    PlanService service = new PlanService();

    PlanResult written = service.plan(on(fx.request(workload, fx.options().build()), SUB_SECOND));
    JsonNode plan = PlanJson.tree(written.plan());
    assertThat(plan.get("created_at").asString()).isEqualTo("2026-11-30T10:15:05Z");
    // whole seconds from the timestamp to created_at, not to the clock's 10:15:05.900 (3)
    assertThat(plan.at("/deployment/smoke_test/age_s").asLong()).isEqualTo(2);

    Clock verifyClock = Clock.fixed(Instant.parse(written.plan().createdAt()), ZoneOffset.UTC);
    byte[] again =
        service.derive(on(fx.request(workload, fx.options().build()), verifyClock.instant()));
    assertThat(new String(again, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(CanonicalJson.bytes(plan), java.nio.charset.StandardCharsets.UTF_8));
    assertThat(Json.JSON.readTree(again).at("/deployment/smoke_test/age_s").asLong()).isEqualTo(2);
  }

  @Test
  @DisplayName("a smoke age limit past 720h, set in code, is OPTION_OUT_OF_RANGE; 720h plans")
  void maxAgeBound() {
    PlanFixture.Inputs fx = PlanFixture.Inputs.create(tmp);
    Path workload = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    PlanService service = new PlanService();
    PlanOptions past = fx.options().smokeMaxAgeS(InputRanges.MAX_SMOKE_MAX_AGE_S + 1).build();
    assertThatThrownBy(() -> service.plan(fx.request(workload, past)))
        .isInstanceOfSatisfying(
            PlanBlockedException.class,
            e -> {
              assertThat(e.codes()).containsExactly("OPTION_OUT_OF_RANGE");
              assertThat(e.blockers().get(0).message())
                  .contains("--smoke-max-age 2592001: out of range");
            });
    PlanOptions at = fx.options().smokeMaxAgeS(InputRanges.MAX_SMOKE_MAX_AGE_S).build();
    assertThat(service.plan(fx.request(workload, at)).plan().createdAt()).isNotBlank();
  }

  private static PlanRequest on(PlanRequest r, Instant at) {
    return new PlanRequest(
        r.workload(),
        r.ledger(),
        r.deployment(),
        r.question(),
        r.options(),
        Clock.fixed(at, ZoneOffset.UTC),
        r.indexFetcher(),
        r.traceInspector());
  }
}
