package dev.benchplan.trace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Reads one line of a Mooncake JSONL trace into {@link RowFields}: the field handling of a trace
 * row (timestamp, input_length, output_length, hash_ids, text_input; their types, ranges and
 * duplicates) on top of the strict byte-level {@link JsonScanner}, which validates the whole line
 * as JSON and UTF-8. Allocation-free on valid rows.
 *
 * <p>The caller guarantees that every line it passes ends with a {@code '\n'} inside the array,
 * followed by at least {@link #PADDING} more bytes (of any value).
 */
final class MooncakeLineParser {
  /** The line held only whitespace. */
  static final int BLANK = 0;

  /** The line is a JSON object; its fields are in {@link #row()}. */
  static final int ROW = 1;

  /** The line is not a JSON object or not UTF-8; see {@link #badMessage()}. */
  static final int BAD = 2;

  /** Bytes that must follow the last line's '\n' in the array (word-at-a-time reads). */
  static final int PADDING = JsonScanner.PADDING;

  private static final long TIMESTAMP_8 = JsonScanner.word("timestam");
  private static final long INPUT_8 = JsonScanner.word("input_le");
  private static final long OUTPUT_8 = JsonScanner.word("output_l");
  private static final long HASH_IDS_8 = JsonScanner.word("hash_ids");
  private static final long TEXT_8 = JsonScanner.word("text_inp");

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

  private static final long LENGTH_MAX = Integer.MAX_VALUE;

  private final JsonScanner j = new JsonScanner();
  private final RowFields row = new RowFields();
  private boolean firstLine;
  private int outcome;
  private @Nullable String badMessage;

  /** The end of the key {@link #readKey} just read. */
  private int keyEnd;

  /** A parser for a file's lines from its first (where a byte-order mark is accepted). */
  MooncakeLineParser() {
    this(true);
  }

  /**
   * A parser for lines from the start of a file, or (false) for lines further in, which a
   * byte-order mark cannot start.
   */
  MooncakeLineParser(boolean fromFileStart) {
    this.firstLine = fromFileStart;
  }

  RowFields row() {
    return row;
  }

  int outcome() {
    return outcome;
  }

  @Nullable String badMessage() {
    return badMessage;
  }

  /**
   * Parses the line that starts at {@code start}.
   *
   * @return the index just after the line's {@code '\n'}
   */
  int parseLine(byte[] bytes, int start) {
    row.reset();
    if (firstLine) {
      firstLine = false;
      // a UTF-8 byte-order mark at the start of the file is accepted (and still hashed)
      if (bytes[start] == (byte) 0xEF
          && bytes[start + 1] == (byte) 0xBB
          && bytes[start + 2] == (byte) 0xBF) {
        start += 3;
      }
    }
    JsonScanner j = this.j;
    j.start(bytes, start);
    int p = j.skipWs(start);
    byte b = bytes[p];
    if (b == '\n') {
      outcome = BLANK;
      return p + 1;
    }
    try {
      if (b != '{') {
        j.fail(p, "found " + describeStart(b));
      }
      p = j.skipWs(parseObject(p));
      if (bytes[p] != '\n') {
        j.fail(p, "unexpected content after the object");
      }
      outcome = ROW;
      return p + 1;
    } catch (JsonScanner.Syntax a) {
      outcome = BAD;
      badMessage = a.why;
      int q = a.position;
      while (bytes[q] != '\n') {
        q++;
      }
      return q + 1;
    }
  }

  private int parseObject(int open) {
    byte[] b = j.buf;
    int p = j.skipWs(open + 1);
    if (b[p] == '}') {
      return p + 1;
    }
    while (true) {
      if (b[p] != '"') {
        j.fail(p, "expected a field name in double quotes");
      }
      int field = knownKey(p);
      if (field < 0) {
        field = readKey(p);
      }
      p = j.skipWs(keyEnd);
      if (b[p] != ':') {
        j.fail(p, "expected ':' after a field name");
      }
      p = j.skipWs(p + 1);
      switch (field) {
        case F_HASH_IDS -> p = parseHashIds(p);
        case F_TIMESTAMP -> {
          if (row.hasTimestamp) {
            duplicate("timestamp");
          }
          row.hasTimestamp = true;
          p = parseInteger(p, "timestamp", Long.MAX_VALUE);
          if (j.numKind == JsonScanner.INTEGER && j.numValue >= 0) {
            row.timestampValid = true;
            row.timestamp = j.numValue;
          }
        }
        case F_INPUT -> {
          if (row.hasInput) {
            duplicate("input_length");
          }
          row.hasInput = true;
          p = parseInteger(p, "input_length", LENGTH_MAX);
          if (j.numKind == JsonScanner.INTEGER && j.numValue >= 0) {
            row.inputValid = true;
            row.input = j.numValue;
          }
        }
        case F_OUTPUT -> {
          if (row.hasOutput) {
            duplicate("output_length");
          }
          row.hasOutput = true;
          p = parseInteger(p, "output_length", LENGTH_MAX);
          if (j.numKind == JsonScanner.INTEGER && j.numValue >= 0) {
            row.outputValid = true;
            row.output = j.numValue;
          }
        }
        case F_TEXT -> p = parseTextInput(p);
        default -> p = j.skipValue(p, 1);
      }
      p = j.skipWs(p);
      byte c = b[p];
      if (c == ',') {
        p = j.skipWs(p + 1);
      } else if (c == '}') {
        return p + 1;
      } else {
        j.fail(p, "expected ',' or '}' after a field value");
      }
    }
  }

  /**
   * Fast path for the five field names a row has, compared 8 bytes at a time.
   *
   * @return the field, or -1 when the key at {@code q} is none of them written plainly
   */
  private int knownKey(int q) {
    byte[] b = j.buf;
    long w = (long) JsonScanner.LONGS.get(b, q + 1);
    int field;
    int end;
    if (w == HASH_IDS_8) {
      field = F_HASH_IDS;
      end = q + 9;
    } else if (w == TIMESTAMP_8 && b[q + 9] == 'p') {
      field = F_TIMESTAMP;
      end = q + 10;
    } else if (w == INPUT_8
        && b[q + 9] == 'n'
        && b[q + 10] == 'g'
        && b[q + 11] == 't'
        && b[q + 12] == 'h') {
      field = F_INPUT;
      end = q + 13;
    } else if (w == OUTPUT_8
        && b[q + 9] == 'e'
        && b[q + 10] == 'n'
        && b[q + 11] == 'g'
        && b[q + 12] == 't'
        && b[q + 13] == 'h') {
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
    byte[] b = j.buf;
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
    return Arrays.equals(j.buf, s, s + key.length, key, 0, key.length);
  }

  /** A key with escapes or non-ASCII bytes: validate and decode it, then match by name. */
  private int readKeySlow(int q) {
    keyEnd = j.scanString(q);
    String name = j.decodeString(q, keyEnd);
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
    byte c = j.buf[p];
    if (c == '"') {
      row.hasText = true;
      return j.scanString(p);
    }
    int end = j.skipValue(p, 1);
    if (c != 'n') { // null means "no text_input", as AIPerf reads it
      row.addProblem("text_input", "expected a string, got " + j.describe(p, end));
    }
    return end;
  }

  /** Parses an integer field value; on any other value records a problem for the field. */
  private int parseInteger(int p, String field, long max) {
    int fast = j.fastNonNegative(p);
    if (fast >= 0) {
      if (j.numValue <= max) {
        j.numKind = JsonScanner.INTEGER;
      } else {
        j.numKind = JsonScanner.OUT_OF_RANGE;
        row.addProblem(
            field, "out of range: expected at most " + max + ", got " + j.token(p, fast));
      }
      return fast;
    }
    byte c = j.buf[p];
    if (c == '-' || (c >= '0' && c <= '9')) {
      int end = j.parseNumber(p);
      if (j.numKind == JsonScanner.INTEGER && j.numValue > max) {
        j.numKind = JsonScanner.OUT_OF_RANGE;
      }
      switch (j.numKind) {
        case JsonScanner.INTEGER -> {}
        case JsonScanner.NEGATIVE ->
            row.addProblem(field, "expected a non-negative integer, got " + j.token(p, end));
        case JsonScanner.NOT_INTEGER ->
            row.addProblem(field, "expected an integer, got " + j.token(p, end));
        default ->
            row.addProblem(
                field, "out of range: expected at most " + max + ", got " + j.token(p, end));
      }
      return end;
    }
    int end = j.skipValue(p, 1);
    j.numKind = JsonScanner.NOT_INTEGER;
    row.addProblem(field, "expected an integer, got " + j.describe(p, end));
    return end;
  }

  private int parseHashIds(int p) {
    byte[] b = j.buf;
    if (row.hasHashIds) {
      duplicate("hash_ids");
    }
    row.hasHashIds = true;
    row.idCount = 0;
    if (b[p] != '[') {
      int end = j.skipValue(p, 1);
      row.addProblem(
          "hash_ids", "expected a list of non-negative integers, got " + j.describe(p, end));
      return end;
    }
    boolean ok = true;
    p = j.skipWs(p + 1);
    if (b[p] == ']') {
      row.hashIdsValid = true;
      return p + 1;
    }
    // ids and their count live in locals in this loop (written back at the end): the hot loop
    // of the whole scanner. They go to row.ids from row.idStart on (a batch's own array, where
    // the reader thread parses: no copy afterwards).
    long[] ids = row.ids;
    int base = row.idStart;
    int count = base;
    while (true) {
      if (count == ids.length) {
        ids = Arrays.copyOf(ids, count * 2);
        row.ids = ids;
      }
      // the common case: 1 to 15 digits followed by ',' (and a space, as most writers put one),
      // in two 8-byte reads and no branch on the number's length (see JsonScanner.secondDigits)
      long w = (long) JsonScanner.LONGS.get(b, p);
      long w2 = (long) JsonScanner.LONGS.get(b, p + 8);
      int n = JsonScanner.leadingDigits(w);
      int n2 = JsonScanner.secondDigits(n, w2);
      int len = n + n2;
      if (n > 0 && n2 < 8 && b[p + len] == ',' && (len == 1 || (w & 0xFF) != '0')) {
        ids[count++] = JsonScanner.sixteenDigits(w, n, w2, n2);
        p += len + (b[p + len + 1] == ' ' ? 2 : 1);
        continue;
      }
      p = j.skipWs(p);
      int fast = j.fastNonNegative(p);
      byte c = b[p];
      int s = p;
      if (fast >= 0) {
        ids[count++] = j.numValue;
        p = fast;
      } else if ((c >= '0' && c <= '9') || c == '-') {
        p = j.parseNumber(p);
        if (j.numKind == JsonScanner.INTEGER) {
          ids[count++] = j.numValue;
        } else if (ok) {
          ok = false;
          row.addProblem(
              "hash_ids",
              "element "
                  + (count - base)
                  + ": expected a non-negative integer, got "
                  + j.token(s, p)
                  + (j.numKind == JsonScanner.OUT_OF_RANGE ? " (out of range)" : ""));
        }
      } else {
        p = j.skipValue(p, 2);
        if (ok) {
          ok = false;
          row.addProblem(
              "hash_ids",
              "element "
                  + (count - base)
                  + ": expected a non-negative integer, got "
                  + j.describe(s, p));
        }
      }
      p = j.skipWs(p);
      c = b[p];
      if (c == ',') {
        p = j.skipWs(p + 1);
        continue;
      }
      if (c != ']') {
        j.fail(p, "expected ',' or ']' in hash_ids");
      }
      row.idCount = count - base;
      row.hashIdsValid = ok;
      return p + 1;
    }
  }

  private void duplicate(String field) {
    row.addProblem(field, "duplicate field (a JSON object must name each field once)");
  }

  private static String describeStart(byte c) {
    return switch (c) {
      case '[' -> "a list, expected an object";
      case '"' -> "a string, expected an object";
      case 't', 'f' -> "a boolean, expected an object";
      case 'n' -> "null, expected an object";
      default ->
          c == '-' || JsonScanner.isDigit(c) ? "a number, expected an object" : "no JSON value";
    };
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
