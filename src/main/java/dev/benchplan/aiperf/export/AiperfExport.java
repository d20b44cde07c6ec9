package dev.benchplan.aiperf.export;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A parsed AIPerf summary export ({@code profile_export_aiperf.json}). Unknown keys are ignored;
 * every metric keeps its unit as written.
 *
 * @param path where it was read from (for messages and verdicts); may be a virtual name such as a
 *     pod log
 * @param sha256 SHA-256 of the exact bytes parsed
 * @param layout the summary layout detected
 * @param schemaVersion {@code schema_version}, when present
 * @param aiperfVersion {@code aiperf_version}, when present
 * @param wasCancelled {@code was_cancelled}; false when absent
 * @param errorSummary {@code error_summary} entries (empty when absent)
 * @param metrics metric tag to summary, for every metric block present (null blocks are absent)
 * @param startTime {@code start_time} as written, when present
 * @param endTime {@code end_time} as written, when present
 * @param notMetrics top-level entries that are a value (string, number, boolean) where a metric
 *     block could stand: tag to a description naming the JSON pointer, so that a gate on that tag
 *     can call it invalid rather than absent
 */
public record AiperfExport(
    Path path,
    String sha256,
    ExportLayout layout,
    @Nullable String schemaVersion,
    @Nullable String aiperfVersion,
    boolean wasCancelled,
    List<ErrorCount> errorSummary,
    Map<String, MetricSummary> metrics,
    @Nullable String startTime,
    @Nullable String endTime,
    Map<String, String> notMetrics) {

  public AiperfExport {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(layout, "layout");
    errorSummary = List.copyOf(errorSummary);
    metrics = Map.copyOf(metrics);
    notMetrics = Map.copyOf(notMetrics);
  }

  /**
   * The same export named {@code as}: where a verdict file records it, relative to that file's
   * folder (a run directory, a report directory), so no checkout's absolute path reaches it.
   */
  public AiperfExport named(Path as) {
    return new AiperfExport(
        as,
        sha256,
        layout,
        schemaVersion,
        aiperfVersion,
        wasCancelled,
        errorSummary,
        metrics,
        startTime,
        endTime,
        notMetrics);
  }

  /** What stands at a metric's place when it is a plain value rather than a metric block. */
  public Optional<String> notMetric(String tag) {
    return Optional.ofNullable(notMetrics.get(tag));
  }

  /** A metric block, when present. */
  public Optional<MetricSummary> metric(String tag) {
    return Optional.ofNullable(metrics.get(tag));
  }

  /**
   * The number of successful (measured) requests: {@code request_count.avg}, when present. AIPerf
   * counts failed requests separately in {@code error_request_count}.
   */
  public Optional<BigDecimal> requestCount() {
    return metric("request_count").flatMap(m -> m.stat("avg").or(() -> m.stat("sum")));
  }

  /**
   * The number of failed requests: {@code error_request_count.avg} when present, else the sum of
   * {@code error_summary} counts (0 when neither says anything).
   */
  public BigDecimal errorRequestCount() {
    Optional<BigDecimal> fromMetric =
        metric("error_request_count").flatMap(m -> m.stat("avg").or(() -> m.stat("sum")));
    BigDecimal fromSummary =
        BigDecimal.valueOf(errorSummary.stream().mapToLong(ErrorCount::count).sum());
    // the two should agree; when they do not, the larger one is the honest count of failures
    return fromMetric.map(m -> m.max(fromSummary)).orElse(fromSummary);
  }
}
