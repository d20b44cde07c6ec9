package dev.benchplan.rules;

import java.math.BigDecimal;

/**
 * The default error-rate limit (agent-docs/rules/benchmarking/expected-errors.md): {@code plan}
 * checks a replay against it and {@code run} and {@code gate} apply it, so it lives below both.
 */
public final class ExpectedErrors {
  /** At most 1% failed requests, unless the workload's {@code error_rate} objective says more. */
  public static final BigDecimal DEFAULT_LIMIT = new BigDecimal("0.01");

  private ExpectedErrors() {}
}
