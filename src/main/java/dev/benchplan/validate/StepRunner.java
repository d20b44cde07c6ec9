package dev.benchplan.validate;

import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.progress.ProgressSink;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs validate's steps: a progress line when a step starts and ends, the step's record in the
 * verdict, and a failure wrapped with the step's name.
 */
final class StepRunner {
  private final ProgressRenderer progress;
  private final ValidateVerdictBuilder doc;

  /** The step under way: written by the main thread, read by the Ctrl-C hook. */
  private volatile ValidateStep current = ValidateStep.CONSTRAINTS;

  StepRunner(ProgressRenderer progress, ValidateVerdictBuilder doc) {
    this.progress = Objects.requireNonNull(progress, "progress");
    this.doc = Objects.requireNonNull(doc, "doc");
  }

  /** Runs {@code body} as step {@code s}; {@code outcome} says in a line what it found. */
  <T> T run(
      ValidateStep s,
      @Nullable Duration bound,
      String what,
      Supplier<T> body,
      Function<T, String> outcome) {
    current = s;
    progress.start(s.id(), bound, what);
    try {
      T value = body.get();
      String detail = outcome.apply(value);
      Duration elapsed = progress.end(detail);
      doc.step(s, "ok", elapsed, bound, detail);
      return value;
    } catch (RuntimeException e) {
      ValidateStepException v = ValidateStepException.of(s, e);
      Duration elapsed = progress.end("failed: " + v.getMessage());
      doc.step(s, "failed", elapsed, bound, v.getMessage());
      throw v;
    }
  }

  /** The step under way (the last one started). */
  ValidateStep current() {
    return current;
  }

  /** Where a long wait reports its progress. */
  ProgressSink sink() {
    return progress.sink();
  }

  /** The renderer itself, for cleanup's own start and end lines. */
  ProgressRenderer progress() {
    return progress;
  }
}
