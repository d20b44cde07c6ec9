package dev.benchplan.aiperf.export;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A unit AIPerf writes next to a metric ({@code "unit": "ms"}), with its dimension and its factor
 * to the dimension's canonical unit. Only units listed here are understood; anything else is
 * reported, never guessed.
 *
 * @param text the unit as written (trimmed)
 * @param dimension what the unit measures
 * @param numerator with {@code denominator}: a value in this unit times numerator / denominator is
 *     the value in the canonical unit (a ratio, so that per-minute rates convert exactly)
 * @param denominator see {@code numerator}
 */
public record MetricUnit(
    String text, Dimension dimension, BigDecimal numerator, BigDecimal denominator) {
  /** Division precision for non-terminating factors (e.g. per-minute rates). */
  static final MathContext PRECISION = MathContext.DECIMAL128;

  /** What a unit measures, and the canonical unit values are compared in. */
  public enum Dimension {
    /** Durations; canonical milliseconds. */
    DURATION("ms"),
    /** Output or input token throughput; canonical tokens per second. */
    TOKEN_RATE("tokens/sec"),
    /** Token throughput per user (per concurrent stream); canonical tokens per second per user. */
    TOKEN_RATE_PER_USER("tokens/sec/user"),
    /** Request throughput; canonical requests per second. */
    REQUEST_RATE("requests/sec"),
    /** Token counts. */
    TOKENS("tokens"),
    /** Request counts. */
    REQUESTS("requests"),
    /** Other counts (HTTP chunks sent or received, ...). */
    COUNT("count"),
    /** Data sizes; canonical bytes (AIPerf's KB is 1024 bytes, its MB 1024 KB). */
    DATA_SIZE("B"),
    /** Percentages. */
    PERCENT("%"),
    /** Dimensionless ratios (a fraction of requests, a share of reused connections). */
    RATIO("ratio");

    private final String canonical;

    Dimension(String canonical) {
      this.canonical = canonical;
    }

    /** The canonical unit text of this dimension. */
    public String canonical() {
      return canonical;
    }
  }

  private static final Map<String, BigDecimal> TIME_IN_MS =
      Map.ofEntries(
          Map.entry("ns", new BigDecimal("0.000001")),
          Map.entry("nanoseconds", new BigDecimal("0.000001")),
          Map.entry("us", new BigDecimal("0.001")),
          Map.entry("\u00b5s", new BigDecimal("0.001")),
          Map.entry("\u03bcs", new BigDecimal("0.001")),
          Map.entry("microseconds", new BigDecimal("0.001")),
          Map.entry("ms", BigDecimal.ONE),
          Map.entry("milliseconds", BigDecimal.ONE),
          Map.entry("s", new BigDecimal("1000")),
          Map.entry("sec", new BigDecimal("1000")),
          Map.entry("second", new BigDecimal("1000")),
          Map.entry("seconds", new BigDecimal("1000")),
          Map.entry("min", new BigDecimal("60000")),
          Map.entry("minute", new BigDecimal("60000")),
          Map.entry("minutes", new BigDecimal("60000")));

  private static final Map<String, Dimension> RATE_NUMERATORS =
      Map.of(
          "tokens", Dimension.TOKEN_RATE,
          "token", Dimension.TOKEN_RATE,
          "tok", Dimension.TOKEN_RATE,
          "requests", Dimension.REQUEST_RATE,
          "request", Dimension.REQUEST_RATE,
          "req", Dimension.REQUEST_RATE);

  private static final Map<String, Dimension> COUNTS =
      Map.of(
          "tokens", Dimension.TOKENS,
          "token", Dimension.TOKENS,
          "requests", Dimension.REQUESTS,
          "request", Dimension.REQUESTS);

  /** Sizes in bytes, as AIPerf defines them (binary multiples). */
  private static final Map<String, BigDecimal> SIZE_IN_BYTES =
      Map.of(
          "b", BigDecimal.ONE,
          "bytes", BigDecimal.ONE,
          "kb", new BigDecimal(1024L),
          "mb", new BigDecimal(1024L * 1024),
          "gb", new BigDecimal(1024L * 1024 * 1024),
          "tb", new BigDecimal(1024L * 1024 * 1024 * 1024));

  /** Dimensionless units, each its own canonical unit. */
  private static final Map<String, Dimension> PLAIN =
      Map.of(
          "count", Dimension.COUNT,
          "%", Dimension.PERCENT,
          "percent", Dimension.PERCENT,
          "ratio", Dimension.RATIO);

  public MetricUnit {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(dimension, "dimension");
    Objects.requireNonNull(numerator, "numerator");
    Objects.requireNonNull(denominator, "denominator");
    if (numerator.signum() <= 0 || denominator.signum() <= 0) {
      throw new IllegalArgumentException(
          "unit factor must be positive: " + numerator + "/" + denominator);
    }
  }

  /**
   * Parses a unit: durations (ns, us, ms, s/sec, min), rates {@code <tokens|requests>/<duration>}
   * (optionally {@code /user} for tokens), counts (tokens, requests, count), sizes (B, KB, MB, GB,
   * TB), {@code %} and {@code ratio}. Empty when unknown.
   */
  public static Optional<MetricUnit> parse(String unit) {
    if (unit == null) {
      return Optional.empty();
    }
    String text = unit.trim();
    String u = text.toLowerCase(Locale.ROOT).replace(" ", "");
    BigDecimal ms = TIME_IN_MS.get(u);
    if (ms != null) {
      return Optional.of(new MetricUnit(text, Dimension.DURATION, ms, BigDecimal.ONE));
    }
    Dimension count = COUNTS.get(u);
    if (count != null) {
      return Optional.of(new MetricUnit(text, count, BigDecimal.ONE, BigDecimal.ONE));
    }
    Dimension plain = PLAIN.get(u);
    if (plain != null) {
      return Optional.of(new MetricUnit(text, plain, BigDecimal.ONE, BigDecimal.ONE));
    }
    BigDecimal bytes = SIZE_IN_BYTES.get(u);
    if (bytes != null) {
      return Optional.of(new MetricUnit(text, Dimension.DATA_SIZE, bytes, BigDecimal.ONE));
    }
    String[] parts = u.split("/", -1);
    if (parts.length < 2 || parts.length > 3) {
      return Optional.empty();
    }
    Dimension rate = RATE_NUMERATORS.get(parts[0]);
    BigDecimal perMs = TIME_IN_MS.get(parts[1]);
    if (rate == null || perMs == null) {
      return Optional.empty();
    }
    if (parts.length == 3) {
      if (rate != Dimension.TOKEN_RATE || !parts[2].equals("user")) {
        return Optional.empty();
      }
      rate = Dimension.TOKEN_RATE_PER_USER;
    }
    // x per <unit> = x * 1000 / (ms per unit) per second
    return Optional.of(new MetricUnit(text, rate, new BigDecimal("1000"), perMs));
  }

  /** The canonical unit of a dimension. */
  public static MetricUnit canonical(Dimension dimension) {
    return parse(dimension.canonical()).orElseThrow();
  }

  /** True when values in both units can be compared. */
  public boolean compatibleWith(MetricUnit other) {
    return dimension == other.dimension;
  }

  /** Converts a value in this unit to {@code target} (same dimension, else an exception). */
  public BigDecimal convert(BigDecimal value, MetricUnit target) {
    if (!compatibleWith(target)) {
      throw new IllegalArgumentException(
          "cannot convert "
              + text
              + " ("
              + dimension
              + ") to "
              + target.text
              + " ("
              + target.dimension
              + ")");
    }
    // value * (num / den) / (target.num / target.den), multiplying first so exact results stay
    // exact
    BigDecimal top = value.multiply(numerator).multiply(target.denominator);
    BigDecimal bottom = denominator.multiply(target.numerator);
    return bottom.compareTo(BigDecimal.ONE) == 0 ? top : top.divide(bottom, PRECISION);
  }
}
