package dev.benchplan.cli;

import dev.benchplan.trace.TraceScanner;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Starts the work of {@code trace inspect} before the command line is parsed: building the commands
 * takes most of the start-up, and on a two-core machine the second core is idle meanwhile. When the
 * arguments read {@code trace inspect} with one trace file, that file's reader thread starts at
 * once ({@link TraceScanner#startEarly}): it reads, hashes and parses the first chunks while the
 * JIT compiles that work. Only a guess: the command, once parsed, scans what it was given, and
 * takes the early reading over only when it is for the same, unchanged file; nothing is printed or
 * written either way.
 */
final class EarlyStart {
  /** The options of {@code trace inspect} that take a value (the next argument). */
  private static final Set<String> VALUE_OPTIONS =
      Set.of("--block-size", "--max-context", "--max-context-length", "--window", "--format");

  private EarlyStart() {}

  /** Starts reading the trace when {@code args} are a {@code trace inspect} of one file. */
  static void begin(String[] args) {
    String trace = traceOf(args);
    if (trace != null) {
      try {
        TraceScanner.startEarly(Path.of(trace));
      } catch (InvalidPathException e) {
        // the command reports it
      }
    }
  }

  /** The trace file a {@code trace inspect} command line names, or null when it is none. */
  static @Nullable String traceOf(String[] args) {
    int i = 0;
    while (i < args.length && args[i].equals("--stacktrace")) {
      i++;
    }
    if (args.length < i + 3 || !args[i].equals("trace") || !args[i + 1].equals("inspect")) {
      return null;
    }
    String trace = null;
    for (i += 2; i < args.length; i++) {
      String a = args[i];
      if (VALUE_OPTIONS.contains(a)) {
        i++;
      } else if (!passedOver(a)) {
        if (a.startsWith("-") || a.startsWith("@") || trace != null) {
          return null; // help, version, an argument file, a second file, "--": no guess
        }
        trace = a;
      }
    }
    return trace;
  }

  /** An option that changes nothing read: {@code --name=value}, or {@code --stacktrace}. */
  private static boolean passedOver(String a) {
    return a.startsWith("--") && a.length() > 2 && (a.indexOf('=') > 0 || a.equals("--stacktrace"));
  }
}
