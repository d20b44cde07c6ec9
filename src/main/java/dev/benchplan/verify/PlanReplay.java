package dev.benchplan.verify;

import dev.benchplan.plan.PlanOrigin;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/** Re-derives a plan from its recorded invocation (the CLI parses it; verify only compares). */
@FunctionalInterface
public interface PlanReplay {
  /**
   * Re-derives the plan.
   *
   * @param arguments the recorded arguments, paths relative to {@code expRoot}
   * @param expRoot the experiment root the plan lies in
   * @param clock the recorded clock (created_at)
   * @param origin the recorded tool, clock source and invocation
   * @return the re-derived plan's bytes
   */
  byte[] replay(List<String> arguments, Path expRoot, Clock clock, PlanOrigin origin);
}
