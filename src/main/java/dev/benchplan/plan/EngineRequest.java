package dev.benchplan.plan;

import java.util.Arrays;
import java.util.Optional;

/**
 * What {@code plan --engine} asks for (agent-docs/rules/benchmarking/load-generator.md): {@code
 * auto} lets the plan choose {@code job} when one pod drives every load point and {@code
 * aiperf-operator} otherwise.
 */
public enum EngineRequest {
  AUTO("auto"),
  JOB(BenchmarkPlan.LoadGenerator.JOB),
  AIPERF_OPERATOR(BenchmarkPlan.LoadGenerator.AIPERF_OPERATOR);

  private final String label;

  EngineRequest(String label) {
    this.label = label;
  }

  /** The name on the command line and in the plan's {@code load_generator.requested}. */
  public String label() {
    return label;
  }

  /** The request named {@code text}, or empty when no engine has that name. */
  public static Optional<EngineRequest> parse(String text) {
    return Arrays.stream(values()).filter(e -> e.label.equals(text)).findFirst();
  }

  @Override
  public String toString() {
    return label;
  }
}
