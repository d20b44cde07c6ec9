package dev.benchplan.workload;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Units of the AIPerf metric tags benchplan plans objectives for. */
public final class MetricCatalog {
  /** Per-GPU output throughput, derived from AIPerf's output_token_throughput and the GPU count. */
  public static final String OUTPUT_TPUT_PER_GPU = "output_token_throughput_per_gpu";

  /** Failed requests / all requests, derived from AIPerf's error and request counts. */
  public static final String ERROR_RATE = "error_rate";

  private static final Map<String, String> UNITS =
      Map.ofEntries(
          Map.entry("time_to_first_token", "ms"),
          Map.entry("time_to_second_token", "ms"),
          Map.entry("inter_token_latency", "ms"),
          Map.entry("request_latency", "ms"),
          Map.entry("output_token_throughput", "tokens/sec"),
          Map.entry("output_token_throughput_per_user", "tokens/sec/user"),
          Map.entry("request_throughput", "requests/sec"),
          Map.entry("goodput", "requests/sec"),
          Map.entry("input_sequence_length", "tokens"),
          Map.entry("output_sequence_length", "tokens"),
          Map.entry(OUTPUT_TPUT_PER_GPU, "tokens/sec/gpu"),
          Map.entry(ERROR_RATE, "ratio"));

  /** Metrics measured per request in ms, which AIPerf's goodput can threshold. */
  private static final java.util.Set<String> PER_REQUEST_LATENCY =
      java.util.Set.of(
          "time_to_first_token", "time_to_second_token", "inter_token_latency", "request_latency");

  /** Metrics that exist only when the response is streamed. */
  private static final java.util.Set<String> STREAMING_ONLY =
      java.util.Set.of(
          "time_to_first_token",
          "time_to_second_token",
          "inter_token_latency",
          "output_token_throughput_per_user");

  private MetricCatalog() {}

  /** The unit AIPerf reports the metric in, or null when benchplan does not know the metric. */
  public static @Nullable String unitOf(String metric) {
    return UNITS.get(metric);
  }

  public static boolean isPerRequestLatency(String metric) {
    return PER_REQUEST_LATENCY.contains(metric);
  }

  public static boolean needsStreaming(String metric) {
    return STREAMING_ONLY.contains(metric);
  }
}
