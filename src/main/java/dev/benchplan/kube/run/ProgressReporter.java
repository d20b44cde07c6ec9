package dev.benchplan.kube.run;

import dev.benchplan.progress.RunProgress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Adds the elapsed time to progress reports. */
final class ProgressReporter {
  private final RunProgress sink;
  private final Clock clock;
  private final Instant start;

  ProgressReporter(RunProgress sink, Clock clock, Instant start) {
    this.sink = sink;
    this.clock = clock;
    this.start = start;
  }

  void report(String phase, @Nullable String detail) {
    sink.report(phase, Duration.between(start, clock.instant()), detail);
  }
}
