package dev.benchplan.cli;

import dev.benchplan.json.Json;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.workload.SecretScanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import tools.jackson.databind.node.ObjectNode;

/**
 * A command line as a plan records it (agent-docs/rules/execution/benchmark-plan.md): every option
 * given, path values relative to the experiment root with {@code /}, secrets (found by {@link
 * SecretScanner}) replaced by {@code <redacted: kind>}, and {@code --exp-root .} always present;
 * and the reverse, anchoring recorded paths again to replay the command elsewhere.
 */
final class RecordedInvocation {
  private RecordedInvocation() {}

  /** The arguments of a parsed command, anchored to {@code expRoot}. */
  static List<String> of(ParseResult parsed, Path expRoot) {
    List<String> out = new ArrayList<>();
    boolean root = false;
    for (OptionSpec o : parsed.matchedOptions()) {
      String name = o.longestName();
      if (name.equals("--format") || o.usageHelp() || o.versionHelp()) {
        continue; // how the result is printed, not what is planned
      }
      if (name.equals("--exp-root")) {
        root = true;
      }
      if (o.arity().max() == 0) {
        out.add(name);
        continue;
      }
      for (String v : o.originalStringValues()) {
        out.add(name);
        out.add(
            o.type() == Path.class ? PlanPaths.relative(expRoot, Path.of(v)) : redacted(name, v));
      }
    }
    if (!root) {
      out.add("--exp-root");
      out.add(".");
    }
    return out;
  }

  private static String redacted(String option, String value) {
    ObjectNode probe = Json.JSON.createObjectNode();
    probe.put(option.replaceFirst("^-+", "").replace('-', '_'), value);
    List<SecretScanner.Finding> found = SecretScanner.scan(probe);
    return found.isEmpty() ? value : "<redacted: " + found.get(0).kind() + ">";
  }

  /**
   * Recorded arguments with every path value of {@code command}'s options resolved against {@code
   * expRoot}.
   */
  static List<String> anchored(picocli.CommandLine command, List<String> recorded, Path expRoot) {
    List<String> out = new ArrayList<>(recorded);
    for (int i = 0; i + 1 < out.size(); i++) {
      OptionSpec o = command.getCommandSpec().findOption(out.get(i));
      if (o != null && o.type() == Path.class) {
        out.set(i + 1, PlanPaths.resolve(expRoot, out.get(i + 1)).toString());
        i++;
      } else if (o != null && o.arity().max() > 0) {
        i++;
      }
    }
    return out;
  }
}
