package dev.benchplan.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations as {@code 30s}, {@code 5m}, {@code 1h}, {@code 250ms} or ISO-8601 {@code PT30S}. */
public final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /** Parses a duration; throws a picocli conversion error naming what was expected. */
  public static Duration parse(String value) {
    String v = value.trim();
    Matcher m = SIMPLE.matcher(v);
    Duration d;
    if (m.matches()) {
      try {
        long n = Long.parseLong(m.group(1));
        d =
            switch (m.group(2)) {
              case "ms" -> Duration.ofMillis(n);
              case "s" -> Duration.ofSeconds(n);
              case "m" -> Duration.ofMinutes(n);
              default -> Duration.ofHours(n);
            };
      } catch (NumberFormatException | ArithmeticException e) {
        throw new TypeConversionException(
            "'" + value + "' is too long a duration; expected e.g. 30s, 5m, 1h");
      }
    } else {
      try {
        d = Duration.parse(v);
      } catch (DateTimeParseException | ArithmeticException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a duration: expected e.g. 30s, 5m, 1h or PT30S");
      }
    }
    if (d.isNegative() || d.isZero()) {
      throw new TypeConversionException("'" + value + "' must be a positive duration");
    }
    return d;
  }
}
