package dev.benchplan.render;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * The identity of one run, chosen at render time: {@code YYYYMMDDTHHMMSSZ-<4 hex>} (UTC second plus
 * 16 random bits, so two renders in one second still differ).
 */
public record RunId(String value) {
  private static final Pattern FORMAT = Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]{4}");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  public RunId {
    if (value == null || !FORMAT.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "run id '" + value + "' does not match YYYYMMDDTHHMMSSZ-<4 hex>");
    }
  }

  /** A new run id from the clock's current second and 16 random bits. */
  public static RunId generate(Clock clock, RandomGenerator random) {
    String hex = HexFormat.of().toHexDigits((short) random.nextInt(1 << 16));
    return new RunId(STAMP.format(clock.instant()) + "-" + hex);
  }

  @Override
  public String toString() {
    return value;
  }
}
