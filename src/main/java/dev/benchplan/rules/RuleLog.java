package dev.benchplan.rules;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Collects blockers, decisions and warnings while one plan is built. Rules keep going after a
 * blocker where they can, so the user sees every problem at once. Not thread-safe: one log per
 * planning request.
 */
public final class RuleLog {
  private final List<Blocker> blockers = new ArrayList<>();
  private final List<Decision> decisions = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private int independent;

  /** Records a violated rule; the message gets the rule file appended. */
  public void block(BlockerCode code, @Nullable String message) {
    blockers.add(Blocker.of(code, message));
  }

  /**
   * Records a violated rule that nothing later depends on (a stale smoke artifact): planning goes
   * on to find the other problems ({@link #mustStop()} ignores it), and the plan is still refused.
   */
  public void blockIndependent(BlockerCode code, @Nullable String message) {
    block(code, message);
    independent++;
  }

  /** Records a blocker built elsewhere. */
  public void block(Blocker blocker) {
    blockers.add(blocker);
  }

  /** Records a decision and its reason. */
  public void decide(RuleFile rule, String decision, String reason) {
    decisions.add(Decision.of(rule, decision, reason));
  }

  /** Records a warning: planning continues, the warning is written into the plan and printed. */
  public void warn(RuleFile rule, String message) {
    warnings.add(message + " (rule: " + rule.path() + ")");
  }

  /** True when any rule was violated: nothing may be written. */
  public boolean blocked() {
    return !blockers.isEmpty();
  }

  /**
   * True when a violated rule leaves later steps without their input; blockers recorded by {@link
   * #blockIndependent} alone let planning go on collecting every problem for one answer.
   */
  public boolean mustStop() {
    return blockers.size() > independent;
  }

  public List<Blocker> blockers() {
    return Collections.unmodifiableList(blockers);
  }

  public List<Decision> decisions() {
    return Collections.unmodifiableList(decisions);
  }

  public List<String> warnings() {
    return Collections.unmodifiableList(warnings);
  }
}
