package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stand-in aiperf writes the real sweep's files in every layout of the reference table. */
class StandInAiperfTest {
  @TempDir Path tmp;
  Path data;
  Path bin;

  @BeforeEach
  void setUp() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/python3"))
            || Files.isExecutable(Path.of("/bin/python3")),
        "skipped: python3 is needed");
    data = SharedData.require(PodExecution.REAL_SWEEP);
    bin = StandInAiperf.install(tmp.resolve("standin"));
  }

  private String run(List<String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(bin.resolve("aiperf").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put(StandInAiperf.DATA_ENV, data.toString());
    for (String e : env) {
      String[] kv = e.split("=", 2);
      pb.environment().put(kv[0], kv[1]);
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  private List<String> tree(Path base) throws Exception {
    try (Stream<Path> s = Files.walk(base)) {
      return s.filter(Files::isRegularFile)
          .map(f -> base.relativize(f).toString())
          .sorted()
          .toList();
    }
  }

  private void sameAs(Path run, String source) {
    for (String f :
        List.of(
            "profile_export_aiperf.json", "profile_export.jsonl", "gpu_telemetry_export.jsonl")) {
      assertThat(Sha256.ofFile(run.resolve(f)))
          .as(run + "/" + f)
          .isEqualTo(Sha256.ofFile(data.resolve(source).resolve(f)));
    }
  }

  @Test
  @DisplayName("one run: the real files straight into the artifact dir, and AIPerf-like output")
  void single() throws Exception {
    Path base = tmp.resolve("a");
    String out =
        run(
            List.of(),
            "profile",
            "--artifact-dir",
            base.toString(),
            "--concurrency",
            "2",
            "--model",
            "x");
    assertThat(tree(base))
        .containsExactly(
            "gpu_telemetry_export.jsonl", "profile_export.jsonl", "profile_export_aiperf.json");
    sameAs(base, "concurrency2");
    assertThat(out).contains("Starting AIPerf System", "Profiling: 64/64");
  }

  @Test
  @DisplayName(
      "multi-run from a native config (pod paths remapped): profile_runs/run_NNNN + aggregate")
  void multiRunConfig() throws Exception {
    Path base = tmp.resolve("local-artifacts");
    Path config = tmp.resolve("c.yaml");
    Files.writeString(
        config,
        "schemaVersion: \"2.0\"\nbenchmark:\n  phases:\n  - name: \"warmup\"\n    concurrency: 1\n"
            + "  - name: \"profiling\"\n    concurrency: 16\n  artifacts:\n    dir: \"/artifacts/run-1\"\n    summary:\n    - \"json\"\n"
            + "multiRun:\n  numRuns: 3\n");
    run(
        List.of(StandInAiperf.PATH_MAP_ENV + "=/artifacts=" + base),
        "profile",
        "--config",
        config.toString());
    Path root = base.resolve("run-1");
    assertThat(tree(root))
        .contains(
            "aggregate/profile_export_aiperf_aggregate.json",
            "profile_runs/run_0001/profile_export_aiperf.json",
            "profile_runs/run_0003/profile_export.jsonl");
    sameAs(root.resolve("profile_runs/run_0002"), "concurrency4");
    var agg =
        Json.JSON.readTree(
            Files.readAllBytes(root.resolve("aggregate/profile_export_aiperf_aggregate.json")));
    assertThat(agg.at("/metadata/num_profile_runs").asInt()).isEqualTo(3);
    assertThat(agg.at("/metadata/aggregation_type").asString()).isEqualTo("confidence");
    assertThat(agg.at("/metrics/request_throughput_avg/std").asDouble()).isZero();
  }

  @Test
  @DisplayName(
      "sweeps: one folder per value (+ sweep_aggregate); with repetitions, repeated and independent")
  void sweeps() throws Exception {
    Path one = tmp.resolve("s1");
    run(List.of(), "profile", "--artifact-dir", one.toString(), "--concurrency", "1,2,4");
    assertThat(tree(one))
        .contains(
            "concurrency_1/profile_export_aiperf.json",
            "concurrency_4/profile_export.jsonl",
            "sweep_aggregate/profile_export_aiperf_sweep.json");
    sameAs(one.resolve("concurrency_4"), "concurrency4");
    Path repeated = tmp.resolve("s2");
    run(
        List.of(),
        "profile",
        "--artifact-dir",
        repeated.toString(),
        "--concurrency",
        "1,2",
        "--num-profile-runs",
        "2");
    assertThat(tree(repeated))
        .contains(
            "profile_runs/trial_0002/concurrency_2/profile_export_aiperf.json",
            "aggregate/concurrency_1/profile_export_aiperf_aggregate.json",
            "aggregate/sweep_aggregate/profile_export_aiperf_sweep.json");
    Path independent = tmp.resolve("s3");
    run(
        List.of(StandInAiperf.RECORDS_BYTES_ENV + "=100000"),
        "profile",
        "--artifact-dir",
        independent.toString(),
        "--concurrency",
        "1,2",
        "--num-profile-runs",
        "2",
        "--parameter-sweep-mode",
        "independent");
    assertThat(tree(independent))
        .contains(
            "concurrency_2/profile_runs/trial_0001/profile_export_aiperf.json",
            "concurrency_2/aggregate/profile_export_aiperf_aggregate.json",
            "sweep_aggregate/profile_export_aiperf_sweep.json");
    assertThat(
            Files.size(
                independent.resolve("concurrency_1/profile_runs/trial_0001/profile_export.jsonl")))
        .isGreaterThanOrEqualTo(100000);
  }
}
