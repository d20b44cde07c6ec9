package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TraceInspectShortcut}: the same output as the parsed command, or no shortcut at all. */
class TraceInspectShortcutTest {
  @TempDir Path dir;

  private static CommandHarness.Result shortcut(String... args) {
    TraceInspectShortcut.Call call = TraceInspectShortcut.parse(args);
    assertThat(call).as("a shortcut for %s", List.of(args)).isNotNull();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        TraceInspectShortcut.run(call, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CommandHarness.Result(code, out.toString(), err.toString());
  }

  private List<Path> traces() throws IOException {
    List<Path> traces = new ArrayList<>();
    traces.add(SharedData.require("mooncake/conversation_trace.jsonl"));
    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(
        bad,
        "{\"timestamp\": 1, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1, 2]}\n"
            + "{\"timestamp\": -1, \"input_length\": \"x\"}\n"
            + "not json\n"
            + "{\"timestamp\": 0, \"input_length\": 1025, \"hash_ids\": [1]}\n",
        StandardCharsets.UTF_8);
    traces.add(bad);
    Path empty = dir.resolve("empty.jsonl");
    Files.createFile(empty);
    traces.add(empty);
    Path gzip = dir.resolve("t.jsonl.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gzip))) {
      o.write("{\"timestamp\": 0, \"input_length\": 5}\n".getBytes(StandardCharsets.UTF_8));
    }
    traces.add(gzip);
    traces.add(dir.resolve("missing.jsonl"));
    Path folder = dir.resolve("folder");
    Files.createDirectory(folder);
    traces.add(folder);
    return traces;
  }

  @Test
  @DisplayName("every format spelling and file: stdout, stderr and exit code as the parsed command")
  void sameAsParsed() throws IOException {
    for (Path trace : traces()) {
      String t = trace.toString();
      List<String[]> calls =
          List.of(
              new String[] {"trace", "inspect", t},
              new String[] {"trace", "inspect", t, "--format", "json"},
              new String[] {"trace", "inspect", "--format", "text", t},
              new String[] {"trace", "inspect", t, "--format=json"});
      for (String[] args : calls) {
        CommandHarness.Result parsed = CommandHarness.run(args);
        CommandHarness.Result direct = shortcut(args);
        assertThat(direct).as("%s", List.of(args)).isEqualTo(parsed);
      }
    }
  }

  @Test
  @DisplayName("anything else is left to the parser")
  void othersParsed() {
    List<String[]> others =
        List.of(
            new String[] {"trace", "inspect"},
            new String[] {"trace", "inspect", "a", "b"},
            new String[] {"trace", "inspect", "a", "--format"},
            new String[] {"trace", "inspect", "a", "--format", "JSON"},
            new String[] {"trace", "inspect", "a", "--format", "yaml"},
            new String[] {"trace", "inspect", "a", "--format", "json", "--format", "text"},
            new String[] {"trace", "inspect", "a", "--block-size", "16"},
            new String[] {"trace", "inspect", "a", "--help"},
            new String[] {"trace", "inspect", "@args"},
            new String[] {"trace", "inspect", "-"},
            new String[] {"trace", "inspect", ""},
            new String[] {"--stacktrace", "trace", "inspect", "a"},
            new String[] {"trace", "inspect", "a", "--stacktrace"},
            new String[] {"trace", "info", "a"},
            new String[] {"plan", "inspect", "a"});
    for (String[] args : others) {
      assertThat(TraceInspectShortcut.parse(args)).as("%s", List.of(args)).isNull();
    }
    assertThat(TraceInspectShortcut.parse(new String[] {"trace", "inspect", "a.jsonl"}))
        .isEqualTo(new TraceInspectShortcut.Call(Path.of("a.jsonl"), false));
  }
}
