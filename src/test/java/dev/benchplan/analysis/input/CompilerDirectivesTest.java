package dev.benchplan.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/compiler-directives.json}, which the launcher passes to the JVM for analyze, compare
 * and verify: a method it names that no longer exists would make the directive silently do nothing,
 * and a file the JVM cannot parse would stop every one of those commands.
 */
class CompilerDirectivesTest {
  private static final Path FILE = Paths.get("bin", "compiler-directives.json");
  private static final Pattern MATCH = Pattern.compile("\"([a-zA-Z0-9/$]+)\\.([a-zA-Z0-9_]+)\"");

  private static List<String[]> named() throws Exception {
    String text = Files.readString(FILE, StandardCharsets.UTF_8);
    Matcher m = MATCH.matcher(text);
    List<String[]> out = new java.util.ArrayList<>();
    while (m.find()) {
      out.add(new String[] {m.group(1).replace('/', '.'), m.group(2)});
    }
    return out;
  }

  @Test
  @DisplayName("every method the directives name is declared by the records parser")
  void namesExist() throws Exception {
    List<String[]> named = named();
    assertThat(named).hasSizeGreaterThanOrEqualTo(5);
    for (String[] n : named) {
      assertThat(n[0]).isEqualTo(RecordLineParser.class.getName());
      assertThat(Arrays.stream(RecordLineParser.class.getDeclaredMethods()).map(Method::getName))
          .as("%s.%s", n[0], n[1])
          .contains(n[1]);
    }
    // the per-value inner loops stay with C2: excluding them would slow every value down
    assertThat(named.stream().map(n -> n[1])).doesNotContain("values", "number", "ws", "next");
  }

  @Test
  @DisplayName("the JVM parses the file and excludes exactly those methods from C2")
  void jvmAcceptsIt() throws Exception {
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:CompilerDirectivesFile=" + FILE.toAbsolutePath(),
                "-XX:+CompilerDirectivesPrint",
                "-version")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("1 compiler directives added");
    String c2 = out.substring(out.indexOf("c2 directives:"));
    assertThat(c2).contains("Exclude:true");
    for (String[] n : named()) {
      assertThat(out).contains(n[0].replace('.', '/') + "." + n[1]);
    }
  }
}
