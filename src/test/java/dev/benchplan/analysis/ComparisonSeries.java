package dev.benchplan.analysis;

import dev.benchplan.runrecord.RunRecordDocument;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A generated comparison series with known answers (issue 31's fixture): two candidates ({@code
 * before}, {@code after}) x four load points (concurrency 1, 4, 16, 64) x three repetitions of 400
 * requests each, as plain AIPerf folders or benchplan run directories, and a 1 vs 1 pair.
 *
 * <p>The truth, by construction: {@code after} has TTFT x 1.30 at concurrency 4 ({@link
 * #TTFT_POINT}) and output throughput x 1.08 at concurrency 16 ({@link #THROUGHPUT_POINT}); every
 * other load point and metric is unchanged. Repetition 2 of {@code after} at concurrency 64 ({@link
 * #ERROR_POINT}) has 12 of 400 requests failed (3%, over the default 1% limit). Run-to-run noise:
 * throughput and the TTFT level each vary with CV 2% (seeded Gaussian), per-request TTFT uniformly
 * +-20% around that level. 400 requests: p99 needs 1,000 ({@code n x min(p, 1-p) >= 10}), so p99 is
 * not estimable; concurrency 64 has fewer than 8 x C = 512 measured requests.
 */
public final class ComparisonSeries {
  public static final int[] CONCURRENCY = {1, 4, 16, 64};
  public static final int REPETITIONS = 3;
  public static final int REQUESTS = 400;
  public static final int TTFT_POINT = 4;
  public static final int THROUGHPUT_POINT = 16;
  public static final int ERROR_POINT = 64;
  public static final int ERROR_REPETITION = 2;
  public static final int ERRORS = 12;
  public static final double CV = 0.02;

  private ComparisonSeries() {}

  /** Base output throughput (tokens/s) at a load point. */
  static double throughput(int concurrency) {
    return 50.0 * concurrency / (1 + concurrency / 32.0);
  }

  /** Base TTFT level (ms) at a load point. */
  static double ttft(int concurrency) {
    return 30.0 * (1 + concurrency / 16.0);
  }

  /** One generated run: the candidate, its load point and repetition (1-based). */
  static GeneratedRun run(String candidate, int concurrency, int repetition) {
    boolean after = candidate.equals("after");
    long seed = 31_000L + (after ? 1000 : 0) + concurrency * 10L + repetition;
    SplittableRandom noise = new SplittableRandom(seed * 7919);
    double tput = throughput(concurrency) * (1 + CV * noise.nextGaussian());
    double level = ttft(concurrency) * (1 + CV * noise.nextGaussian());
    if (after && concurrency == THROUGHPUT_POINT) {
      tput *= 1.08;
    }
    if (after && concurrency == TTFT_POINT) {
      level *= 1.30;
    }
    return new GeneratedRun()
        .requests(REQUESTS)
        .concurrency(concurrency)
        .throughput(tput)
        .ttft(level)
        .seed(seed)
        .startNs(1_762_551_534_000_000_000L + seed * 1_000_000_000L)
        .errors(after && concurrency == ERROR_POINT && repetition == ERROR_REPETITION ? ERRORS : 0);
  }

  /** The folder name of one run: {@code <candidate>/c<C>-r<rep>}. */
  static String name(String candidate, int concurrency, int repetition) {
    return candidate + "/c" + concurrency + "-r" + repetition;
  }

  /**
   * Writes every run of {@code candidate} as plain AIPerf folders under {@code root} and returns
   * them (load point by load point, repetitions in order).
   */
  public static List<Path> writePlain(Path root, String candidate) throws IOException {
    List<Path> out = new ArrayList<>();
    for (int c : CONCURRENCY) {
      for (int rep = 1; rep <= REPETITIONS; rep++) {
        out.add(run(candidate, c, rep).write(root.resolve(name(candidate, c, rep))));
      }
    }
    return out;
  }

  /** The plain AIPerf folders of one candidate at one load point. */
  public static List<Path> writePlain(Path root, String candidate, int concurrency)
      throws IOException {
    List<Path> out = new ArrayList<>();
    for (int rep = 1; rep <= REPETITIONS; rep++) {
      out.add(
          run(candidate, concurrency, rep).write(root.resolve(name(candidate, concurrency, rep))));
    }
    return out;
  }

  /**
   * Writes every run of {@code candidate} as benchplan run directories ({@code aiperf/} and
   * run.json naming the series, the plan and the load point) under {@code root/runs/}.
   */
  public static List<Path> writeRunDirectories(
      Path root, String candidate, Path plan, String planSha, String series) throws IOException {
    List<Path> out = new ArrayList<>();
    for (int c : CONCURRENCY) {
      for (int rep = 1; rep <= REPETITIONS; rep++) {
        String id = candidate + "-c" + c + "-r" + rep;
        out.add(
            run(candidate, c, rep)
                .writeRunDirectory(
                    root.resolve("runs").resolve(id),
                    series,
                    plan,
                    planSha,
                    null,
                    candidateBlock(candidate)));
      }
    }
    return out;
  }

  /**
   * run.json's {@code candidate} block of a generated build: its own ledger and DGD manifest
   * (SHA-256 of the build's name), one DGD and endpoint for both builds.
   */
  public static RunRecordDocument.Candidate candidateBlock(String candidate) {
    return new RunRecordDocument.Candidate(
        dev.benchplan.json.Sha256.hex(
            ("ledger " + candidate).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        "bench/vllm-agg",
        dev.benchplan.json.Sha256.hex(
            ("dgd " + candidate).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        "http://vllm-agg-frontend.bench:8000");
  }

  /**
   * The quick before/after pair (1 vs 1) at concurrency {@link #TTFT_POINT}: {@code before} and
   * {@code after} repetition 1, the true +30% TTFT change.
   */
  public static List<Path> writePair(Path root) throws IOException {
    return List.of(
        run("before", TTFT_POINT, 1).write(root.resolve("pair/before")),
        run("after", TTFT_POINT, 1).write(root.resolve("pair/after")));
  }
}
