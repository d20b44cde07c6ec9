package dev.benchplan.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Docs as tests: every {@code ```console} block in agent-docs/skills/ runs, command by command,
 * through the real CLI (a separate JVM per call, so {@code export SOURCE_DATE_EPOCH=...} moves the
 * planning clock), against examples/. After a {@code $ } command, each line is text its output must
 * contain ({@code $VAR} substituted), or {@code [exit N]}; default exit 0. {@code grep [-c] 'TEXT'
 * FILE} is built in. Variables: {@code $EX} (examples/), {@code $EXP_ROOT}, {@code $DEPLOY_ROOT},
 * {@code $B} (candidate B: DGD vllm-agg-b, Service vllm-agg-b-frontend, namespace bench2), {@code
 * $LONG} (a trace workload with rows over the served context, see {@link #longTrace}), and {@code
 * $PLAN}/{@code $SHA} from the last output holding plan_path and sha256.
 */
class SkillWalkthroughTest {
  static final Path SKILLS = Path.of("agent-docs/skills");
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath().normalize();
  private static final Pattern FENCE =
      Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```", Pattern.DOTALL);

  /** Commands that need a cluster or an endpoint: never run by this test. */
  static final Set<String> NEEDS_CLUSTER = Set.of("smoke", "run", "validate");

  @TempDir Path tmp;

  record Block(Path file, String heading, String text) {}

  static List<Block> blocks(String info) throws IOException {
    List<Block> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(SKILLS)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        String text = Files.readString(f);
        Matcher m = FENCE.matcher(text);
        while (m.find()) {
          if (m.group(1).equals(info) || info == null && !m.group(1).equals("console")) {
            String before = text.substring(0, m.start());
            int h = before.lastIndexOf("\n#");
            out.add(
                new Block(
                    f,
                    h < 0
                        ? f.toString()
                        : before.substring(h + 1, before.indexOf('\n', h + 1)).trim(),
                    m.group(2)));
          }
        }
      }
    }
    return out;
  }

  @Test
  @DisplayName(
      "the skill walks through next week's candidate and the same question next week, as"
          + " runnable blocks")
  void walkthroughsPresent() throws IOException {
    List<String> headings = blocks("console").stream().map(Block::heading).toList();
    assertThat(headings)
        .anySatisfy(h -> assertThat(h).containsIgnoringCase("next week's candidate"))
        .anySatisfy(h -> assertThat(h).containsIgnoringCase("the same question next week"))
        .anySatisfy(
            h -> assertThat(h).containsIgnoringCase("a trace that does not fit the context"))
        .anySatisfy(h -> assertThat(h).containsIgnoringCase("trace and results on one claim"));
  }

  @Test
  @DisplayName(
      "every benchplan command in a block that is not run needs a cluster, or its"
          + " subcommand and options are exercised by a runnable block")
  void everyClusterFreeCommandIsTested() throws IOException {
    Map<String, Set<String>> tested = new HashMap<>();
    for (Block b : blocks("console")) {
      for (List<String> cmd : commands(b.text())) {
        if (cmd.size() > 1 && cmd.get(0).equals("benchplan")) {
          tested.computeIfAbsent(cmd.get(1), k -> new HashSet<>()).addAll(options(cmd));
        }
      }
    }
    for (Block b : blocks(null)) {
      for (List<String> cmd : commands(b.text())) {
        if (cmd.size() < 2
            || !cmd.get(0).equals("benchplan")
            || NEEDS_CLUSTER.contains(cmd.get(1))) {
          continue;
        }
        assertThat(tested)
            .as(
                b.file()
                    + " ("
                    + b.heading()
                    + "): benchplan "
                    + cmd.get(1)
                    + " needs no cluster; a console block must run it")
            .containsKey(cmd.get(1));
        assertThat(tested.get(cmd.get(1)))
            .as(b.file() + " (" + b.heading() + "): options of " + cmd)
            .containsAll(options(cmd));
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> consoleBlocksRun() throws IOException {
    return blocks("console").stream().map(b -> DynamicTest.dynamicTest(b.heading(), () -> run(b)));
  }

  private void run(Block block) throws Exception {
    Path root = Files.createTempDirectory(tmp, "walk");
    Map<String, String> vars = new HashMap<>();
    vars.put("EX", EXAMPLES.toString());
    vars.put("EXP_ROOT", root.resolve("exp").toString());
    vars.put("DEPLOY_ROOT", Files.createDirectories(root.resolve("deploy")).toString());
    vars.put("B", candidateB(root.resolve("candidate-b")).toString());
    vars.put("LONG", longTrace(root.resolve("long")).toString());
    Map<String, String> env = new HashMap<>();
    List<String> lines = block.text().lines().toList();
    for (int i = 0; i < lines.size(); ) {
      String line = lines.get(i);
      if (!line.startsWith("$ ")) {
        i++;
        continue;
      }
      StringBuilder cmd = new StringBuilder(line.substring(2));
      while (cmd.toString().endsWith("\\")) {
        cmd.setLength(cmd.length() - 1);
        cmd.append(' ').append(lines.get(++i).trim());
      }
      i++;
      List<String> expect = new ArrayList<>();
      while (i < lines.size() && !lines.get(i).startsWith("$ ")) {
        expect.add(lines.get(i++));
      }
      List<String> args = new ArrayList<>();
      for (String t : tokens(cmd.toString())) {
        args.add(substitute(t, vars));
      }
      String[] result = execute(args, env, vars);
      int exit = Integer.parseInt(result[0]);
      String output = result[1] + result[2];
      int expectedExit = 0;
      for (String e : expect) {
        Matcher x = Pattern.compile("\\[exit (\\d)]").matcher(e.trim());
        if (x.matches()) {
          expectedExit = Integer.parseInt(x.group(1));
        }
      }
      String where =
          block.file()
              + " ("
              + block.heading()
              + "): $ "
              + cmd
              + "\n--- stdout ---\n"
              + result[1]
              + "\n--- stderr ---\n"
              + result[2];
      assertThat(exit).as(where).isEqualTo(expectedExit);
      for (String e : expect) {
        if (!e.isBlank() && !e.trim().matches("\\[exit \\d]")) {
          assertThat(output).as(where).contains(substitute(e.trim(), vars));
        }
      }
      capture(result[1], vars);
    }
  }

  private static void capture(String stdout, Map<String, String> vars) {
    if (!stdout.trim().startsWith("{")) {
      return;
    }
    JsonNode n = Json.JSON.readTree(stdout);
    if (n.hasNonNull("plan_path") && n.hasNonNull("sha256") && n.get("sha256").isString()) {
      vars.put("PLAN", n.get("plan_path").asString());
      vars.put("SHA", n.get("sha256").asString());
    }
  }

  /** {exit, stdout, stderr}. */
  private static String[] execute(
      List<String> args, Map<String, String> env, Map<String, String> vars) throws Exception {
    switch (args.get(0)) {
      case "export" -> {
        String[] kv = args.get(1).split("=", 2);
        env.put(kv[0], kv[1]);
        return new String[] {"0", "", ""};
      }
      case "grep" -> {
        boolean count = args.get(1).equals("-c");
        String pattern = args.get(count ? 2 : 1);
        List<String> hits =
            Files.readAllLines(Path.of(args.get(count ? 3 : 2))).stream()
                .filter(l -> l.contains(pattern))
                .toList();
        return new String[] {
          hits.isEmpty() && !count ? "1" : "0",
          count ? hits.size() + "\n" : String.join("\n", hits) + "\n",
          ""
        };
      }
      case "benchplan" -> {
        List<String> cmd =
            new ArrayList<>(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    "dev.benchplan.cli.Main"));
        cmd.addAll(args.subList(1, args.size()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("BENCHPLAN_AIPERF_INDEX_URL");
        pb.environment().putAll(env);
        Path out = Files.createTempFile("walk", ".out");
        Path err = Files.createTempFile("walk", ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished: " + args).isTrue();
        return new String[] {
          String.valueOf(p.exitValue()),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8)
        };
      }
      default ->
          throw new AssertionError(
              "a console block may run benchplan, export and grep" + " only: " + args);
    }
  }

  static List<List<String>> commands(String block) {
    List<List<String>> out = new ArrayList<>();
    List<String> lines = block.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).startsWith("$ ") ? lines.get(i).substring(2) : lines.get(i);
      if (!line.startsWith("benchplan ")) {
        continue;
      }
      StringBuilder cmd = new StringBuilder(line);
      while (cmd.toString().endsWith("\\") && i + 1 < lines.size()) {
        cmd.setLength(cmd.length() - 1);
        cmd.append(' ').append(lines.get(++i).trim());
      }
      out.add(tokens(cmd.toString().replaceAll("\\[[^]]*]", " ")));
    }
    return out;
  }

  static Set<String> options(List<String> cmd) {
    Set<String> o = new HashSet<>();
    cmd.stream().filter(t -> t.startsWith("--")).forEach(o::add);
    return o;
  }

  /** Shell-like words: whitespace-separated, '...' and "..." quoted. */
  static List<String> tokens(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean any = false;
    char quote = 0;
    for (char c : s.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          cur.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        any = true;
      } else if (Character.isWhitespace(c)) {
        if (any || cur.length() > 0) {
          out.add(cur.toString());
          cur.setLength(0);
          any = false;
        }
      } else {
        cur.append(c);
      }
    }
    if (any || cur.length() > 0) {
      out.add(cur.toString());
    }
    return out;
  }

  private static String substitute(String s, Map<String, String> vars) {
    Matcher m = Pattern.compile("\\$([A-Z_]+)").matcher(s);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      String v = vars.get(m.group(1));
      m.appendReplacement(b, Matcher.quoteReplacement(v == null ? m.group() : v));
    }
    m.appendTail(b);
    return b.toString();
  }

  /**
   * {@code $LONG}: the example trace workload whose trace has 5 rows over the example ledger's
   * served context (40,960 tokens), at lines 120, 140, 160, 180 and 200 (2.5% of 200: above the
   * default 1% error-rate limit; the first 100 rows, up to 274,129 ms, fit), with variants:
   * workload-budget.yaml (error_rate_max 0.03 and a rationale), workload-no-rationale.yaml (the
   * limit alone) and workload-filtered.yaml (the user's own filtered trace: those rows dropped).
   */
  static Path longTrace(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("traces"));
    List<String> rows = Files.readAllLines(EXAMPLES.resolve("traces/example_trace.jsonl"));
    List<String> all = new ArrayList<>();
    List<String> fitting = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      String row = rows.get(i);
      if ((i + 1) > 100 && (i + 1) % 20 == 0) {
        // 41,000 input tokens: 81 hash blocks of 512, ids no other row uses
        StringBuilder ids = new StringBuilder();
        for (int b = 0; b < 81; b++) {
          ids.append(b == 0 ? "" : ", ").append(100_000 + i * 100 + b);
        }
        row =
            row.replaceFirst("\"input_length\": \\d+", "\"input_length\": 41000")
                .replaceFirst("\"hash_ids\": \\[[^]]*]", "\"hash_ids\": [" + ids + "]");
        all.add(row);
      } else {
        all.add(row);
        fitting.add(row);
      }
    }
    Files.write(dir.resolve("traces/example_trace.jsonl"), all);
    Files.write(dir.resolve("traces/filtered_trace.jsonl"), fitting);
    String workload = Files.readString(EXAMPLES.resolve("workload-trace.yaml"));
    Files.writeString(dir.resolve("workload-trace.yaml"), workload);
    String budget = "objectives:\n  error_rate_max: 0.03\n";
    Files.writeString(
        dir.resolve("workload-budget.yaml"),
        workload.replace(
            "objectives:\n",
            budget
                + "  error_rate_max_rationale: the rows over the served context are expected to"
                + " fail; the run measures the rest\n"));
    Files.writeString(
        dir.resolve("workload-no-rationale.yaml"), workload.replace("objectives:\n", budget));
    Files.writeString(
        dir.resolve("workload-filtered.yaml"),
        workload.replace("traces/example_trace.jsonl", "traces/filtered_trace.jsonl"));
    return dir.toAbsolutePath().normalize();
  }

  /** Candidate B beside the examples: its DGD, the example smoke artifact, and its ledger. */
  static Path candidateB(Path dir) throws IOException {
    Files.createDirectories(dir);
    String dgd =
        Files.readString(EXAMPLES.resolve("dgd.yaml"))
            .replace("name: vllm-agg\n", "name: vllm-agg-b\n");
    Files.writeString(dir.resolve("dgd.yaml"), dgd);
    Files.copy(
        EXAMPLES.resolve("smoke_test_artifact.json"), dir.resolve("smoke_test_artifact.json"));
    String ledger =
        Files.readString(EXAMPLES.resolve("deployment-ledger.yaml"))
            .replace("dgd_name: vllm-agg\n", "dgd_name: vllm-agg-b\n")
            .replace("namespace: bench\n", "namespace: bench2\n")
            .replace("service: vllm-agg-frontend\n", "service: vllm-agg-b-frontend\n")
            .replaceAll(
                "(applied_dgd:\n  path: dgd.yaml\n  sha256: )[0-9a-f]{64}",
                "$1" + Sha256.ofFile(dir.resolve("dgd.yaml")));
    Files.writeString(dir.resolve("deployment-ledger.yaml"), ledger);
    return dir.toAbsolutePath().normalize();
  }
}
