package dev.benchplan.cli;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
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
    IntIn anyInt = new IntIn(Integer.MIN_VALUE, Integer.MAX_VALUE);
    LongIn anyLong = new LongIn(Long.MIN_VALUE, Long.MAX_VALUE);
    cl.registerConverter(Integer.class, anyInt);
    cl.registerConverter(Integer.TYPE, anyInt);
    cl.registerConverter(Long.class, anyLong);
    cl.registerConverter(Long.TYPE, anyLong);
    cl.registerConverter(BigDecimal.class, new DecimalIn(null, false, null, false));
    DoubleIn anyDouble = new DoubleIn(null, false, null, false);
    cl.registerConverter(Double.class, anyDouble);
    cl.registerConverter(Double.TYPE, anyDouble);
  }

  /** An integer in [min, max]. */
  public static class IntIn implements ITypeConverter<Integer> {
    private final int min;
    private final int max;

    IntIn(int min, int max) {
      this.min = min;
      this.max = max;
    }

    @Override
    public Integer convert(String value) {
      return (int) LongIn.parse(value, min, max);
    }
  }

  /** A long in [min, max]. */
  public static class LongIn implements ITypeConverter<Long> {
    private final long min;
    private final long max;

    LongIn(long min, long max) {
      this.min = min;
      this.max = max;
    }

    @Override
    public Long convert(String value) {
      return parse(value, min, max);
    }

    static long parse(String value, long min, long max) {
      String v = value.strip().replace("_", "");
      BigInteger n;
      try {
        n = new BigInteger(v);
      } catch (NumberFormatException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a whole number; expected " + range(min, max));
      }
      if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
        throw new TypeConversionException(
            "'" + value + "' is out of range; expected " + range(min, max));
      }
      return n.longValueExact();
    }

    private static String range(long min, long max) {
      if (min == Long.MIN_VALUE || min == Integer.MIN_VALUE) {
        return String.format(Locale.ROOT, "a whole number up to %d", max);
      }
      return String.format(Locale.ROOT, "a whole number from %d to %d", min, max);
    }
  }

  /** A finite decimal in a range whose ends may be open, closed or absent. */
  public static class DecimalIn implements ITypeConverter<BigDecimal> {
    private static final int MAX_TEXT = 64;
    private final @Nullable BigDecimal min;
    private final boolean minOpen;
    private final @Nullable BigDecimal max;
    private final boolean maxOpen;

    DecimalIn(@Nullable String min, boolean minOpen, @Nullable String max, boolean maxOpen) {
      this.min = min == null ? null : new BigDecimal(min);
      this.minOpen = minOpen;
      this.max = max == null ? null : new BigDecimal(max);
      this.maxOpen = maxOpen;
    }

    @Override
    public BigDecimal convert(String value) {
      String v = value.strip();
      BigDecimal d;
      try {
        if (v.length() > MAX_TEXT) {
          throw new NumberFormatException();
        }
        d = new BigDecimal(v);
      } catch (NumberFormatException | ArithmeticException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a finite decimal number; expected " + range());
      }
      // exponents beyond what a double holds are not measurements (1e999, 1e-999)
      if (d.signum() != 0
          && (d.precision() - d.scale() > 309 || d.precision() - d.scale() < -300)) {
        throw new TypeConversionException("'" + value + "' is out of range; expected " + range());
      }
      boolean below = min != null && (minOpen ? d.compareTo(min) <= 0 : d.compareTo(min) < 0);
      boolean above = max != null && (maxOpen ? d.compareTo(max) >= 0 : d.compareTo(max) > 0);
      if (below || above) {
        throw new TypeConversionException("'" + value + "' is out of range; expected " + range());
      }
      return d;
    }

    private String range() {
      if (min == null && max == null) {
        return "a finite decimal number such as 0.5 or 1e3";
      }
      StringBuilder sb = new StringBuilder("a number");
      if (min != null) {
        sb.append(minOpen ? " greater than " : " of at least ").append(min.toPlainString());
      }
      if (max != null) {
        sb.append(min == null ? "" : " and")
            .append(maxOpen ? " below " : " at most ")
            .append(max.toPlainString());
      }
      return sb.toString();
    }
  }

  /** A finite double in a range, parsed and range-checked as {@link DecimalIn} does. */
  public static class DoubleIn implements ITypeConverter<Double> {
    private final DecimalIn decimal;

    DoubleIn(@Nullable String min, boolean minOpen, @Nullable String max, boolean maxOpen) {
      this.decimal = new DecimalIn(min, minOpen, max, maxOpen);
    }

    @Override
    public Double convert(String value) {
      return decimal.convert(value).doubleValue();
    }
  }

  /** A minimum detectable effect in percent: above 0, below 100. */
  public static final class EffectPercent extends DoubleIn {
    public EffectPercent() {
      super("0", true, "100", true);
    }
  }

  /** A concurrency: 1 to 100,000 simultaneous requests. */
  public static final class Concurrency extends IntIn {
    public Concurrency() {
      super(1, 100_000);
    }
  }

  /** A count of requests or repetitions that may be zero: 0 to 10,000,000. */
  public static final class RequestCount extends IntIn {
    public RequestCount() {
      super(0, 10_000_000);
    }
  }

  /** Measured runs per load point: 1 to 100. */
  public static final class Repetitions extends IntIn {
    public Repetitions() {
      super(1, 100);
    }
  }

  /** validate's measurements of one configuration: 1 to 10 (AIPerf's multiRun.numRuns cap). */
  public static final class Repeats extends IntIn {
    public Repeats() {
      super(1, 10);
    }
  }

  /** A random seed: 0 to 2^31-1. */
  public static final class Seed extends LongIn {
    public Seed() {
      super(0, Integer.MAX_VALUE);
    }
  }

  /** A token count (ISL, OSL, block size): 1 to 10,000,000. */
  public static final class Tokens extends IntIn {
    public Tokens() {
      super(1, 10_000_000);
    }
  }

  /** A context length in tokens: 1 to 100,000,000. */
  public static final class ContextTokens extends LongIn {
    public ContextTokens() {
      super(1, 100_000_000);
    }
  }

  /** A request rate in requests per second: above 0, at most 1,000,000. */
  public static final class RequestRate extends DecimalIn {
    public RequestRate() {
      super("0", true, "1000000", false);
    }
  }

  /** A throughput in tokens per second: above 0, at most 10^12. */
  public static final class Throughput extends DecimalIn {
    public Throughput() {
      super("0", true, "1000000000000", false);
    }
  }

  /** A latency in milliseconds: above 0, at most 10^9 (about 11 days). */
  public static final class Millis extends DecimalIn {
    public Millis() {
      super("0", true, "1000000000", false);
    }
  }

  /** A fraction from 0 up to but excluding 1 (a tolerance). */
  public static final class Tolerance extends DecimalIn {
    public Tolerance() {
      super("0", false, "1", true);
    }
  }

  /**
   * A readiness request's bound in whole seconds, 1 to 3600: a number of seconds ({@code 120}) or a
   * duration ({@code 2m}, {@code 90s}).
   */
  public static final class RequestTimeoutSeconds implements ITypeConverter<Integer> {
    static final int MIN = 1;
    static final int MAX = 3600;

    @Override
    public Integer convert(String value) {
      String v = value.strip();
      if (v.chars().allMatch(Character::isDigit) && !v.isEmpty()) {
        return (int) LongIn.parse(v, MIN, MAX);
      }
      java.time.Duration d = DurationConverter.parse(v);
      if (d.toMillis() % 1000 != 0 || d.toSeconds() < MIN || d.toSeconds() > MAX) {
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

  /** A fraction from 0 to 1 (an error rate). */
  public static final class Fraction extends DecimalIn {
    public Fraction() {
      super("0", false, "1", false);
    }
  }
}
