package dev.benchplan.trace;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A hand-written, allocation-free parser for one line of a Mooncake JSONL trace, working directly
 * on the bytes of the file. It validates the whole line as strict JSON (RFC 8259) and UTF-8, and
 * extracts the fields a trace row has into {@link RowFields}.
 *
 * <p>The caller guarantees that every line it passes ends with a {@code '\n'} inside the array,
 * followed by at least {@link #PADDING} more bytes (of any value). No JSON token may contain a raw
 * newline, so every loop stops at that byte; the padding lets the hot paths read 8 bytes at once
 * (SWAR: "SIMD within a register") to parse numbers and match field names.
 */
final class JsonlLineParser {
  /** The line held only whitespace. */
  static final int BLANK = 0;
  /** The line is a JSON object; its fields are in {@link #row()}. */
  static final int ROW = 1;
  /** The line is not a JSON object or not UTF-8; see {@link #badMessage()}. */
  static final int BAD = 2;

  /** Bytes that must follow the last line's '\n' in the array (word-at-a-time reads). */
  static final int PADDING = 16;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** ", " as two little-endian bytes. */
  private static final long COMMA_SPACE = ',' | ' ' << 8;
  private static final long TIMESTAMP_8 = word("timestam");
  private static final long INPUT_8 = word("input_le");
  private static final long OUTPUT_8 = word("output_l");
  private static final long HASH_IDS_8 = word("hash_ids");
  private static final long TEXT_8 = word("text_inp");

  private static final int F_OTHER = 0;
  private static final int F_TIMESTAMP = 1;
  private static final int F_INPUT = 2;
  private static final int F_OUTPUT = 3;
  private static final int F_HASH_IDS = 4;
  private static final int F_TEXT = 5;

  private static final byte[] K_TIMESTAMP = ascii("timestamp");
  private static final byte[] K_INPUT = ascii("input_length");
  private static final byte[] K_OUTPUT = ascii("output_length");
  private static final byte[] K_HASH_IDS = ascii("hash_ids");
  private static final byte[] K_TEXT = ascii("text_input");

  private static final int N_INTEGER = 0;
  private static final int N_NEGATIVE = 1;
  private static final int N_NOT_INTEGER = 2;
  private static final int N_OUT_OF_RANGE = 3;

  private static final long LENGTH_MAX = Integer.MAX_VALUE;
  private static final int MAX_DEPTH = 512;
  private static final int TOKEN_SHOWN = 40;

  private final RowFields row = new RowFields();
  private boolean firstLine = true;
  private final Abort abort = new Abort();
  private byte[] buf;
  private int lineStart;
  private int outcome;
  private String badMessage;
  /** The end of the key {@link #readKey} just read. */
  private int keyEnd;
  private int numKind;
  private long numValue;

  RowFields row() {
    return row;
  }

  int outcome() {
    return outcome;
  }

  String badMessage() {
    return badMessage;
  }

  /**
   * Parses the line that starts at {@code start}.
   *
   * @return the index just after the line's {@code '\n'}
   */
  int parseLine(byte[] bytes, int start) {
    this.buf = bytes;
    row.reset();
    if (firstLine) {
      firstLine = false;
      // a UTF-8 byte-order mark at the start of the file is accepted (and still hashed)
      if (bytes[start] == (byte) 0xEF && bytes[start + 1] == (byte) 0xBB
          && bytes[start + 2] == (byte) 0xBF) {
        start += 3;
      }
    }
    this.lineStart = start;
    int p = skipWs(start);
    byte b = bytes[p];
    if (b == '\n') {
      outcome = BLANK;
      return p + 1;
    }
    try {
      if (b != '{') {
        fail(p, "found " + describeStart(b));
      }
      p = skipWs(parseObject(p));
      if (bytes[p] != '\n') {
        fail(p, "unexpected content after the object");
      }
      outcome = ROW;
      return p + 1;
    } catch (Abort a) {
      outcome = BAD;
      int q = a.position;
      while (bytes[q] != '\n') {
        q++;
      }
      return q + 1;
    }
  }

  private int parseObject(int open) {
    byte[] b = buf;
    int p = skipWs(open + 1);
    if (b[p] == '}') {
      return p + 1;
    }
    while (true) {
      if (b[p] != '"') {
        fail(p, "expected a field name in double quotes");
      }
      int field = knownKey(p);
      if (field < 0) {
        field = readKey(p);
      }
      p = skipWs(keyEnd);
      if (b[p] != ':') {
        fail(p, "expected ':' after a field name");
      }
      p = skipWs(p + 1);
      switch (field) {
        case F_HASH_IDS -> p = parseHashIds(p);
        case F_TIMESTAMP -> {
          if (row.hasTimestamp) {
            duplicate("timestamp");
          }
          row.hasTimestamp = true;
          p = parseInteger(p, "timestamp", Long.MAX_VALUE);
          if (numKind == N_INTEGER && numValue >= 0) {
            row.timestampValid = true;
            row.timestamp = numValue;
          }
        }
        case F_INPUT -> {
          if (row.hasInput) {
            duplicate("input_length");
          }
          row.hasInput = true;
          p = parseInteger(p, "input_length", LENGTH_MAX);
          if (numKind == N_INTEGER && numValue >= 0) {
            row.inputValid = true;
            row.input = numValue;
          }
        }
        case F_OUTPUT -> {
          if (row.hasOutput) {
            duplicate("output_length");
          }
          row.hasOutput = true;
          p = parseInteger(p, "output_length", LENGTH_MAX);
          if (numKind == N_INTEGER && numValue >= 0) {
            row.outputValid = true;
            row.output = numValue;
          }
        }
        case F_TEXT -> p = parseTextInput(p);
        default -> p = skipValue(p, 1);
      }
      p = skipWs(p);
      byte c = b[p];
      if (c == ',') {
        p = skipWs(p + 1);
      } else if (c == '}') {
        return p + 1;
      } else {
        fail(p, "expected ',' or '}' after a field value");
      }
    }
  }

  /**
   * Fast path for the five field names a row has, compared 8 bytes at a time.
   *
   * @return the field, or -1 when the key at {@code q} is none of them written plainly
   */
  private int knownKey(int q) {
    byte[] b = buf;
    long w = (long) LONGS.get(b, q + 1);
    int field;
    int end;
    if (w == HASH_IDS_8) {
      field = F_HASH_IDS;
      end = q + 9;
    } else if (w == TIMESTAMP_8 && b[q + 9] == 'p') {
      field = F_TIMESTAMP;
      end = q + 10;
    } else if (w == INPUT_8 && b[q + 9] == 'n' && b[q + 10] == 'g' && b[q + 11] == 't'
        && b[q + 12] == 'h') {
      field = F_INPUT;
      end = q + 13;
    } else if (w == OUTPUT_8 && b[q + 9] == 'e' && b[q + 10] == 'n' && b[q + 11] == 'g'
        && b[q + 12] == 't' && b[q + 13] == 'h') {
      field = F_OUTPUT;
      end = q + 14;
    } else if (w == TEXT_8 && b[q + 9] == 'u' && b[q + 10] == 't') {
      field = F_TEXT;
      end = q + 11;
    } else {
      return -1;
    }
    if (b[end] != '"') {
      return -1;
    }
    keyEnd = end + 1;
    return field;
  }

  /** Reads the key whose opening quote is at {@code q}; sets {@link #keyEnd}. */
  private int readKey(int q) {
    byte[] b = buf;
    int s = q + 1;
    int p = s;
    while (true) {
      byte c = b[p];
      if (c == '"') {
        break;
      }
      if (c < 0x20 || c == '\\') {
        return readKeySlow(q);
      }
      p++;
    }
    keyEnd = p + 1;
    int len = p - s;
    switch (len) {
      case 8:
        return matches(s, K_HASH_IDS) ? F_HASH_IDS : F_OTHER;
      case 9:
        return matches(s, K_TIMESTAMP) ? F_TIMESTAMP : F_OTHER;
      case 10:
        return matches(s, K_TEXT) ? F_TEXT : F_OTHER;
      case 12:
        return matches(s, K_INPUT) ? F_INPUT : F_OTHER;
      case 13:
        return matches(s, K_OUTPUT) ? F_OUTPUT : F_OTHER;
      default:
        return F_OTHER;
    }
  }

  private boolean matches(int s, byte[] key) {
    return Arrays.equals(buf, s, s + key.length, key, 0, key.length);
  }

  /** A key with escapes or non-ASCII bytes: validate and decode it, then match by name. */
  private int readKeySlow(int q) {
    keyEnd = scanString(q);
    String name = decodeString(q, keyEnd);
    switch (name) {
      case "timestamp":
        return F_TIMESTAMP;
      case "input_length":
        return F_INPUT;
      case "output_length":
        return F_OUTPUT;
      case "hash_ids":
        return F_HASH_IDS;
      case "text_input":
        return F_TEXT;
      default:
        return F_OTHER;
    }
  }

  private int parseTextInput(int p) {
    if (row.hasText) {
      duplicate("text_input");
    }
    byte c = buf[p];
    if (c == '"') {
      row.hasText = true;
      return scanString(p);
    }
    int end = skipValue(p, 1);
    if (c != 'n') { // null means "no text_input", as AIPerf reads it
      row.addProblem("text_input", "expected a string, got " + describe(p, end));
    }
    return end;
  }

  /** Parses an integer field value; on any other value records a problem for the field. */
  private int parseInteger(int p, String field, long max) {
    int fast = fastNonNegative(p);
    if (fast >= 0) {
      if (numValue <= max) {
        numKind = N_INTEGER;
      } else {
        numKind = N_OUT_OF_RANGE;
        row.addProblem(
            field, "out of range: expected at most " + max + ", got " + token(p, fast));
      }
      return fast;
    }
    byte c = buf[p];
    if (c == '-' || (c >= '0' && c <= '9')) {
      int end = parseNumber(p);
      if (numKind == N_INTEGER && numValue > max) {
        numKind = N_OUT_OF_RANGE;
      }
      switch (numKind) {
        case N_INTEGER -> {}
        case N_NEGATIVE -> row.addProblem(
            field, "expected a non-negative integer, got " + token(p, end));
        case N_NOT_INTEGER -> row.addProblem(field, "expected an integer, got " + token(p, end));
        default -> row.addProblem(
            field, "out of range: expected at most " + max + ", got " + token(p, end));
      }
      return end;
    }
    int end = skipValue(p, 1);
    numKind = N_NOT_INTEGER;
    row.addProblem(field, "expected an integer, got " + describe(p, end));
    return end;
  }

  private int parseHashIds(int p) {
    byte[] b = buf;
    if (row.hasHashIds) {
      duplicate("hash_ids");
    }
    row.hasHashIds = true;
    row.idCount = 0;
    if (b[p] != '[') {
      int end = skipValue(p, 1);
      row.addProblem(
          "hash_ids", "expected a list of non-negative integers, got " + describe(p, end));
      return end;
    }
    boolean ok = true;
    p = skipWs(p + 1);
    if (b[p] == ']') {
      row.hashIdsValid = true;
      return p + 1;
    }
    // ids and their count live in locals in this loop (written back at the end): the hot loop
    // of the whole scanner
    long[] ids = row.ids;
    int count = 0;
    while (true) {
      if (count == ids.length) {
        ids = Arrays.copyOf(ids, count * 2);
        row.ids = ids;
      }
      // the common case in one 8-byte read: 1 to 6 digits followed by ", "; the next element
      // then starts right there (any further whitespace goes to the general path below)
      long w = (long) LONGS.get(b, p);
      int n = leadingDigits(w);
      if (n > 0 && n <= 6 && ((w >>> (n << 3)) & 0xFFFF) == COMMA_SPACE
          && (n == 1 || (w & 0xFF) != '0')) {
        ids[count++] = eightDigits(w << ((8 - n) << 3));
        p += n + 2;
        continue;
      }
      // 7 to 15 digits followed by ", " (ids of large traces): two 8-byte reads
      if (n >= 7) {
        long w2 = (long) LONGS.get(b, p + 8);
        int n2 = n == 8 ? leadingDigits(w2) : 0;
        int len = n + n2;
        if (n2 < 8 && b[p + len] == ',' && b[p + len + 1] == ' ' && (w & 0xFF) != '0') {
          long value = n == 7 ? eightDigits(w << 8) : eightDigits(w);
          if (n2 > 0) {
            value = value * POWERS_OF_TEN[n2] + eightDigits(w2 << ((8 - n2) << 3));
          }
          ids[count++] = value;
          p += len + 2;
          continue;
        }
      }
      p = skipWs(p);
      int fast = fastNonNegative(p);
      byte c = b[p];
      int s = p;
      if (fast >= 0) {
        ids[count++] = numValue;
        p = fast;
      } else if (c >= '0' && c <= '9' || c == '-') {
        p = parseNumber(p);
        if (numKind == N_INTEGER) {
          ids[count++] = numValue;
        } else if (ok) {
          ok = false;
          row.addProblem("hash_ids", "element " + count + ": expected a non-negative integer, got "
              + token(s, p) + (numKind == N_OUT_OF_RANGE ? " (out of range)" : ""));
        }
      } else {
        p = skipValue(p, 2);
        if (ok) {
          ok = false;
          row.addProblem("hash_ids",
              "element " + count + ": expected a non-negative integer, got " + describe(s, p));
        }
      }
      p = skipWs(p);
      c = b[p];
      if (c == ',') {
        p = skipWs(p + 1);
        continue;
      }
      if (c != ']') {
        fail(p, "expected ',' or ']' in hash_ids");
      }
      row.idCount = count;
      row.hashIdsValid = ok;
      return p + 1;
    }
  }

  /**
   * Parses a JSON number at {@code p}; sets {@link #numKind} and, for integers, {@link #numValue}.
   *
   * @return the index after the number
   */
  private int parseNumber(int p) {
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
      numKind = N_NOT_INTEGER;
    } else if (negative && (digits > 1 || v != 0)) {
      numKind = N_NEGATIVE; // -0 is zero, not negative
    } else if (digits > 18 && !fitsInLong(digitsStart, p)) {
      numKind = N_OUT_OF_RANGE;
    } else {
      numKind = N_INTEGER;
      numValue = v;
    }
    return p;
  }

  /**
   * Fast path for a plain non-negative integer of 1 to 15 digits, 8 bytes at a time: classifies
   * the bytes as digits or not with nibble arithmetic and converts the digits with three
   * multiplications (the simdjson method), without a branch per digit.
   *
   * @return the index after the number (and sets {@link #numValue}), or -1 when the slow path
   *     must decide: no digit, a leading zero, 16 or more digits, a fraction or an exponent
   */
  private int fastNonNegative(int p) {
    byte[] b = buf;
    long w = (long) LONGS.get(b, p);
    int n = leadingDigits(w);
    long value;
    int end;
    if (n < 8) {
      if (n == 0) {
        return -1;
      }
      value = eightDigits(w << ((8 - n) << 3));
      end = p + n;
    } else {
      long w2 = (long) LONGS.get(b, p + 8);
      int n2 = leadingDigits(w2);
      if (n2 == 8) {
        return -1;
      }
      value = eightDigits(w);
      if (n2 > 0) {
        value = value * POWERS_OF_TEN[n2] + eightDigits(w2 << ((8 - n2) << 3));
      }
      end = p + 8 + n2;
    }
    byte next = b[end];
    if (next == '.' || next == 'e' || next == 'E' || (b[p] == '0' && end - p > 1)) {
      return -1;
    }
    numValue = value;
    return end;
  }

  private static final long[] POWERS_OF_TEN = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000
  };

  /** How many of the 8 bytes (little-endian: first byte lowest) are leading ASCII digits. */
  private static int leadingDigits(long w) {
    // a byte is a digit when its high nibble is 3 and adding 6 keeps it 3 (low nibble <= 9);
    // a carry out of a byte can only come from a non-digit, after which nothing counts
    long notDigit =
        ((w & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L)
            | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L);
    return Long.numberOfTrailingZeros(notDigit) >>> 3;
  }

  /** The value of 8 ASCII digits (zero bytes count as leading zeros), first digit lowest. */
  private static long eightDigits(long w) {
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

  /** Validates any JSON value at {@code p} (strings, numbers, literals, nested containers). */
  private int skipValue(int p, int depth) {
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
   * Validates the string whose opening quote is at {@code q}: escapes, no raw control characters,
   * well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
   *
   * @return the index after the closing quote
   */
  private int scanString(int q) {
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
        for (int i = 2; i < 6; i++) {
          if (Character.digit(buf[p + i], 16) < 0) {
            fail(p + i, "expected 4 hex digits after \\u");
          }
        }
        return p + 6;
      default:
        fail(p + 1, "invalid escape \\" + (char) (e & 0xFF));
        return p; // unreachable
    }
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
      if (lead == 0xE0 && second < 0xA0 || lead == 0xED && second > 0x9F) {
        failUtf8(p); // overlong form, or a UTF-16 surrogate
      }
      continuation(p, 1);
      continuation(p, 2);
      return p + 3;
    }
    if (lead > 0xF4 || lead == 0xF0 && second < 0x90 || lead == 0xF4 && second > 0x8F) {
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

  private int skipWs(int p) {
    byte[] b = buf;
    while (true) {
      byte c = b[p];
      if (c != ' ' && c != '\t' && c != '\r') {
        return p;
      }
      p++;
    }
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  private void duplicate(String field) {
    row.addProblem(field, "duplicate field (a JSON object must name each field once)");
  }

  /** A JSON syntax error at {@code p}: unless the byte there starts invalid UTF-8. */
  private void fail(int p, String why) {
    if (buf[p] < 0 && !validUtf8At(p)) {
      failUtf8(p);
    }
    badMessage = "not a JSON object: " + why + " at column " + (p - lineStart + 1);
    abort.position = p;
    throw abort;
  }

  private void failUtf8(int p) {
    badMessage =
        String.format(
            "invalid UTF-8: a bad sequence starting with byte 0x%02X at column %d",
            buf[p] & 0xFF,
            p - lineStart + 1);
    abort.position = p;
    throw abort;
  }

  private boolean validUtf8At(int p) {
    try {
      utf8(p);
      return true;
    } catch (Abort a) {
      return false;
    }
  }

  private static String describeStart(byte c) {
    return switch (c) {
      case '[' -> "a list, expected an object";
      case '"' -> "a string, expected an object";
      case 't', 'f' -> "a boolean, expected an object";
      case 'n' -> "null, expected an object";
      default -> c == '-' || isDigit(c) ? "a number, expected an object" : "no JSON value";
    };
  }

  /** Names a JSON value for a message: {@code a string ("5")}, {@code null}, {@code a list}. */
  private String describe(int s, int e) {
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
  private String token(int s, int e) {
    String t = new String(buf, s, Math.min(e - s, TOKEN_SHOWN), StandardCharsets.UTF_8);
    return e - s > TOKEN_SHOWN ? t + "..." : t;
  }

  /** Decodes a validated JSON string (quotes at q and end - 1) to a Java string. */
  private String decodeString(int q, int end) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int p = q + 1;
    while (p < end - 1) {
      byte c = buf[p];
      if (c != '\\') {
        out.write(c);
        p++;
        continue;
      }
      byte e = buf[p + 1];
      char ch =
          switch (e) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> (char)
                Integer.parseInt(new String(buf, p + 2, 4, StandardCharsets.US_ASCII), 16);
            default -> (char) e;
          };
      byte[] enc = String.valueOf(ch).getBytes(StandardCharsets.UTF_8);
      out.write(enc, 0, enc.length);
      p += e == 'u' ? 6 : 2;
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The first 8 bytes of an ASCII string as a little-endian long. */
  private static long word(String s) {
    byte[] b = new byte[8];
    System.arraycopy(ascii(s), 0, b, 0, 8);
    return (long) LONGS.get(b, 0);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Unwinds a bad line; preallocated and without a stack trace, so bad lines stay cheap. */
  private static final class Abort extends RuntimeException {
    private static final long serialVersionUID = 1L;
    int position;

    Abort() {
      super(null, null, false, false);
    }
  }
}
