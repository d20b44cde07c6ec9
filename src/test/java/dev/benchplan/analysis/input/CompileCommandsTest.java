package dev.benchplan.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The launcher leaves some of the records parser's methods to C1 by name ({@code bin/benchplan},
 * {@code MaxNodeLimit}): a method renamed here would silently be compiled by C2 again. {@code
 * LauncherAnalyzeIT} checks that the JVM does what the launcher asks.
 */
class CompileCommandsTest {
  /** The methods the launcher names, from its loop over RecordLineParser's methods. */
  static List<String> named() throws Exception {
    String launcher = Files.readString(Paths.get("bin", "benchplan"), StandardCharsets.UTF_8);
    Matcher m =
        Pattern.compile(
                "for m in ([a-z ]+); do\\s+jvm_opts\\+=\\(-XX:CompileCommand=MaxNodeLimit,"
                    + Pattern.quote(RecordLineParser.class.getName())
                    + "::\\$m,\\d+\\)")
            .matcher(launcher);
    assertThat(m.find()).as("the launcher's MaxNodeLimit loop").isTrue();
    return List.of(m.group(1).trim().split(" +"));
  }

  @Test
  @DisplayName(
      "every parser method the launcher leaves to C1 exists; the per-value loops are not among them")
  void namesExist() throws Exception {
    List<String> named = named();
    assertThat(named).contains("metadata", "metric");
    List<String> declared =
        Arrays.stream(RecordLineParser.class.getDeclaredMethods()).map(Method::getName).toList();
    assertThat(declared).containsAll(named);
    assertThat(named).doesNotContain("values", "number", "ws", "next");
  }
}
