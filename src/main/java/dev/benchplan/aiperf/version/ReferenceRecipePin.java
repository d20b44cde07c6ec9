package dev.benchplan.aiperf.version;

import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The AIPerf pin found in a reference recipe's benchmark manifest (a Dynamo recipe perf.yaml):
 * {@code pip install aiperf==X}, an {@code ai-dynamo/aiperf:X} image, or a source commit ({@code
 * aiperf.git@<sha>}).
 *
 * @param versions distinct versions pinned, sorted
 * @param commits distinct source commits pinned, sorted
 */
public record ReferenceRecipePin(List<String> versions, List<String> commits) {
  private static final Pattern PIP =
      Pattern.compile("\\baiperf\\s*==\\s*([0-9][0-9A-Za-z.!+_-]*[0-9A-Za-z])");
  private static final Pattern IMAGE =
      Pattern.compile("ai-dynamo/aiperf:([0-9][0-9A-Za-z.+_-]*[0-9A-Za-z])");
  private static final Pattern GIT = Pattern.compile("aiperf(?:\\.git)?@([0-9a-f]{7,40})\\b");

  public ReferenceRecipePin {
    versions = List.copyOf(versions);
    commits = List.copyOf(commits);
  }

  /** Finds every pin in the manifest text. */
  public static ReferenceRecipePin find(String manifest) {
    TreeSet<String> versions = new TreeSet<>();
    TreeSet<String> commits = new TreeSet<>();
    for (Pattern p : List.of(PIP, IMAGE)) {
      Matcher m = p.matcher(manifest);
      while (m.find()) {
        versions.add(m.group(1));
      }
    }
    Matcher g = GIT.matcher(manifest);
    while (g.find()) {
      commits.add(g.group(1));
    }
    return new ReferenceRecipePin(List.copyOf(versions), List.copyOf(commits));
  }
}
