package dev.benchplan.aiperf.export;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One metric of an AIPerf summary export, e.g. {@code time_to_first_token}: its unit as written and
 * the statistics that were computed (a stat that AIPerf omitted or wrote as {@code null} is
 * absent).
 *
 * @param tag the metric tag
 * @param unit the unit as written in the export (authoritative; may be unknown to benchplan)
 * @param stats stat name (avg, p99, count, ...) to value, exactly as the export's decimal text
 * @param pointer the RFC 6901 pointer of the metric block in the export, for messages
 */
public record MetricSummary(
    String tag, String unit, Map<String, BigDecimal> stats, String pointer) {
  /** The statistics AIPerf writes for a metric. */
  public static final List<String> STATS =
      List.of(
          "avg", "min", "max", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "std",
          "count", "sum");

  public MetricSummary {
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(pointer, "pointer");
    stats = Map.copyOf(stats);
  }

  /** A statistic, when it was computed. */
  public Optional<BigDecimal> stat(String name) {
    return Optional.ofNullable(stats.get(name));
  }

  /** The unit, when benchplan knows it. */
  public Optional<MetricUnit> parsedUnit() {
    return MetricUnit.parse(unit);
  }
}
