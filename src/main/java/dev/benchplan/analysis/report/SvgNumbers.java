package dev.benchplan.analysis.report;

/**
 * How the plots write numbers into SVG: fixed decimals, trailing zeros dropped, never an exponent
 * ({@code 12.5}, {@code -3}, {@code 0.000001}). JFreeSVG's default writes each number's shortest
 * exact form with a Ryu implementation whose tables are computed with {@code BigInteger} when the
 * first number is written (about 50 ms of every analyze call, in the interpreter); a plot needs a
 * hundredth of a pixel, not seventeen digits.
 */
final class SvgNumbers {
  private SvgNumbers() {}

  /** Coordinates and lengths, in user units (pixels): two decimals. */
  static String geometry(double d) {
    return fixed(d, 2);
  }

  /** Transform matrix entries (rotation cosines, scale factors, translations): six decimals. */
  static String transform(double d) {
    return fixed(d, 6);
  }

  private static final long[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

  /** {@code d} rounded to {@code places} decimals (half even), trailing zeros and "-0" dropped. */
  static String fixed(double d, int places) {
    long scale = POWERS[places];
    double scaled = Math.rint(d * scale);
    if (!Double.isFinite(scaled) || Math.abs(scaled) >= 0x1p53) {
      // beyond a long's exact range (or not a number): as Java writes it
      return Double.toString(d);
    }
    long v = (long) scaled;
    if (v == 0) {
      return "0";
    }
    StringBuilder sb = new StringBuilder(24);
    if (v < 0) {
      sb.append('-');
      v = -v;
    }
    sb.append(v / scale);
    long fraction = v % scale;
    if (fraction != 0) {
      int digits = places;
      while (fraction % 10 == 0) {
        fraction /= 10;
        digits--;
      }
      sb.append('.');
      String f = Long.toString(fraction);
      for (int i = f.length(); i < digits; i++) {
        sb.append('0');
      }
      sb.append(f);
    }
    return sb.toString();
  }
}
