package dev.benchplan.rules;

import java.util.Objects;

/**
 * One decision the planner took, recorded in the plan's {@code rules_applied}.
 *
 * @param rule the rule file name, relative to {@code agent-docs/rules/}
 * @param decision what was decided, e.g. {@code workload.source = user_static}
 * @param reason why, in one or two sentences
 */
public record Decision(String rule, String decision, String reason) {
  public Decision {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(reason, "reason");
  }

  public static Decision of(RuleFile rule, String decision, String reason) {
    return new Decision(rule.path(), decision, reason);
  }
}
