package dev.benchplan.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * What the exit codes of the commands without an "Exit codes:" footer of their own mean (smoke,
 * run, gate, validate, analyze and compare write theirs in their {@code @Command} footer). Every
 * command's {@code --help} thus ends with one list, and the README's exit-code table is captured
 * from those lists (scripts/docs-captures.sh exit-codes): help and README cannot disagree.
 */
final class CommandExitCodes {
  private static final String WRITE = "3   an output cannot be written";
  private static final String BUG = "4   internal bug";

  /** Command path ("rbac run") -> its codes, each "N meaning". */
  static final Map<String, List<String>> TABLE = table();

  private CommandExitCodes() {}

  private static Map<String, List<String>> table() {
    Map<String, List<String>> t = new LinkedHashMap<>();
    t.put("trace inspect", List.of("0   the trace is valid", "2   invalid rows or bad input", BUG));
    t.put(
        "plan",
        List.of(
            "0   plan written (or an existing series reused)",
            "2   blocker or bad input (nothing written)",
            WRITE,
            BUG));
    t.put(
        "render",
        List.of("0   files written", "2   invalid input or refused (nothing written)", WRITE, BUG));
    t.put("verify", List.of("0   verified", "1   mismatch", "2   bad input", BUG));
    t.put("rbac run", List.of("0   rules printed", "2   bad input", BUG));
    t.put("rbac validate", List.of("0   rules printed", "2   bad input", BUG));
    return t;
  }

  /** Installs each listed command's exit codes into its help. */
  static void install(CommandLine root) {
    for (CommandLine sub : root.getSubcommands().values()) {
      install(sub, sub.getCommandName());
    }
  }

  private static void install(CommandLine cl, String path) {
    List<String> codes = TABLE.get(path);
    if (codes != null && cl.getCommandSpec().usageMessage().footer().length == 0) {
      Map<String, String> list = new LinkedHashMap<>();
      for (String c : codes) {
        list.put(c.substring(0, 1), c.substring(4));
      }
      cl.getCommandSpec().usageMessage().exitCodeListHeading("Exit codes:%n").exitCodeList(list);
    }
    for (CommandLine sub : cl.getSubcommands().values()) {
      install(sub, path + " " + sub.getCommandName());
    }
  }
}
