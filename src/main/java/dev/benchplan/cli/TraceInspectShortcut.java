package dev.benchplan.cli;

import dev.benchplan.trace.TraceScanOptions;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Runs the commonest call, {@code trace inspect FILE} with at most {@code --format json|text},
 * without building the command line: picocli's model of every command is most of a call's start-up
 * (about 0.3 s of CPU here), and an agent inspects traces often. Any other argument (another
 * option, help, an argument file, a value picocli would refuse) goes to the parser as before. What
 * it prints and its exit code are the parsed command's: the same {@link
 * TraceInspectCommand#inspect}, the same failure report ({@link Cli#reportFailure}), and stdout and
 * stderr written as picocli writes them.
 */
final class TraceInspectShortcut {
  private TraceInspectShortcut() {}

  /** What the shortcut takes from a command line. */
  record Call(Path trace, boolean json) {}

  /** Runs a call on the given writers (tests compare it with the parsed command). */
  static int run(Call call, PrintWriter out, PrintWriter err) {
    try {
      return TraceInspectCommand.inspect(
          call.trace(), TraceScanOptions.defaults(), call.json(), out, err);
    } catch (Exception e) { // as picocli hands a command's exception to the handler
      return Cli.reportFailure(e, out, err, false, call.json());
    }
  }

  /**
   * The call, when {@code args} are {@code trace inspect FILE} with at most one {@code --format
   * json|text} (or {@code --format=...}) before or after it, spelt exactly so; else null.
   */
  static @Nullable Call parse(String[] args) {
    if (args.length < 3
        || args.length > 5
        || !args[0].equals("trace")
        || !args[1].equals("inspect")) {
      return null;
    }
    String file = null;
    String format = null;
    for (int i = 2; i < args.length; i++) {
      String a = args[i];
      String value = null;
      if (a.equals("--format") && i + 1 < args.length) {
        value = args[++i];
      } else if (a.startsWith("--format=")) {
        value = a.substring("--format=".length());
      }
      if (value != null) {
        if (format != null || !(value.equals("json") || value.equals("text"))) {
          return null;
        }
        format = value;
      } else if (file == null && plainPath(a)) {
        file = a;
      } else {
        return null;
      }
    }
    return file == null ? null : new Call(Path.of(file), "json".equals(format));
  }

  /** A positional argument picocli takes as it is: no option, argument file or odd character. */
  private static boolean plainPath(String a) {
    return !a.isEmpty() && !a.startsWith("-") && !a.startsWith("@") && a.indexOf('\0') < 0;
  }

  /** A writer as picocli makes its default ones (CommandLine#getOut and #getErr). */
  static PrintWriter writer(OutputStream stream, @Nullable String encoding) {
    return new PrintWriter(
        new BufferedWriter(new OutputStreamWriter(stream, charset(encoding))), true);
  }

  private static Charset charset(@Nullable String encoding) {
    if (encoding == null) {
      return Charset.defaultCharset();
    }
    try {
      return Charset.forName("cp65001".equalsIgnoreCase(encoding) ? "UTF-8" : encoding);
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }
}
