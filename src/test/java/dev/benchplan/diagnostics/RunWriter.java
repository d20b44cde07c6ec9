package dev.benchplan.diagnostics;

import dev.benchplan.aiperf.export.ExportVariants;
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
            ExportVariants.record("req-" + i, t.startNs(i), t.endNs(i))
                .metric("time_to_first_token", t.ttftMs(i), "ms")
                .metric("request_latency", (t.endNs(i) - t.startNs(i)) / 1e6, "ms")
                .metric("output_sequence_length", 128L, "tokens")
                .line());
      }
    }
    Arrays.sort(ttft);
    double seconds = (last - first) / 1e9;
    ExportVariants.Summary summary =
        ExportVariants.summary()
            .version("0.13.0")
            .metric(
                "output_token_throughput",
                "tokens/sec",
                String.format(Locale.ROOT, "%.1f", n * 128 / seconds))
            .metric(
                "time_to_first_token",
                "ms",
                String.format(Locale.ROOT, "%.3f", Arrays.stream(ttft).average().orElse(0)))
            .stat(
                "time_to_first_token",
                "p50",
                String.format(Locale.ROOT, "%.3f", Quantiles.of(ttft, 0.5)))
            .stat(
                "time_to_first_token",
                "p99",
                String.format(Locale.ROOT, "%.3f", Quantiles.of(ttft, 0.99)))
            .metric("request_count", "requests", n)
            .loadgen(claimed, n);
    summary.tree().put("was_cancelled", false);
    summary.write(dir);
    return dir;
  }
}
