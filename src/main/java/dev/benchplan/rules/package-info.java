/**
 * The vocabulary of planning rules: the rule files under {@code agent-docs/rules/} ({@link
 * dev.benchplan.rules.RuleFile}), a violated rule ({@link dev.benchplan.rules.Blocker}), a decision
 * taken under a rule ({@link dev.benchplan.rules.Decision}), and the log that collects them while a
 * plan is built ({@link dev.benchplan.rules.RuleLog}).
 */
package dev.benchplan.rules;
