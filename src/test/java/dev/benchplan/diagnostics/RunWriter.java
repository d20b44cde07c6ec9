package dev.benchplan.diagnostics;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Writes a simulated run as an AIPerf artifact directory: per-request records and a summary export.
 */
public final class RunWriter {
  private RunWriter() {}

  /**
   * Writes {@code profile_export.jsonl} and {@code profile_export_aiperf.json} (throughput and TTFT
   * from the records, {@code input_config.loadgen.concurrency = claimed}).
   */
  public static Path write(Path dir, RequestTimeline t, int claimed) throws IOException {
    Files.createDirectories(dir);
    int n = t.size();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    double[] ttft = new double[n];
    try (BufferedWriter w =
        Files.newBufferedWriter(dir.resolve("profile_export.jsonl"), StandardCharsets.UTF_8)) {
      for (int i = 0; i < n; i++) {
        first = Math.min(first, t.startNs(i));
        last = Math.max(last, t.endNs(i));
        ttft[i] = t.ttftMs(i);
        w.write(
            String.format(
                Locale.ROOT,
                "{\"metadata\": {\"x_request_id\": \"req-%d\", \"request_start_ns\": %d,"
                    + " \"request_end_ns\": %d, \"benchmark_phase\": \"profiling\", \"was_cancelled\": false},"
                    + " \"metrics\": {\"time_to_first_token\": {\"value\": %s, \"unit\": \"ms\"},"
                    + " \"request_latency\": {\"value\": %s, \"unit\": \"ms\"},"
                    + " \"output_sequence_length\": {\"value\": 128, \"unit\": \"tokens\"}}, \"error\": null}\n",
                i,
                t.startNs(i),
                t.endNs(i),
                t.ttftMs(i),
                (t.endNs(i) - t.startNs(i)) / 1e6));
      }
    }
    Arrays.sort(ttft);
    double seconds = (last - first) / 1e9;
    String summary =
        String.format(
            Locale.ROOT,
            "{\"aiperf_version\": \"0.13.0\", \"schema_version\": \"1.0\","
                + " \"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": %.1f},"
                + " \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": %.3f, \"p50\": %.3f, \"p99\": %.3f},"
                + " \"request_count\": {\"unit\": \"requests\", \"avg\": %d},"
                + " \"input_config\": {\"loadgen\": {\"concurrency\": %d, \"request_count\": %d}}, \"was_cancelled\": false}",
            n * 128 / seconds,
            Arrays.stream(ttft).average().orElse(0),
            Quantiles.of(ttft, 0.5),
            Quantiles.of(ttft, 0.99),
            n,
            claimed,
            n);
    Files.writeString(dir.resolve("profile_export_aiperf.json"), summary, StandardCharsets.UTF_8);
    return dir;
  }
}
