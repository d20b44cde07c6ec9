package dev.benchplan.cli;

import dev.benchplan.workload.InputRanges;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The picocli type converters for numeric options, each with the range it accepts. A value that is
 * not a number, not finite ({@code NaN}, {@code 1e999}) or out of range is refused as invalid input
 * (exit 2) naming the option (picocli adds it) and the accepted range.
 */
public final class NumericOptions {
  private NumericOptions() {}

  /**
   * Installs the type-wide defaults: any int/long/decimal option is at least finite and in its
   * type's range.
   */
  static void register(CommandLine cl) {
    InRange<Integer> anyInt =
        new InRange<>(Bounds.whole(Integer.MIN_VALUE, Integer.MAX_VALUE), BigDecimal::intValue);
    InRange<Long> anyLong =
        new InRange<>(Bounds.whole(Long.MIN_VALUE, Long.MAX_VALUE), BigDecimal::longValue);
    InRange<Double> anyDouble =
        new InRange<>(Bounds.decimal(null, false, null, false), BigDecimal::doubleValue);
    cl.registerConverter(Integer.class, anyInt);
    cl.registerConverter(Integer.TYPE, anyInt);
    cl.registerConverter(Long.class, anyLong);
    cl.registerConverter(Long.TYPE, anyLong);
    cl.registerConverter(
        BigDecimal.class, new InRange<>(Bounds.decimal(null, false, null, false), d -> d));
    cl.registerConverter(Double.class, anyDouble);
    cl.registerConverter(Double.TYPE, anyDouble);
  }

  /**
   * A converter whose range an option's help states: the help text quotes {@link #range()} (built
   * from the same constants as the bounds), and a test checks every ranged option's help against it
   * and the bounds against the validators.
   */
  public interface Ranged {
    /** The accepted range in the words the help uses, e.g. "1 to 10" or "above 0, below 100". */
    String range();

    /** The lowest accepted value, or null when the low end is open or absent. */
    @Nullable BigDecimal lowest();

    /** The highest accepted value, or null when the high end is open or absent. */
    @Nullable BigDecimal highest();

    /** A value just outside the range: below it, or null when unbounded below. */
    @Nullable String below();

    /** A value just outside the range: above it, or null when unbounded above. */
    @Nullable String above();

    /** {@code value} (e.g. {@link #highest()}) as the option's argument is written. */
    default String argument(BigDecimal value) {
      return value.toPlainString();
    }
  }

  /**
   * The ends of a range: each open, closed or absent; whole numbers or decimals.
   *
   * @param min the low end, or null when unbounded below
   * @param minOpen true when {@code min} itself is refused
   * @param max the high end, or null when unbounded above
   * @param maxOpen true when {@code max} itself is refused
   * @param whole true when only whole numbers are accepted (both ends then closed)
   */
  record Bounds(
      @Nullable BigDecimal min,
      boolean minOpen,
      @Nullable BigDecimal max,
      boolean maxOpen,
      boolean whole) {
    Bounds {
      if (whole && (min == null || max == null || minOpen || maxOpen)) {
        throw new IllegalArgumentException("a whole-number range has two closed ends");
      }
    }

    /** The whole numbers from {@code min} to {@code max}. */
    static Bounds whole(long min, long max) {
      return new Bounds(BigDecimal.valueOf(min), false, BigDecimal.valueOf(max), false, true);
    }

    /** The finite decimals between two ends given as text (null: no end). */
    static Bounds decimal(
        @Nullable String min, boolean minOpen, @Nullable String max, boolean maxOpen) {
      return new Bounds(
          min == null ? null : new BigDecimal(min),
          minOpen,
          max == null ? null : new BigDecimal(max),
          maxOpen,
          false);
    }
  }

  /**
   * A number in {@link Bounds}, converted to {@code T}: the one shape of every numeric option's
   * converter (int, long, BigDecimal and double options differ only in bounds and {@code as}).
   */
  public static class InRange<T> implements ITypeConverter<T>, Ranged {
    private static final int MAX_TEXT = 64;
    private final Bounds bounds;
    private final Function<BigDecimal, T> as;

    InRange(Bounds bounds, Function<BigDecimal, T> as) {
      this.bounds = bounds;
      this.as = as;
    }

    @Override
    public T convert(String value) {
      return as.apply(bounds.whole() ? wholeNumber(value) : decimal(value));
    }

    private BigDecimal wholeNumber(String value) {
      String v = value.strip().replace("_", "");
      BigInteger n;
      try {
        n = new BigInteger(v);
      } catch (NumberFormatException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a whole number; expected " + describe());
      }
      BigDecimal d = new BigDecimal(n);
      if (!accepts(d)) {
        throw new TypeConversionException(
            "'" + value + "' is out of range; expected " + describe());
      }
      return d;
    }

    private BigDecimal decimal(String value) {
      String v = value.strip();
      BigDecimal d;
      try {
        if (v.length() > MAX_TEXT) {
          throw new NumberFormatException();
        }
        d = new BigDecimal(v);
      } catch (NumberFormatException | ArithmeticException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a finite decimal number; expected " + describe());
      }
      // exponents beyond what a double holds are not measurements (1e999, 1e-999)
      if (d.signum() != 0
          && (d.precision() - d.scale() > 309 || d.precision() - d.scale() < -300)) {
        throw new TypeConversionException(
            "'" + value + "' is out of range; expected " + describe());
      }
      if (!accepts(d)) {
        throw new TypeConversionException(
            "'" + value + "' is out of range; expected " + describe());
      }
      return d;
    }

    /** Whether {@code d} lies in the bounds. */
    final boolean accepts(BigDecimal d) {
      BigDecimal min = bounds.min();
      BigDecimal max = bounds.max();
      return (min == null || (bounds.minOpen() ? d.compareTo(min) > 0 : d.compareTo(min) >= 0))
          && (max == null || (bounds.maxOpen() ? d.compareTo(max) < 0 : d.compareTo(max) <= 0));
    }

    /**
     * "1 to 10", "0.001 to 100000", "above 0, at most 1000", "0 to below 1", "above 0, below 100".
     */
    @Override
    public String range() {
      BigDecimal min = bounds.min();
      BigDecimal max = bounds.max();
      if (min == null || max == null) {
        return describe();
      }
      return (bounds.minOpen()
              ? "above " + min.toPlainString() + ", "
              : min.toPlainString() + " to ")
          + (bounds.maxOpen() ? "below " : bounds.minOpen() ? "at most " : "")
          + max.toPlainString();
    }

    @Override
    public @Nullable BigDecimal lowest() {
      return bounds.minOpen() ? null : bounds.min();
    }

    @Override
    public @Nullable BigDecimal highest() {
      return bounds.maxOpen() ? null : bounds.max();
    }

    @Override
    public @Nullable String below() {
      BigDecimal min = bounds.min();
      return min == null ? null : (bounds.minOpen() ? min : min.subtract(step())).toPlainString();
    }

    @Override
    public @Nullable String above() {
      BigDecimal max = bounds.max();
      return max == null ? null : (bounds.maxOpen() ? max : max.add(step())).toPlainString();
    }

    /** 1 for whole numbers; else one unit in the digit after both ends' last: 0.0001 for 0.001. */
    private BigDecimal step() {
      if (bounds.whole()) {
        return BigDecimal.ONE;
      }
      int scale = 1;
      for (BigDecimal b : new BigDecimal[] {bounds.min(), bounds.max()}) {
        if (b != null) {
          scale = Math.max(scale, b.scale() + 1);
        }
      }
      return BigDecimal.ONE.movePointLeft(scale);
    }

    /** What the error message says was expected. */
    private String describe() {
      BigDecimal min = bounds.min();
      BigDecimal max = bounds.max();
      if (bounds.whole() && min != null && max != null) {
        boolean typeMin =
            min.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) == 0
                || min.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) == 0;
        return typeMin
            ? String.format(Locale.ROOT, "a whole number up to %s", max.toPlainString())
            : String.format(
                Locale.ROOT,
                "a whole number from %s to %s",
                min.toPlainString(),
                max.toPlainString());
      }
      if (min == null && max == null) {
        return "a finite decimal number such as 0.5 or 1e3";
      }
      StringBuilder sb = new StringBuilder("a number");
      if (min != null) {
        sb.append(bounds.minOpen() ? " greater than " : " of at least ")
            .append(min.toPlainString());
      }
      if (max != null) {
        sb.append(min == null ? "" : " and")
            .append(bounds.maxOpen() ? " below " : " at most ")
            .append(max.toPlainString());
      }
      return sb.toString();
    }
  }

  /** A minimum detectable effect in percent: above 0, below 100. */
  public static final class EffectPercent extends InRange<Double> {
    public static final String RANGE = "above 0, below 100";

    public EffectPercent() {
      super(Bounds.decimal("0", true, "100", true), BigDecimal::doubleValue);
    }
  }

  /** A concurrency: 1 to the workload's maximum simultaneous requests. */
  public static final class Concurrency extends InRange<Integer> {
    public static final String RANGE = "1 to " + InputRanges.MAX_CONCURRENCY;

    public Concurrency() {
      super(Bounds.whole(1, InputRanges.MAX_CONCURRENCY), BigDecimal::intValue);
    }
  }

  /** Warmup requests of a load point: 0 to the plan's maximum. */
  public static final class WarmupRequests extends InRange<Integer> {
    public static final String RANGE = "0 to " + InputRanges.MAX_WARMUP_REQUESTS;

    public WarmupRequests() {
      super(Bounds.whole(0, InputRanges.MAX_WARMUP_REQUESTS), BigDecimal::intValue);
    }
  }

  /** Measured runs per load point: 1 to the comparison-uncertainty rule's maximum. */
  public static final class Repetitions extends InRange<Integer> {
    public static final String RANGE = "1 to " + InputRanges.MAX_REPETITIONS;

    public Repetitions() {
      super(Bounds.whole(1, InputRanges.MAX_REPETITIONS), BigDecimal::intValue);
    }
  }

  /** validate's measurements of one configuration: 1 to 10 (AIPerf's multiRun.numRuns cap). */
  public static final class Repeats extends InRange<Integer> {
    static final int MAX = 10;
    public static final String RANGE = "1 to " + MAX;

    public Repeats() {
      super(Bounds.whole(1, MAX), BigDecimal::intValue);
    }
  }

  /** A random seed: 0 to 2^32-1 (AIPerf seeds numpy). */
  public static final class Seed extends InRange<Long> {
    public static final String RANGE = "0 to " + InputRanges.MAX_SEED;

    public Seed() {
      super(Bounds.whole(0, InputRanges.MAX_SEED), BigDecimal::longValue);
    }
  }

  /** A token count (ISL, OSL, block size): 1 to the workload's maximum. */
  public static final class Tokens extends InRange<Integer> {
    public static final String RANGE = "1 to " + InputRanges.MAX_TOKENS;

    public Tokens() {
      super(Bounds.whole(1, InputRanges.MAX_TOKENS), BigDecimal::intValue);
    }
  }

  /** A served context length in tokens: 1 to the ledger's maximum max_context_length. */
  public static final class ContextTokens extends InRange<Long> {
    public static final String RANGE = "1 to " + InputRanges.MAX_TOKENS;

    public ContextTokens() {
      super(Bounds.whole(1, InputRanges.MAX_TOKENS), BigDecimal::longValue);
    }
  }

  /** A request rate in requests per second: the workload's range. */
  public static final class RequestRate extends InRange<BigDecimal> {
    public static final String RANGE =
        InputRanges.MIN_REQUEST_RATE_TEXT + " to " + InputRanges.MAX_REQUEST_RATE_TEXT;

    public RequestRate() {
      super(
          Bounds.decimal(
              InputRanges.MIN_REQUEST_RATE_TEXT, false, InputRanges.MAX_REQUEST_RATE_TEXT, false),
          d -> d);
    }
  }

  /** A throughput in tokens per second: above 0, at most 10^12. */
  public static final class Throughput extends InRange<BigDecimal> {
    static final String MAX = "1000000000000";
    public static final String RANGE = "above 0, at most " + MAX;

    public Throughput() {
      super(Bounds.decimal("0", true, MAX, false), d -> d);
    }
  }

  /** A latency in milliseconds: above 0, at most 10^9 (about 11 days). */
  public static final class Millis extends InRange<BigDecimal> {
    static final String MAX = "1000000000";
    public static final String RANGE = "above 0, at most " + MAX;

    public Millis() {
      super(Bounds.decimal("0", true, MAX, false), d -> d);
    }
  }

  /** A fraction from 0 up to but excluding 1 (a tolerance). */
  public static final class Tolerance extends InRange<BigDecimal> {
    public static final String RANGE = "0 to below 1";

    public Tolerance() {
      super(Bounds.decimal("0", false, "1", true), d -> d);
    }
  }

  /**
   * A readiness request's bound in whole seconds, 1 to 3600: a number of seconds ({@code 120}) or a
   * duration ({@code 2m}, {@code 90s}).
   */
  public static final class RequestTimeoutSeconds extends InRange<Integer> {
    static final int MIN = 1;
    static final int MAX = 3600;
    public static final String RANGE = MIN + " to " + MAX;

    public RequestTimeoutSeconds() {
      super(Bounds.whole(MIN, MAX), BigDecimal::intValue);
    }

    @Override
    public Integer convert(String value) {
      String v = value.strip();
      if (v.chars().allMatch(Character::isDigit) && !v.isEmpty()) {
        return super.convert(v);
      }
      Duration d = DurationConverter.parse(v);
      if (d.toMillis() % 1000 != 0 || !accepts(BigDecimal.valueOf(d.toSeconds()))) {
        throw new TypeConversionException(
            "'"
                + value
                + "' is out of range; expected whole seconds from "
                + MIN
                + " to "
                + MAX
                + " (e.g. 120 or 2m)");
      }
      return (int) d.toSeconds();
    }
  }

  /**
   * The oldest smoke-test artifact plan, render and run accept ({@code --smoke-max-age}): a
   * duration above 0, at most {@link InputRanges#MAX_SMOKE_MAX_AGE_S} (30 days), the bound plan's
   * validator also holds plans made in code to.
   */
  public static final class SmokeMaxAge extends InRange<Duration> {
    public static final String RANGE =
        "above 0, at most " + InputRanges.MAX_SMOKE_MAX_AGE_S / 3600 + "h";

    public SmokeMaxAge() {
      super(
          Bounds.decimal("0", true, String.valueOf(InputRanges.MAX_SMOKE_MAX_AGE_S), false),
          d -> Duration.ofSeconds(d.longValue()));
    }

    @Override
    public Duration convert(String value) {
      Duration d = DurationConverter.parse(value);
      if (!accepts(BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9)))) {
        throw new TypeConversionException(
            "'" + value + "' is out of range; expected a duration " + RANGE + " (e.g. 72h)");
      }
      return d;
    }

    @Override
    public String range() {
      return RANGE;
    }

    @Override
    public String argument(BigDecimal seconds) {
      return seconds.toPlainString() + "s";
    }

    @Override
    public @Nullable String below() {
      return "0s";
    }

    @Override
    public @Nullable String above() {
      return (InputRanges.MAX_SMOKE_MAX_AGE_S + 1) + "s";
    }
  }

  /** A fraction from 0 to 1 (an error rate). */
  public static final class Fraction extends InRange<BigDecimal> {
    public static final String RANGE = "0 to 1";

    public Fraction() {
      super(Bounds.decimal("0", false, "1", false), d -> d);
    }
  }
}
