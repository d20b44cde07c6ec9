package dev.benchplan.plan;

import dev.benchplan.rules.RuleLog;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The checks that need nothing an earlier blocked step would have produced (the AIPerf version, a
 * repeat decision file, the smoke artifact's age, a --series-id already taken, an error-rate limit
 * without its rationale). When planning stops early, those not yet reached still run, so one call
 * reports every independent problem (plan.md: every problem at once). They run only on the way to a
 * refusal: a plan that is written records its decisions in the order planning reached them.
 */
final class IndependentChecks {
  private final List<Consumer<RuleLog>> pending = new ArrayList<>();

  /** A check planning reaches later; it runs early only if planning stops before it. */
  IndependentChecks add(Consumer<RuleLog> check) {
    pending.add(check);
    return this;
  }

  /** Planning reached the first {@code n} checks itself: they no longer run early. */
  void reached(int n) {
    pending.subList(0, Math.min(n, pending.size())).clear();
  }

  /** Runs every pending check into {@code log} (a refusal follows). */
  void runInto(RuleLog log) {
    List<Consumer<RuleLog>> checks = List.copyOf(pending);
    pending.clear();
    for (Consumer<RuleLog> c : checks) {
      c.accept(log);
    }
  }
}
