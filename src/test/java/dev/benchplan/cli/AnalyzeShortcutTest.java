package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.GeneratedRun;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AnalyzeShortcut}: the same output as the parsed command, or no shortcut at all. */
class AnalyzeShortcutTest {
  @TempDir Path dir;

  private static CommandHarness.Result shortcut(String... args) {
    AnalyzeShortcut.Call call = AnalyzeShortcut.parse(args);
    assertThat(call).as("a shortcut for %s", List.of(args)).isNotNull();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = AnalyzeShortcut.run(call, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CommandHarness.Result(code, out.toString(), err.toString());
  }

  /** The call with its two output folders under {@code side} (parsed or shortcut). */
  private static String[] call(String spelling, Path run, Path side) {
    String exp = side.resolve("exp").toString();
    String out = side.resolve("out").toString();
    return switch (spelling) {
      case "text" ->
          new String[] {"analyze", run.toString(), "--exp-root", exp, "--report-dir", out};
      case "json" ->
          new String[] {
            "analyze", "--format", "json", run.toString(), "--exp-root=" + exp, "--report-dir", out
          };
      case "json=" -> new String[] {"analyze", run.toString(), "--exp-root", exp, "--format=json"};
      default -> throw new IllegalArgumentException(spelling);
    };
  }

  private List<Path> runs() throws IOException {
    List<Path> runs = new ArrayList<>();
    runs.add(new GeneratedRun().write(dir.resolve("generated")));
    runs.add(SharedData.require("aiperf/sweep-qwen3-0.6b"));
    runs.add(dir.resolve("missing"));
    Path file = dir.resolve("a-file");
    Files.writeString(file, "not a run\n");
    runs.add(file);
    Path empty = dir.resolve("empty");
    Files.createDirectory(empty);
    runs.add(empty);
    return runs;
  }

  @Test
  @DisplayName(
      "runs good and bad, each format spelling: stdout, stderr, exit code and files as the parsed"
          + " command")
  void sameAsParsed() throws IOException {
    int n = 0;
    for (Path run : runs()) {
      for (String spelling : List.of("text", "json", "json=")) {
        Path parsedSide = dir.resolve("p" + n);
        Path directSide = dir.resolve("d" + n);
        n++;
        CommandHarness.Result parsed = CommandHarness.run(call(spelling, run, parsedSide));
        CommandHarness.Result direct = shortcut(call(spelling, run, directSide));
        String label = spelling + " " + run.getFileName();
        assertThat(direct.exitCode()).as(label).isEqualTo(parsed.exitCode());
        assertThat(direct.out().replace(directSide.toString(), parsedSide.toString()))
            .as(label)
            .isEqualTo(parsed.out());
        assertThat(direct.err().replace(directSide.toString(), parsedSide.toString()))
            .as(label)
            .isEqualTo(parsed.err());
        assertThat(files(directSide)).as(label).isEqualTo(files(parsedSide));
      }
    }
  }

  /** The files written under a side, by relative path. */
  private static List<String> files(Path side) throws IOException {
    if (!Files.exists(side)) {
      return List.of();
    }
    try (var s = Files.walk(side)) {
      return s.filter(Files::isRegularFile)
          .map(p -> side.relativize(p).toString())
          .sorted()
          .toList();
    }
  }

  @Test
  @DisplayName("anything else is left to the parser")
  void othersParsed() throws IOException {
    Path file = dir.resolve("f");
    Files.writeString(file, "x");
    List<String[]> others =
        List.of(
            new String[] {"analyze"},
            new String[] {"analyze", "--exp-root", "e"},
            new String[] {"analyze", "r", "--gpus", "8"},
            new String[] {"analyze", "r", "--slo", "time_to_first_token.p99<=500"},
            new String[] {"analyze", "r", "--format", "yaml"},
            new String[] {"analyze", "r", "--format", "JSON"},
            new String[] {"analyze", "r", "--format", "json", "--format", "text"},
            new String[] {"analyze", "r", "--exp-root", "a", "--exp-root", "b"},
            new String[] {"analyze", "r", "--report-dir", file.toString()},
            new String[] {"analyze", "r", "--exp-root", file.resolve("below").toString()},
            new String[] {"analyze", "r", "--exp-root"},
            new String[] {"analyze", "r", "--exp-root", "--format"},
            new String[] {"analyze", "r", "--help"},
            new String[] {"analyze", "r", "-h"},
            new String[] {"analyze", "@args"},
            new String[] {"analyze", "--", "r"},
            new String[] {"analyze", ""},
            new String[] {"--stacktrace", "analyze", "r"},
            new String[] {"compare", "r"});
    for (String[] args : others) {
      assertThat(AnalyzeShortcut.parse(args)).as("%s", List.of(args)).isNull();
    }
    assertThat(AnalyzeShortcut.parse(new String[] {"analyze", "a", "b"}))
        .isEqualTo(
            new AnalyzeShortcut.Call(
                List.of(Path.of("a"), Path.of("b")), Path.of("experiments"), null, false));
  }
}
