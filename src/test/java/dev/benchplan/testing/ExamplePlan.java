package dev.benchplan.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundled examples planned through the command line, as a user plans them: a workload from
 * examples/, the example ledger, AIPerf pinned to 0.13.0, an experiment root of the test's own. The
 * one home of the arrange step the plan, analysis and document tests share.
 */
public final class ExamplePlan {
  /** The bundled examples (the tests run from the project folder). */
  public static final Path EXAMPLES = Path.of("examples").toAbsolutePath();

  /** The static example workload. */
  public static final Path STATIC = EXAMPLES.resolve("workload-static.yaml");

  private ExamplePlan() {}

  /**
   * {@code plan --workload WORKLOAD --ledger examples/deployment-ledger.yaml --question QUESTION
   * --aiperf-version 0.13.0 --exp-root EXP_ROOT}, then {@code extra}; a list the caller may extend.
   */
  public static List<String> args(Path workload, String question, Path expRoot, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "plan",
                "--workload",
                workload.toString(),
                "--ledger",
                EXAMPLES.resolve("deployment-ledger.yaml").toString(),
                "--question",
                question,
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                expRoot.toString()));
    args.addAll(List.of(extra));
    return args;
  }

  /** Runs {@link #args} with {@code --format json} before {@code extra}. */
  public static CommandHarness.Result json(
      Path workload, String question, Path expRoot, String... extra) {
    List<String> args = args(workload, question, expRoot, "--format", "json");
    args.addAll(List.of(extra));
    return CommandHarness.run(args.toArray(String[]::new));
  }
}
