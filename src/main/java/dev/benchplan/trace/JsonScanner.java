package dev.benchplan.trace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * A strict (RFC 8259) byte-level JSON scanner over one line held in a byte array: whitespace,
 * strings (escapes and well-formed UTF-8), numbers, literals and nested values, without building
 * any object. It knows nothing about Mooncake rows; {@link MooncakeLineParser} drives it.
 *
 * <p>The caller guarantees that every line ends with a {@code '\n'} inside the array, followed by
 * at least {@link #PADDING} more bytes (of any value). No JSON token may contain a raw newline, so
 * every loop stops at that byte; the padding lets the number paths read 8 bytes at once (SWAR:
 * "SIMD within a register").
 *
 * <p>Strings are checked as the text they denote: a {@code \\u} escape of a UTF-16 surrogate must
 * be a high surrogate immediately followed by an escaped low one (one code point above U+FFFF); a
 * lone surrogate is refused like the raw UTF-8 encoding of one, since it is no Unicode text and
 * cannot be sent to a server as UTF-8.
 */
final class JsonScanner {
  /** Bytes that must follow the last line's '\n' in the array (word-at-a-time reads). */
  static final int PADDING = 16;

  /** Reads 8 bytes of a byte array as one little-endian long. */
  static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** {@link #numKind}: an integer that fits a long, in {@link #numValue}. */
  static final int INTEGER = 0;

  /** {@link #numKind}: a negative integer (-0 is zero, an integer). */
  static final int NEGATIVE = 1;

  /** {@link #numKind}: a number with a fraction or an exponent. */
  static final int NOT_INTEGER = 2;

  /** {@link #numKind}: an integer too large for a long. */
  static final int OUT_OF_RANGE = 3;

  static final int MAX_DEPTH = 512;
  private static final int TOKEN_SHOWN = 40;

  static final long[] POWERS_OF_TEN = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000
  };

  private final Syntax syntax = new Syntax();

  /** The bytes of the current line (and more). */
  byte[] buf = new byte[0];

  private int lineStart;

  /** The kind of the number {@link #parseNumber} or {@link #fastNonNegative} just read. */
  int numKind;

  /** The value of that number when it is an {@link #INTEGER}. */
  long numValue;

  /** Starts a line at {@code lineStart} of {@code bytes} (columns in messages count from it). */
  void start(byte[] bytes, int lineStart) {
    this.buf = bytes;
    this.lineStart = lineStart;
  }

  int skipWs(int p) {
    byte[] b = buf;
    while (true) {
      byte c = b[p];
      if (c != ' ' && c != '\t' && c != '\r') {
        return p;
      }
      p++;
    }
  }

  /** Validates any JSON value at {@code p} (strings, numbers, literals, nested containers). */
  int skipValue(int p, int depth) {
    byte[] b = buf;
    if (depth > MAX_DEPTH) {
      fail(p, "nested deeper than " + MAX_DEPTH + " levels");
    }
    byte c = b[p];
    switch (c) {
      case '"':
        return scanString(p);
      case '{':
        p = skipWs(p + 1);
        if (b[p] == '}') {
          return p + 1;
        }
        while (true) {
          if (b[p] != '"') {
            fail(p, "expected a field name in double quotes");
          }
          p = skipWs(scanString(p));
          if (b[p] != ':') {
            fail(p, "expected ':' after a field name");
          }
          p = skipWs(skipValue(skipWs(p + 1), depth + 1));
          if (b[p] == ',') {
            p = skipWs(p + 1);
          } else if (b[p] == '}') {
            return p + 1;
          } else {
            fail(p, "expected ',' or '}' in an object");
          }
        }
      case '[':
        p = skipWs(p + 1);
        if (b[p] == ']') {
          return p + 1;
        }
        while (true) {
          p = skipWs(skipValue(p, depth + 1));
          if (b[p] == ',') {
            p = skipWs(p + 1);
          } else if (b[p] == ']') {
            return p + 1;
          } else {
            fail(p, "expected ',' or ']' in a list");
          }
        }
      case 't':
        return literal(p, "true");
      case 'f':
        return literal(p, "false");
      case 'n':
        return literal(p, "null");
      default:
        if (c == '-' || isDigit(c)) {
          return parseNumber(p);
        }
        fail(p, "expected a JSON value");
        return p; // unreachable
    }
  }

  private int literal(int p, String word) {
    for (int i = 0; i < word.length(); i++) {
      if (buf[p + i] != word.charAt(i)) {
        fail(p + i, "expected the literal " + word);
      }
    }
    return p + word.length();
  }

  /**
   * Parses a JSON number at {@code p}; sets {@link #numKind} and, for integers, {@link #numValue}.
   *
   * @return the index after the number
   */
  int parseNumber(int p) {
    byte[] b = buf;
    boolean negative = false;
    if (b[p] == '-') {
      negative = true;
      p++;
    }
    int digitsStart = p;
    int d = b[p] - '0';
    long v;
    if (d == 0) {
      p++;
      v = 0;
      if (isDigit(b[p])) {
        fail(p, "a number must not have a leading zero");
      }
    } else if (d > 0 && d <= 9) {
      v = d;
      p++;
      while (true) {
        d = b[p] - '0';
        if (d < 0 || d > 9) {
          break;
        }
        v = v * 10 + d;
        p++;
      }
    } else {
      fail(p, "expected a digit");
      return p; // unreachable: fail throws
    }
    int digits = p - digitsStart;
    byte c = b[p];
    boolean fractionOrExponent = false;
    if (c == '.') {
      p++;
      if (!isDigit(b[p])) {
        fail(p, "expected a digit after '.'");
      }
      do {
        p++;
      } while (isDigit(b[p]));
      fractionOrExponent = true;
      c = b[p];
    }
    if (c == 'e' || c == 'E') {
      p++;
      if (b[p] == '+' || b[p] == '-') {
        p++;
      }
      if (!isDigit(b[p])) {
        fail(p, "expected a digit in the exponent");
      }
      do {
        p++;
      } while (isDigit(b[p]));
      fractionOrExponent = true;
    }
    if (fractionOrExponent) {
      numKind = NOT_INTEGER;
    } else if (negative && (digits > 1 || v != 0)) {
      numKind = NEGATIVE; // -0 is zero, not negative
    } else if (digits > 18 && !fitsInLong(digitsStart, p)) {
      numKind = OUT_OF_RANGE;
    } else {
      numKind = INTEGER;
      numValue = v;
    }
    return p;
  }

  /**
   * Fast path for a plain non-negative integer of 1 to 15 digits, 8 bytes at a time: classifies the
   * bytes as digits or not with nibble arithmetic and converts the digits with three
   * multiplications (the simdjson method), without a branch per digit.
   *
   * @return the index after the number (and sets {@link #numValue}), or -1 when the slow path must
   *     decide: no digit, a leading zero, 16 or more digits, a fraction or an exponent
   */
  int fastNonNegative(int p) {
    byte[] b = buf;
    long w = (long) LONGS.get(b, p);
    long w2 = (long) LONGS.get(b, p + 8);
    int n = leadingDigits(w);
    int n2 = secondDigits(n, w2);
    int end = p + n + n2;
    byte next = b[end];
    if (n == 0
        || n2 == 8
        || next == '.'
        || next == 'e'
        || next == 'E'
        || (b[p] == '0' && end - p > 1)) {
      return -1;
    }
    numValue = sixteenDigits(w, n, w2, n2);
    return end;
  }

  /**
   * How many leading digits the second 8 bytes add to a number whose first 8 bytes hold {@code n}:
   * those of {@code w2} when all 8 were digits, else 0. Without a branch, like {@link
   * #sixteenDigits}: a number's length is no branch the JIT can bet on (a trace's ids and
   * timestamps gain digits as the file goes on, and a compiled parser that had only seen shorter
   * ones would be thrown away and compiled again at each new length).
   */
  static int secondDigits(int n, long w2) {
    return leadingDigits(w2) & -(n >>> 3); // n >>> 3 is 1 only for n == 8
  }

  /**
   * The value of the {@code n} (1..8) leading digits of {@code w} followed by the {@code n2} (0..7)
   * leading digits of {@code w2} (see {@link #secondDigits}), without a branch.
   */
  static long sixteenDigits(long w, int n, long w2, int n2) {
    long high = eightDigits(w << ((8 - n) << 3)); // n == 8: a shift by 0
    // n2 == 0: a shift by 64 is one by 0 in Java; the mask then drops that word
    long low = eightDigits(w2 << ((8 - n2) << 3)) & -(long) ((n2 + 7) >>> 3);
    return high * POWERS_OF_TEN[n2] + low;
  }

  /** How many of the 8 bytes (little-endian: first byte lowest) are leading ASCII digits. */
  static int leadingDigits(long w) {
    // a byte is a digit when its high nibble is 3 and adding 6 keeps it 3 (low nibble <= 9);
    // a carry out of a byte can only come from a non-digit, after which nothing counts
    long notDigit =
        ((w & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L)
            | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L);
    return Long.numberOfTrailingZeros(notDigit) >>> 3;
  }

  /** The value of 8 ASCII digits (zero bytes count as leading zeros), first digit lowest. */
  static long eightDigits(long w) {
    long v = w & 0x0F0F0F0F0F0F0F0FL;
    v = (v * 2561) >>> 8 & 0x00FF00FF00FF00FFL;
    v = (v * 6553601) >>> 16 & 0x0000FFFF0000FFFFL;
    return (v * 42949672960001L) >>> 32;
  }

  /** Up to 18 digits always fit; 19 may; 20 or more never do. */
  private boolean fitsInLong(int from, int to) {
    if (to - from > 19) {
      return false;
    }
    try {
      Long.parseLong(new String(buf, from, to - from, StandardCharsets.US_ASCII));
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Validates the string whose opening quote is at {@code q}: escapes (surrogates only in valid
   * pairs), no raw control characters, well-formed UTF-8 (no overlong forms, surrogates or code
   * points above U+10FFFF).
   *
   * @return the index after the closing quote
   */
  int scanString(int q) {
    byte[] b = buf;
    int p = q + 1;
    while (true) {
      byte c = b[p];
      if (c >= 0x20) { // printable ASCII (bytes >= 0x80 are negative)
        if (c == '"') {
          return p + 1;
        }
        if (c == '\\') {
          p = escape(p);
        } else {
          p++;
        }
      } else if (c < 0) {
        p = utf8(p);
      } else {
        fail(p, c == '\n' ? "unterminated string" : "raw control character in a string");
      }
    }
  }

  private int escape(int p) {
    byte e = buf[p + 1];
    switch (e) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
        return p + 2;
      case 'u':
        int unit = hex4(p + 2);
        if (unit >= 0xDC00 && unit <= 0xDFFF) {
          fail(
              p,
              String.format(
                  "lone low surrogate \\u%04X (expected a high surrogate"
                      + " \\uD800-\\uDBFF before it)",
                  unit));
        }
        if (unit >= 0xD800 && unit <= 0xDBFF) {
          int low = buf[p + 6] == '\\' && buf[p + 7] == 'u' ? hex4(p + 8) : -1;
          if (low < 0xDC00 || low > 0xDFFF) {
            fail(
                p,
                String.format(
                    "lone high surrogate \\u%04X (expected a low surrogate"
                        + " \\uDC00-\\uDFFF right after it)",
                    unit));
          }
          return p + 12;
        }
        return p + 6;
      default:
        fail(p + 1, "invalid escape \\" + (char) (e & 0xFF));
        return p; // unreachable
    }
  }

  /** The value of the 4 hex digits at {@code p}. */
  private int hex4(int p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(buf[p + i], 16);
      if (d < 0) {
        fail(p + i, "expected 4 hex digits after \\u");
      }
      v = v << 4 | d;
    }
    return v;
  }

  /** Validates one UTF-8 sequence whose lead byte (>= 0x80) is at {@code p}. */
  private int utf8(int p) {
    byte[] b = buf;
    int lead = b[p] & 0xFF;
    if (lead < 0xC2) {
      failUtf8(p);
    }
    if (lead < 0xE0) {
      continuation(p, 1);
      return p + 2;
    }
    int second = b[p + 1] & 0xFF;
    if (lead < 0xF0) {
      if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F)) {
        failUtf8(p); // overlong form, or a UTF-16 surrogate
      }
      continuation(p, 1);
      continuation(p, 2);
      return p + 3;
    }
    if (lead > 0xF4 || (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)) {
      failUtf8(p); // overlong form, or above U+10FFFF
    }
    continuation(p, 1);
    continuation(p, 2);
    continuation(p, 3);
    return p + 4;
  }

  /** Checks byte {@code lead + k} is a continuation byte; errors name the sequence's start. */
  private void continuation(int lead, int k) {
    if ((buf[lead + k] & 0xC0) != 0x80) {
      failUtf8(lead);
    }
  }

  /**
   * Decodes a string {@link #scanString} validated (quotes at {@code q} and {@code end - 1}) to a
   * Java string: raw UTF-8 as is, escapes to their characters, an escaped surrogate pair to its one
   * code point.
   */
  String decodeString(int q, int end) {
    StringBuilder out = new StringBuilder(end - q);
    int p = q + 1;
    int last = end - 1;
    while (p < last) {
      int from = p;
      while (p < last && buf[p] != '\\') {
        p++;
      }
      if (p > from) {
        out.append(new String(buf, from, p - from, StandardCharsets.UTF_8));
      }
      if (p == last) {
        break;
      }
      byte e = buf[p + 1];
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        // a surrogate pair is two \\u escapes; appended one after the other they form the pair
        case 'u' -> out.append((char) hex4(p + 2));
        default -> out.append((char) e);
      }
      p += e == 'u' ? 6 : 2;
    }
    return out.toString();
  }

  static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  /** A JSON syntax error at {@code p}: unless the byte there starts invalid UTF-8. */
  void fail(int p, String why) {
    if (buf[p] < 0 && !validUtf8At(p)) {
      failUtf8(p);
    }
    throw syntax.at(p, "not a JSON object: " + why + " at column " + (p - lineStart + 1));
  }

  private void failUtf8(int p) {
    throw syntax.at(
        p,
        String.format(
            "invalid UTF-8: a bad sequence starting with byte 0x%02X at column %d",
            buf[p] & 0xFF, p - lineStart + 1));
  }

  private boolean validUtf8At(int p) {
    try {
      utf8(p);
      return true;
    } catch (Syntax s) {
      return false;
    }
  }

  /** Names a JSON value for a message: {@code a string ("5")}, {@code null}, {@code a list}. */
  String describe(int s, int e) {
    return switch (buf[s]) {
      case '"' -> "a string (" + token(s, e) + ")";
      case '[' -> "a list";
      case '{' -> "an object";
      case 'n' -> "null";
      case 't', 'f' -> "a boolean (" + token(s, e) + ")";
      default -> token(s, e);
    };
  }

  /** The source text of a token, shortened for messages. */
  String token(int s, int e) {
    String t = new String(buf, s, Math.min(e - s, TOKEN_SHOWN), StandardCharsets.UTF_8);
    return e - s > TOKEN_SHOWN ? t + "..." : t;
  }

  /** The first 8 bytes of an ASCII string as a little-endian long. */
  static long word(String s) {
    byte[] b = new byte[8];
    System.arraycopy(s.getBytes(StandardCharsets.US_ASCII), 0, b, 0, 8);
    return (long) LONGS.get(b, 0);
  }

  /**
   * Unwinds a line that is not JSON; preallocated and without a stack trace, so bad lines stay
   * cheap. Carries the byte position and the message.
   */
  static final class Syntax extends RuntimeException {
    private static final long serialVersionUID = 1L;
    int position;
    @Nullable String why;

    Syntax() {
      super(null, null, false, false);
    }

    Syntax at(int p, String message) {
      position = p;
      why = message;
      return this;
    }
  }
}
