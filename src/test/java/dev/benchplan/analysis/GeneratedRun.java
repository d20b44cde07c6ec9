package dev.benchplan.analysis;

import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.json.Json;
import dev.benchplan.runrecord.RunRecordDocument;
import dev.benchplan.testing.RunRecords;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes an AIPerf-shaped run directory (summary export + per-request records) whose answers the
 * tests know by construction. Per-request TTFT is drawn around {@code ttftMs}; the summary's
 * throughput is {@code throughput} exactly.
 */
public final class GeneratedRun {
  int requests = 200;
  double throughput = 5000;
  double ttftMs = 100;
  double itlMs = 10;
  String aiperfVersion = "0.13.0";
  int isl = 1000;
  int osl = 200;
  int concurrency = 16;
  long seed = 1;
  boolean nanInSummary;
  boolean duplicateIds;
  boolean cancelled;
  boolean summary = true;

  /** The last {@code errors} of the {@code requests} fail (HTTP 500); the summary counts them. */
  int errors;

  /** The first request's start (ns since the epoch); distinct per run unless a test copies one. */
  long startNs = 1_762_551_534_000_000_000L;

  /** TTFT grows linearly by this fraction from the first request to the last (drift). */
  double ttftDrift;

  /** The first {@code slowStart} requests have three times the TTFT (warm-up leaking in). */
  int slowStart;

  /**
   * Every {@code stallEvery}-th request (0: none) waits 20 times the TTFT: a separate slow group,
   * as a stalled worker leaves (benchmarking/stall-diagnosis.md).
   */
  int stallEvery;

  /** AIPerf's warmup request count in input_config.loadgen (0: not recorded). */
  int warmup;

  GeneratedRun throughput(double t) {
    throughput = t;
    return this;
  }

  GeneratedRun ttft(double t) {
    ttftMs = t;
    return this;
  }

  GeneratedRun seed(long s) {
    seed = s;
    return this;
  }

  GeneratedRun concurrency(int c) {
    concurrency = c;
    return this;
  }

  GeneratedRun version(String v) {
    aiperfVersion = v;
    return this;
  }

  GeneratedRun osl(int v) {
    osl = v;
    return this;
  }

  GeneratedRun isl(int v) {
    isl = v;
    return this;
  }

  GeneratedRun requests(int n) {
    requests = n;
    return this;
  }

  GeneratedRun errors(int n) {
    errors = n;
    return this;
  }

  GeneratedRun warmup(int n) {
    warmup = n;
    return this;
  }

  GeneratedRun stallEvery(int every) {
    stallEvery = every;
    return this;
  }

  GeneratedRun startNs(long ns) {
    startNs = ns;
    return this;
  }

  /** Sized as the plan's first load point: its request count, concurrency and synthetic ISL/OSL. */
  static GeneratedRun forPlan(Path plan) throws IOException {
    JsonNode p = Json.JSON.readTree(Files.readAllBytes(plan));
    GeneratedRun g =
        new GeneratedRun()
            .requests(p.at("/experiment/request_count").asInt())
            .concurrency(p.at("/experiment/concurrency/0").asInt());
    g.isl = p.at("/workload/synthetic/isl").asInt();
    g.osl = p.at("/workload/synthetic/osl").asInt();
    return g;
  }

  /**
   * A run directory of the planned series at {@code runs/id}, as {@code run} leaves one: the plan's
   * first load point at {@code throughput} (seeded) under aiperf/, run.json naming it with its load
   * point.
   */
  static Path ofPlan(
      Path runs, String id, double throughput, long seed, Path plan, String planSha, String series)
      throws IOException {
    GeneratedRun g = forPlan(plan).seed(seed).throughput(throughput);
    JsonNode d = Json.JSON.readTree(Files.readAllBytes(plan)).path("deployment");
    // as run records it now: the candidate of the plan's own ledger
    RunRecordDocument.Candidate candidate =
        new RunRecordDocument.Candidate(
            d.path("ledger_sha256").asString(),
            d.path("namespace").asString() + "/" + d.path("dgd_name").asString(),
            d.path("dgd_sha256").asString(),
            d.path("endpoint_url").asString());
    return g.writeRunDirectory(runs.resolve(id), series, plan, planSha, null, candidate);
  }

  /**
   * Writes a benchplan run directory: this run's AIPerf files under {@code dir/aiperf/}, and a
   * complete run.json with a run id from the folder's name, the series, the plan (path and SHA-256)
   * and the AB/BA {@code pair} (or none).
   */
  Path writeRunDirectory(
      Path dir, String series, Path plan, String planSha, RunRecordDocument.@Nullable Pair pair)
      throws IOException {
    return writeRunDirectory(dir, series, plan, planSha, pair, null);
  }

  /** As above, with the candidate run.json records (null: an older run.json without one). */
  Path writeRunDirectory(
      Path dir,
      String series,
      Path plan,
      String planSha,
      RunRecordDocument.@Nullable Pair pair,
      RunRecordDocument.@Nullable Candidate candidate)
      throws IOException {
    write(dir.resolve("aiperf"));
    RunRecords.of(series, plan.toString(), planSha)
        .runIdFrom(dir.getFileName().toString())
        .pair(pair)
        .candidate(candidate)
        .write(dir);
    return dir;
  }

  public Path write(Path dir) throws IOException {
    Files.createDirectories(dir);
    SplittableRandom r = new SplittableRandom(seed);
    double[] ttft = new double[requests];
    double[] itl = new double[requests];
    double[] lat = new double[requests];
    long t0 = startNs;
    int ok = requests - errors;
    try (BufferedWriter w =
        Files.newBufferedWriter(dir.resolve("profile_export.jsonl"), StandardCharsets.UTF_8)) {
      for (int i = 0; i < requests; i++) {
        ttft[i] =
            ttftMs
                * (0.8 + 0.4 * r.nextDouble())
                * (1 + ttftDrift * i / Math.max(1, requests - 1))
                * (i < slowStart ? 3 : 1)
                * (stallEvery > 0 && i % stallEvery == 0 ? 20 : 1);
        itl[i] = itlMs * (0.9 + 0.2 * r.nextDouble());
        lat[i] = ttft[i] + itl[i] * (osl - 1);
        long start = t0 + (long) i * 50_000_000L;
        long end = start + (long) (lat[i] * 1e6);
        String id = duplicateIds && i == 5 ? "req-4" : "req-" + i;
        if (i >= ok) {
          w.write(
              ExportVariants.record(id, start, start + 1_000_000L)
                  .error("Internal Server Error", 500)
                  .line());
          continue;
        }
        w.write(
            ExportVariants.record(id, start, end)
                .metric("time_to_first_token", ttft[i], "ms")
                .metric("inter_token_latency", itl[i], "ms")
                .metric("request_latency", lat[i], "ms")
                .metric("output_sequence_length", (long) osl, "tokens")
                .metric("input_sequence_length", (long) isl, "tokens")
                .metric("output_token_throughput_per_user", 1000.0 / itl[i], "tokens/sec/user")
                .line());
      }
    }
    if (!summary) {
      return dir;
    }
    ExportVariants.Summary export = ExportVariants.summary();
    if (aiperfVersion != null) {
      export.version(aiperfVersion);
    }
    export
        .metric("output_token_throughput", "tokens/sec", throughput)
        .metric("request_throughput", "requests/sec", throughput / osl)
        .metric("request_count", "requests", (double) ok);
    if (errors > 0) {
      export.metric("error_request_count", "requests", (double) errors);
    }
    double[] okTtft = Arrays.copyOf(ttft, ok);
    double[] okItl = Arrays.copyOf(itl, ok);
    double[] okLat = Arrays.copyOf(lat, ok);
    export
        .metric("time_to_first_token", "ms", mean(okTtft), okTtft)
        .metric("inter_token_latency", "ms", mean(okItl), okItl)
        .metric("request_latency", "ms", mean(okLat), okLat)
        .metric("output_token_throughput_per_user", "tokens/sec/user", 1000.0 / itlMs)
        .metric("input_sequence_length", "tokens", (double) isl)
        .metric("output_sequence_length", "tokens", (double) osl)
        .loadgen(concurrency, requests);
    ObjectNode s = export.tree();
    ObjectNode ic = s.withObject("/input_config");
    ic.putObject("endpoint")
        .put("type", "chat")
        .put("streaming", true)
        .putArray("model_names")
        .add("Qwen/Qwen3-0.6B");
    ObjectNode prompt = ic.putObject("input").put("random_seed", 100).putObject("prompt");
    prompt.putObject("input_tokens").put("mean", isl).put("stddev", 0);
    prompt.putObject("output_tokens").put("mean", osl).put("stddev", 0);
    if (warmup > 0) {
      s.withObject("/input_config/loadgen").put("warmup_request_count", warmup);
    }
    s.put("was_cancelled", cancelled);
    String json = Json.JSON.writeValueAsString(s);
    if (nanInSummary) {
      json = json.replaceFirst("\"avg\" : [0-9.E-]+", "\"avg\" : NaN");
    }
    Files.writeString(dir.resolve("profile_export_aiperf.json"), json, StandardCharsets.UTF_8);
    return dir;
  }

  private static double mean(double[] v) {
    return Arrays.stream(v).average().orElse(Double.NaN);
  }
}
