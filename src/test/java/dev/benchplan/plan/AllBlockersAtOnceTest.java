package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.PlanBlockedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * plan.md promises every problem at once (issue 36, item 4): a request with N independent faults
 * gets N blockers in one call, and nothing is written.
 */
class AllBlockersAtOnceTest {
  @TempDir Path tmp;
  PlanFixtures fx;

  @BeforeEach
  void setUp() {
    fx = PlanFixtures.create(tmp);
  }

  private PlanResult plan(Path workload, PlanOptions options) {
    return new PlanService().plan(fx.request(workload, options));
  }

  @Test
  @DisplayName(
      "a stale smoke artifact and an existing series: both blockers in one call, the series'"
          + " plan untouched")
  void staleSmokeAndExistingSeries() throws Exception {
    Path w = fx.workload("w.yaml", PlanFixtures.STATIC_WORKLOAD);
    PlanResult first = plan(w, fx.options().build());
    byte[] before = Files.readAllBytes(first.planPath());
    // the artifact is 1 h 45 min old at the fixture's clock: past a 1 h limit
    PlanBlockedException e =
        catchThrowableOfType(
            PlanBlockedException.class, () -> plan(w, fx.options().smokeMaxAgeS(3600L).build()));
    assertThat(e.blockers())
        .extracting(Blocker::code)
        .containsExactlyInAnyOrder("SMOKE_STALE", "SERIES_EXISTS");
    assertThat(Files.readAllBytes(first.planPath())).isEqualTo(before);
  }

  @Test
  @DisplayName(
      "a stale smoke artifact alone still blocks (independent is not optional), nothing written")
  void staleSmokeAloneBlocks() {
    Path w = fx.workload("w.yaml", PlanFixtures.STATIC_WORKLOAD);
    PlanBlockedException e =
        catchThrowableOfType(
            PlanBlockedException.class, () -> plan(w, fx.options().smokeMaxAgeS(3600L).build()));
    assertThat(e.blockers()).extracting(Blocker::code).containsExactly("SMOKE_STALE");
    assertThat(fx.expRoot.resolve("inputs/benchmark-plans")).doesNotExist();
  }
}
