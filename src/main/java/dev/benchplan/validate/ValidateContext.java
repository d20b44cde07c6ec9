package dev.benchplan.validate;

import java.io.PrintWriter;
import java.util.Objects;

/**
 * What every phase of one validate run works with.
 *
 * @param options the options of the run
 * @param run the run's identity (ID, namespace, labels)
 * @param steps runs each step with its progress and verdict record
 * @param doc the verdict as it is built
 * @param err stderr, for warnings
 * @param ledger everything the run created, in order (what cleanup deletes)
 */
record ValidateContext(
    ValidateOptions options,
    ValidateRun run,
    StepRunner steps,
    ValidateVerdictBuilder doc,
    PrintWriter err,
    CreatedObjects ledger) {
  ValidateContext {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(steps, "steps");
    Objects.requireNonNull(doc, "doc");
    Objects.requireNonNull(err, "err");
    Objects.requireNonNull(ledger, "ledger");
  }

  /** A warning: on stderr now, and in the verdict. */
  void warn(String warning) {
    doc.warn(warning);
    err.println("validate: warning: " + warning);
  }
}
