package dev.benchplan.cli;

import dev.benchplan.workload.InputRanges;
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
  }

  /** "MIN to MAX": how the help states a whole-number range. */
  static String wholeRange(long min, long max) {
    return min + " to " + max;
  }

  /** An integer in [min, max]. */
  public static class IntIn implements ITypeConverter<Integer>, Ranged {
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

    @Override
    public String range() {
      return wholeRange(min, max);
    }

    @Override
    public BigDecimal lowest() {
      return BigDecimal.valueOf(min);
    }

    @Override
    public BigDecimal highest() {
      return BigDecimal.valueOf(max);
    }

    @Override
    public String below() {
      return String.valueOf((long) min - 1);
    }

    @Override
    public String above() {
      return String.valueOf((long) max + 1);
    }
  }

  /** A long in [min, max]. */
  public static class LongIn implements ITypeConverter<Long>, Ranged {
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

    @Override
    public String range() {
      return wholeRange(min, max);
    }

    @Override
    public BigDecimal lowest() {
      return BigDecimal.valueOf(min);
    }

    @Override
    public BigDecimal highest() {
      return BigDecimal.valueOf(max);
    }

    @Override
    public String below() {
      return BigInteger.valueOf(min).subtract(BigInteger.ONE).toString();
    }

    @Override
    public String above() {
      return BigInteger.valueOf(max).add(BigInteger.ONE).toString();
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

  /**
   * "0.001 to 100000", "above 0, at most 1000", "0 to below 1", "above 0, below 100": how the help
   * states a decimal range.
   */
  static String decimalRange(String min, boolean minOpen, String max, boolean maxOpen) {
    return (minOpen ? "above " + min + ", " : min + " to ")
        + (maxOpen ? "below " : minOpen ? "at most " : "")
        + max;
  }

  /** A finite decimal in a range whose ends may be open, closed or absent. */
  public static class DecimalIn implements ITypeConverter<BigDecimal>, Ranged {
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
            "'" + value + "' is not a finite decimal number; expected " + describe());
      }
      // exponents beyond what a double holds are not measurements (1e999, 1e-999)
      if (d.signum() != 0
          && (d.precision() - d.scale() > 309 || d.precision() - d.scale() < -300)) {
        throw new TypeConversionException(
            "'" + value + "' is out of range; expected " + describe());
      }
      boolean below = min != null && (minOpen ? d.compareTo(min) <= 0 : d.compareTo(min) < 0);
      boolean above = max != null && (maxOpen ? d.compareTo(max) >= 0 : d.compareTo(max) > 0);
      if (below || above) {
        throw new TypeConversionException(
            "'" + value + "' is out of range; expected " + describe());
      }
      return d;
    }

    @Override
    public String range() {
      if (min == null || max == null) {
        return describe();
      }
      return decimalRange(min.toPlainString(), minOpen, max.toPlainString(), maxOpen);
    }

    @Override
    public @Nullable BigDecimal lowest() {
      return minOpen ? null : min;
    }

    @Override
    public @Nullable BigDecimal highest() {
      return maxOpen ? null : max;
    }

    @Override
    public @Nullable String below() {
      return min == null ? null : (minOpen ? min : min.subtract(step())).toPlainString();
    }

    @Override
    public @Nullable String above() {
      return max == null ? null : (maxOpen ? max : max.add(step())).toPlainString();
    }

    /** One unit in the digit after both ends' last one: 0.0001 for 0.001 and 100000. */
    private BigDecimal step() {
      int scale = 1;
      for (BigDecimal b : new BigDecimal[] {min, max}) {
        if (b != null) {
          scale = Math.max(scale, b.scale() + 1);
        }
      }
      return BigDecimal.ONE.movePointLeft(scale);
    }

    private String describe() {
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
  public static class DoubleIn implements ITypeConverter<Double>, Ranged {
    private final DecimalIn decimal;

    DoubleIn(@Nullable String min, boolean minOpen, @Nullable String max, boolean maxOpen) {
      this.decimal = new DecimalIn(min, minOpen, max, maxOpen);
    }

    @Override
    public Double convert(String value) {
      return decimal.convert(value).doubleValue();
    }

    @Override
    public String range() {
      return decimal.range();
    }

    @Override
    public @Nullable BigDecimal lowest() {
      return decimal.lowest();
    }

    @Override
    public @Nullable BigDecimal highest() {
      return decimal.highest();
    }

    @Override
    public @Nullable String below() {
      return decimal.below();
    }

    @Override
    public @Nullable String above() {
      return decimal.above();
    }
  }

  /** A minimum detectable effect in percent: above 0, below 100. */
  public static final class EffectPercent extends DoubleIn {
    public static final String RANGE = "above 0, below 100";

    public EffectPercent() {
      super("0", true, "100", true);
    }
  }

  /** A concurrency: 1 to the workload's maximum simultaneous requests. */
  public static final class Concurrency extends IntIn {
    public static final String RANGE = "1 to " + InputRanges.MAX_CONCURRENCY;

    public Concurrency() {
      super(1, (int) InputRanges.MAX_CONCURRENCY);
    }
  }

  /** Warmup requests of a load point: 0 to the plan's maximum. */
  public static final class WarmupRequests extends IntIn {
    public static final String RANGE = "0 to " + InputRanges.MAX_WARMUP_REQUESTS;

    public WarmupRequests() {
      super(0, (int) InputRanges.MAX_WARMUP_REQUESTS);
    }
  }

  /** Measured runs per load point: 1 to the comparison-uncertainty rule's maximum. */
  public static final class Repetitions extends IntIn {
    public static final String RANGE = "1 to " + InputRanges.MAX_REPETITIONS;

    public Repetitions() {
      super(1, InputRanges.MAX_REPETITIONS);
    }
  }

  /** validate's measurements of one configuration: 1 to 10 (AIPerf's multiRun.numRuns cap). */
  public static final class Repeats extends IntIn {
    static final int MAX = 10;
    public static final String RANGE = "1 to " + MAX;

    public Repeats() {
      super(1, MAX);
    }
  }

  /** A random seed: 0 to 2^32-1 (AIPerf seeds numpy). */
  public static final class Seed extends LongIn {
    public static final String RANGE = "0 to " + InputRanges.MAX_SEED;

    public Seed() {
      super(0, InputRanges.MAX_SEED);
    }
  }

  /** A token count (ISL, OSL, block size): 1 to the workload's maximum. */
  public static final class Tokens extends IntIn {
    public static final String RANGE = "1 to " + InputRanges.MAX_TOKENS;

    public Tokens() {
      super(1, (int) InputRanges.MAX_TOKENS);
    }
  }

  /** A served context length in tokens: 1 to the ledger's maximum max_context_length. */
  public static final class ContextTokens extends LongIn {
    public static final String RANGE = "1 to " + InputRanges.MAX_TOKENS;

    public ContextTokens() {
      super(1, InputRanges.MAX_TOKENS);
    }
  }

  /** A request rate in requests per second: the workload's range. */
  public static final class RequestRate extends DecimalIn {
    public static final String RANGE =
        InputRanges.MIN_REQUEST_RATE_TEXT + " to " + InputRanges.MAX_REQUEST_RATE_TEXT;

    public RequestRate() {
      super(InputRanges.MIN_REQUEST_RATE_TEXT, false, InputRanges.MAX_REQUEST_RATE_TEXT, false);
    }
  }

  /** A throughput in tokens per second: above 0, at most 10^12. */
  public static final class Throughput extends DecimalIn {
    static final String MAX = "1000000000000";
    public static final String RANGE = "above 0, at most " + MAX;

    public Throughput() {
      super("0", true, MAX, false);
    }
  }

  /** A latency in milliseconds: above 0, at most 10^9 (about 11 days). */
  public static final class Millis extends DecimalIn {
    static final String MAX = "1000000000";
    public static final String RANGE = "above 0, at most " + MAX;

    public Millis() {
      super("0", true, MAX, false);
    }
  }

  /** A fraction from 0 up to but excluding 1 (a tolerance). */
  public static final class Tolerance extends DecimalIn {
    public static final String RANGE = "0 to below 1";

    public Tolerance() {
      super("0", false, "1", true);
    }
  }

  /**
   * A readiness request's bound in whole seconds, 1 to 3600: a number of seconds ({@code 120}) or a
   * duration ({@code 2m}, {@code 90s}).
   */
  public static final class RequestTimeoutSeconds implements ITypeConverter<Integer>, Ranged {
    static final int MIN = 1;
    static final int MAX = 3600;
    public static final String RANGE = MIN + " to " + MAX;

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

    @Override
    public String range() {
      return wholeRange(MIN, MAX);
    }

    @Override
    public BigDecimal lowest() {
      return BigDecimal.valueOf(MIN);
    }

    @Override
    public BigDecimal highest() {
      return BigDecimal.valueOf(MAX);
    }

    @Override
    public String below() {
      return String.valueOf(MIN - 1);
    }

    @Override
    public String above() {
      return String.valueOf(MAX + 1);
    }
  }

  /** A fraction from 0 to 1 (an error rate). */
  public static final class Fraction extends DecimalIn {
    public static final String RANGE = "0 to 1";

    public Fraction() {
      super("0", false, "1", false);
    }
  }
}
