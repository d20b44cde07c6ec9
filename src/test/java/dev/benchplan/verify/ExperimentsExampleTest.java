package dev.benchplan.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The worked example series committed in experiments/ verifies with {@code benchplan verify} on
 * every test run, so it cannot rot: a change to plan, render, run or the gate that changes their
 * output makes this test fail until the example is regenerated (scripts/regenerate-experiments.sh).
 */
class ExperimentsExampleTest {
  static final Path EXP = Path.of("experiments");

  static List<Path> list(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  @Test
  @DisplayName(
      "every committed plan, DEPLOY_ROOT and run directory of experiments/ verifies (plans by the"
          + " SHA-256 their render-manifest records; the run's verdict recomputed); the run is labelled synthetic")
  void committedExampleVerifies() throws Exception {
    List<Path> deployRoots = list(EXP.resolve("deploy"));
    assertThat(deployRoots).hasSize(2);
    assertThat(list(EXP.resolve("inputs/benchmark-plans"))).hasSize(2);
    int runs = 0;
    for (Path deploy : deployRoots) {
      JsonNode manifest =
          Json.JSON.readTree(Files.readString(deploy.resolve("benchmark/render-manifest.json")));
      String sha = manifest.at("/plan/sha256").asString();
      Path plan = EXP.resolve("inputs/benchmark-plans").resolve(deploy.getFileName() + ".json");
      assertThat(CommandHarness.run("verify", plan.toString(), "--sha256", sha).expectOk().out())
          .contains("verified: plan")
          .contains("re-derived offline");
      assertThat(CommandHarness.run("verify", deploy.toString()).expectOk().out())
          .contains("re-rendered byte for byte");
      Path runsDir = deploy.resolve("benchmark/runs");
      if (!Files.isDirectory(runsDir)) {
        continue;
      }
      for (Path run : list(runsDir)) {
        runs++;
        assertThat(CommandHarness.run("verify", run.toString()).expectOk().out())
            .contains("verified: run")
            .contains("verdict recomputed")
            .doesNotContain("not recomputed");
        assertThat(Files.readString(run.resolve("aiperf/SYNTHETIC.txt")))
            .startsWith("Synthetic data");
        JsonNode verdict = Json.JSON.readTree(Files.readString(run.resolve("verdict.json")));
        assertThat(verdict.at("/capacity/load_point").asString()).isEqualTo("2");
      }
    }
    assertThat(runs).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "experiments/ stays small (every file under 64 KiB, all under 512 KiB) and its data holds no absolute path")
  void small() throws Exception {
    long total = 0;
    try (Stream<Path> s = Files.walk(EXP)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        long size = Files.size(f);
        assertThat(size).as(f.toString()).isLessThan(64 * 1024);
        total += size;
        if (f.toString().endsWith(".md")) {
          continue; // prose; its captured commands may show a scratch folder
        }
        assertThat(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1))
            .as(f.toString())
            .doesNotContain(Path.of("").toAbsolutePath().toString())
            .doesNotContain("/tmp/");
      }
    }
    assertThat(total).isLessThan(512 * 1024);
  }
}
