package dev.benchplan.analysis.input;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.io.NumberInput;

/**
 * A byte-level parser of one line of {@code profile_export.jsonl}: it reads the fields the scanner
 * uses (metadata's id, phase, cancellation and timestamps; each metric's scalar value and unit; the
 * error) and only validates the rest, without tokenizing into objects (the long inter_chunk_latency
 * arrays are checked byte by byte: only a value starting with '-' is converted, to see whether it
 * is negative).
 *
 * <p>It takes a strict subset of what the scanner's Jackson parser accepts (RFC 8259 JSON, with
 * lengths and nesting well inside Jackson's limits) and reads it to the same values: numbers are
 * converted exactly as Jackson converts them (integers through {@code long}, the rest correctly
 * rounded). Anything else (NaN, escapes in the strings it keeps, an error object it cannot read as
 * Jackson's tree would, a carriage return inside the line, a second value on the line) is {@link
 * #REJECT rejected} without touching the scan's state, and the caller hands the line to Jackson. A
 * line is parsed in full before anything is {@link #commit committed}.
 */
final class RecordLineParser {
  /** {@link #parse} did not take the line. */
  static final int REJECT = -1;

  private static final int MAX_DEPTH = 64; // Jackson: 500
  private static final int MAX_NUMBER = 100; // Jackson: 1,000 characters
  private static final int MAX_STRING = 1 << 20; // Jackson: 100,000,000
  private static final int MAX_NAME = 1_000; // Jackson: 50,000

  private static final byte[] METADATA = ascii("metadata");
  private static final byte[] METRICS = ascii("metrics");
  private static final byte[] ERROR = ascii("error");
  private static final byte[] X_REQUEST_ID = ascii("x_request_id");
  private static final byte[] BENCHMARK_PHASE = ascii("benchmark_phase");
  private static final byte[] WAS_CANCELLED = ascii("was_cancelled");
  private static final byte[] REQUEST_START_NS = ascii("request_start_ns");
  private static final byte[] REQUEST_END_NS = ascii("request_end_ns");
  private static final byte[] VALUE = ascii("value");
  private static final byte[] UNIT = ascii("unit");
  private static final byte[] TYPE = ascii("type");
  private static final byte[] CODE = ascii("code");
  private static final byte[] WARMUP = ascii("warmup");
  private static final byte[] TRUE = ascii("true");
  private static final byte[] FALSE = ascii("false");
  private static final byte[] NULL = ascii("null");

  /** Exact powers of ten as doubles (10^22 is the largest a double holds exactly). */
  private static final double[] POWERS = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POWERS.length; i++) {
      POWERS[i] = p;
      p *= 10;
    }
  }

  /** Unwinds a line this parser does not take; preallocated and without a stack trace. */
  private static final class Reject extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Reject() {
      super(null, null, false, false);
    }
  }

  private final Reject rejected = new Reject();

  private final Names tags = new Names(true);
  private final Names unitNames = new Names(false);

  private byte[] b = new byte[0];

  // what the last parse found
  private boolean blank;
  private boolean sawMetadata;
  private boolean warmupPhase;
  // the id's string, its opening quote at idQuote and its end (after the closing quote) at idEnd;
  // idQuote < 0: none. Kept as bytes (the set of ids takes bytes): a String only for a duplicate
  private int idQuote;
  private int idEnd;
  private boolean wasCancelled;
  private boolean failed;
  private @Nullable String errorKind;
  private boolean startOk;
  private long start;
  private boolean endOk;
  private long end;
  private final double[] tracked = new double[RecordScanner.TRACKED.size()];

  // the state calls the line makes, in order, deferred until it is known to be taken
  private String[] checkTags = new String[4];
  private double[] checkValues = new double[4];
  private int checks;
  private String[] unitTags = new String[32];
  private String[] unitValues = new String[32];

  /** Per metric position, the (tag, unit) pair whose {@code State.unit} call is now a no-op. */
  private static final int SETTLED = 32;

  private final @Nullable String[] settledTags = new String[SETTLED];
  private final @Nullable String[] settledUnits = new String[SETTLED];
  private RecordScanner.@Nullable State settledFor;
  private int units;

  // the number just read
  private double numDouble;
  private boolean numIntegral;
  private boolean numFitsLong;
  private long numLong;

  /**
   * Parses the line starting at {@code from}; the line ends at the first '\n', which the array must
   * hold.
   *
   * @return the index of that '\n' when the line is taken (a blank line is taken and is no record:
   *     see {@link #blank()}), {@link #REJECT} otherwise
   */
  int parse(byte[] bytes, int from) {
    this.b = bytes;
    blank = false;
    sawMetadata = false;
    warmupPhase = false;
    idQuote = -1;
    wasCancelled = false;
    failed = false;
    errorKind = null;
    startOk = false;
    endOk = false;
    Arrays.fill(tracked, Double.NaN);
    checks = 0;
    units = 0;
    try {
      int p = ws(from);
      if (b[p] == '{') {
        p = ws(record(p));
        if (!sawMetadata) {
          throw rejected;
        }
      } else {
        blank = true;
      }
      if (b[p] == '\r' && b[p + 1] == '\n') {
        p++;
      }
      if (b[p] != '\n') {
        throw rejected;
      }
      return p;
    } catch (Reject r) {
      return REJECT;
    }
  }

  /** Whether the line {@link #parse} took was blank (whitespace only). */
  boolean blank() {
    return blank;
  }

  /** Counts the record {@link #parse} took into {@code s}, as the Jackson pass would. */
  @SuppressWarnings("ReferenceEquality") // the names table's Strings: identity is the fast check
  void commit(RecordScanner.State s, long lineNo) {
    s.lines++;
    for (int i = 0; i < checks; i++) {
      s.check(checkTags[i], checkValues[i], lineNo);
    }
    if (settledFor != s) {
      Arrays.fill(settledTags, null);
      settledFor = s;
    }
    for (int i = 0; i < units; i++) {
      String tag = unitTags[i];
      String unit = unitValues[i];
      // the names table gives the same String for the same bytes: a record whose metrics come in
      // the order and with the units of the records before it costs no map look-up
      if (i < SETTLED && settledTags[i] == tag && settledUnits[i] == unit) {
        continue;
      }
      if (s.unit(tag, unit) && i < SETTLED) {
        settledTags[i] = tag;
        settledUnits[i] = unit;
      }
    }
    if (!s.phase(warmupPhase)) {
      return;
    }
    if (idQuote >= 0 && !s.ids.add(b, idQuote + 1, idEnd - 1)) {
      s.duplicate(lineNo, plain(idQuote, idEnd));
    }
    s.outcome(wasCancelled, failed, errorKind);
    boolean succeeded = !wasCancelled && !failed;
    if (startOk && endOk) {
      if (s.timestamps(start, end, lineNo)) {
        s.timeline(start, end, tracked, succeeded);
      }
    } else {
      s.badTimestamp(lineNo, RecordScanner.NOT_INTEGERS);
    }
    s.values(tracked, succeeded);
  }

  /** The record object at {@code p} ('{'); returns the index after it. */
  private int record(int p) {
    p = open(p, (byte) '}');
    if (p < 0) {
      return ~p;
    }
    while (true) {
      int ns = p;
      p = colon(name(p));
      if (is(ns, METADATA)) {
        p = metadata(p);
      } else if (is(ns, METRICS)) {
        p = metrics(p);
      } else if (is(ns, ERROR)) {
        p = error(p);
      } else {
        p = skip(p, 2);
      }
      p = next(p, (byte) '}');
      if (p < 0) {
        return ~p;
      }
    }
  }

  private int metadata(int p) {
    if (b[p] != '{') {
      return skip(p, 2);
    }
    sawMetadata = true;
    p = open(p, (byte) '}');
    if (p < 0) {
      return ~p;
    }
    while (true) {
      int ns = p;
      p = colon(name(p));
      byte c = b[p];
      if (is(ns, X_REQUEST_ID)) {
        noContainer(c);
        if (c == '"') {
          int e = string(p, MAX_STRING);
          noEscapes(p, e); // the bytes are the text
          idQuote = p;
          idEnd = e;
          p = e;
        } else {
          idQuote = -1;
          p = skip(p, 3);
        }
      } else if (is(ns, BENCHMARK_PHASE)) {
        noContainer(c);
        if (c == '"') {
          int e = string(p, MAX_STRING);
          noEscapes(p, e); // the bytes are the text
          warmupPhase = e - p - 2 == WARMUP.length && is(p, WARMUP);
          p = e;
        } else {
          p = skip(p, 3);
        }
      } else if (is(ns, WAS_CANCELLED)) {
        noContainer(c);
        wasCancelled = c == 't';
        p = skip(p, 3);
      } else if (is(ns, REQUEST_START_NS)) {
        p = timestamp(p);
        startOk = numIntegral;
        start = numLong;
      } else if (is(ns, REQUEST_END_NS)) {
        p = timestamp(p);
        endOk = numIntegral;
        end = numLong;
      } else {
        p = skip(p, 3);
      }
      p = next(p, (byte) '}');
      if (p < 0) {
        return ~p;
      }
    }
  }

  /**
   * A timestamp value: {@link #numIntegral} tells whether it is an integer (then in {@link
   * #numLong}). An integer beyond a long is rejected (Jackson's tree keeps it as a BigInteger).
   */
  private int timestamp(int p) {
    byte c = b[p];
    if (c == '-' || isDigit(c)) {
      p = number(p, true);
      if (numIntegral && !numFitsLong) {
        throw rejected;
      }
      return p;
    }
    numIntegral = false;
    return skip(p, 3);
  }

  private int metrics(int p) {
    if (b[p] != '{') {
      return skip(p, 2);
    }
    p = open(p, (byte) '}');
    if (p < 0) {
      return ~p;
    }
    while (true) {
      int ns = p;
      p = colon(name(p));
      String tag = tags.get(b, ns + 1, nameEnd - 1);
      int index = tags.lastIndex;
      p = b[p] == '{' ? metric(p, tag, index) : skip(p, 3);
      p = next(p, (byte) '}');
      if (p < 0) {
        return ~p;
      }
    }
  }

  /** One metric's object ({"value": ..., "unit": ...}); index is the tag's in TRACKED or -1. */
  private int metric(int p, String tag, int index) {
    p = open(p, (byte) '}');
    if (p < 0) {
      return ~p;
    }
    while (true) {
      int ns = p;
      p = colon(name(p));
      byte c = b[p];
      if (is(ns, VALUE)) {
        if (c == '[') {
          p = values(p, tag);
        } else if (c == '-' || isDigit(c)) {
          p = number(p, true);
          check(tag, numDouble);
          if (index >= 0) {
            tracked[index] = numDouble;
          }
        } else {
          p = skip(p, 4);
        }
      } else if (is(ns, UNIT) && c == '"') {
        int e = string(p, MAX_STRING);
        noEscapes(p, e); // the unit's text comes from unitNames: no String per record
        if (units == unitTags.length) {
          unitTags = Arrays.copyOf(unitTags, units * 2);
          unitValues = Arrays.copyOf(unitValues, units * 2);
        }
        unitTags[units] = tag;
        unitValues[units] = unitNames.get(b, p + 1, e - 1);
        units++;
        p = e;
      } else {
        p = skip(p, 4);
      }
      p = next(p, (byte) '}');
      if (p < 0) {
        return ~p;
      }
    }
  }

  /** A list of values: numbers validated, and converted only when negative. */
  private int values(int p, String tag) {
    p = open(p, (byte) ']');
    if (p < 0) {
      return ~p;
    }
    while (true) {
      byte c = b[p];
      if (c == '-') {
        p = number(p, true);
        check(tag, numDouble);
      } else if (isDigit(c)) {
        p = number(p, false);
      } else {
        p = skip(p, 5);
      }
      p = next(p, (byte) ']');
      if (p < 0) {
        return ~p;
      }
    }
  }

  /** Defers the audit's check of a value; only a negative or non-finite one changes anything. */
  private void check(String tag, double d) {
    if (Double.isFinite(d) && d >= 0) {
      return;
    }
    if (checks == checkTags.length) {
      checkTags = Arrays.copyOf(checkTags, checks * 2);
      checkValues = Arrays.copyOf(checkValues, checks * 2);
    }
    checkTags[checks] = tag;
    checkValues[checks] = d;
    checks++;
  }

  private int error(int p) {
    byte c = b[p];
    if (c == '{') {
      failed = true;
      return errorObject(p);
    }
    if (c == 'n') {
      return literal(p, NULL);
    }
    failed = true;
    errorKind = "unknown error";
    return skip(p, 2);
  }

  /**
   * An error object, read as the Jackson pass reads its tree: {@code type}, then {@code " " + code}
   * when there is a code. Only string types and string or integer codes, each at most once, are
   * taken.
   */
  private int errorObject(int p) {
    @Nullable String type = null;
    @Nullable String code = null;
    for (p = open(p, (byte) '}'); p >= 0; p = next(p, (byte) '}')) {
      int ns = p;
      p = colon(name(p));
      byte c = b[p];
      if (is(ns, TYPE)) {
        if (type != null || c != '"') {
          throw rejected;
        }
        int e = string(p, MAX_STRING);
        type = plain(p, e);
        p = e;
      } else if (is(ns, CODE)) {
        if (code != null) {
          throw rejected;
        }
        if (c == '"') {
          int e = string(p, MAX_STRING);
          code = plain(p, e);
          p = e;
        } else if (c == '-' || isDigit(c)) {
          p = number(p, true);
          if (!numIntegral || !numFitsLong) {
            throw rejected;
          }
          code = Long.toString(numLong);
        } else {
          throw rejected;
        }
      } else {
        p = skip(p, 3);
      }
    }
    String kind = (type == null ? "" : type) + (code != null ? " " + code : "");
    errorKind = kind.isBlank() ? "unknown error" : kind.strip();
    return ~p; // after the '}'
  }

  // ---- JSON syntax ----

  private int ws(int p) {
    byte[] a = b;
    while (a[p] == ' ' || a[p] == '\t') {
      p++;
    }
    return p;
  }

  /**
   * After a member or element (at {@code p}, or whitespace before it): the start of the next one
   * when a ',' follows, or {@code ~i} (negative) where {@code i} is the index after {@code close}
   * when the container ends there; anything else is rejected.
   */
  private int next(int p, byte close) {
    p = ws(p);
    byte c = b[p];
    if (c == ',') {
      return ws(p + 1);
    }
    if (c == close) {
      return ~(p + 1);
    }
    throw rejected;
  }

  /**
   * Opens the container whose bracket is at {@code p}: the start of its first member, or {@code ~i}
   * (negative) where {@code i} is the index after {@code close} when it is empty.
   */
  private int open(int p, byte close) {
    p = ws(p + 1);
    return b[p] == close ? ~(p + 1) : p;
  }

  private void noContainer(byte c) {
    if (c == '{' || c == '[') {
      throw rejected; // the Jackson pass does not skip these: let it decide
    }
  }

  /** Where the last {@link #name} ended (after its closing quote). */
  private int nameEnd;

  /** A field name at {@code p}: printable ASCII without escapes; returns the index after it. */
  private int name(int p) {
    byte[] a = b;
    if (a[p] != '"') {
      throw rejected;
    }
    int q = p + 1;
    while (true) {
      byte c = a[q];
      if (c == '"') {
        break;
      }
      if (c < 0x20 || c == '\\') { // bytes >= 0x80 are negative
        throw rejected;
      }
      q++;
    }
    if (q - p > MAX_NAME) {
      throw rejected;
    }
    nameEnd = q + 1;
    return nameEnd;
  }

  /** Skips whitespace, a ':' and whitespace after a name. */
  private int colon(int p) {
    p = ws(p);
    if (b[p] != ':') {
      throw rejected;
    }
    return ws(p + 1);
  }

  /** Whether the name (or string) whose opening quote is at {@code q} starts with {@code word}. */
  private boolean is(int q, byte[] word) {
    int from = q + 1;
    int to = from + word.length;
    // names and the strings compared have no escapes: the first quote closes them
    return to < b.length && b[to] == '"' && Arrays.equals(b, from, to, word, 0, word.length);
  }

  /** Validates a string at {@code q} (escapes, well-formed UTF-8); returns the index after it. */
  private int string(int q, int max) {
    byte[] a = b;
    int p = q + 1;
    while (true) {
      byte c = a[p];
      if (c >= 0x20) {
        if (c == '"') {
          break;
        }
        p = c == '\\' ? escape(p) : p + 1;
      } else if (c < 0) {
        p = utf8(p);
      } else {
        throw rejected; // a raw control character, or the end of the line
      }
    }
    if (p - q > max) {
      throw rejected;
    }
    return p + 1;
  }

  /** The text of a validated string [q, e) without escapes (one with escapes is rejected). */
  private String plain(int q, int e) {
    boolean ascii = true;
    for (int i = q + 1; i < e - 1; i++) {
      byte c = b[i];
      if (c == '\\') {
        throw rejected;
      }
      ascii &= c >= 0;
    }
    return new String(
        b, q + 1, e - q - 2, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  private void noEscapes(int q, int e) {
    for (int i = q + 1; i < e - 1; i++) {
      if (b[i] == '\\') {
        throw rejected;
      }
    }
  }

  private int escape(int p) {
    switch (b[p + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
        return p + 2;
      case 'u':
        for (int i = 2; i < 6; i++) {
          byte h = b[p + i];
          if (!(isDigit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
            throw rejected;
          }
        }
        return p + 6;
      default:
        throw rejected;
    }
  }

  /** One well-formed UTF-8 sequence (no overlong form, surrogate or code point > U+10FFFF). */
  private int utf8(int p) {
    int lead = b[p] & 0xFF;
    if (lead < 0xC2) {
      throw rejected;
    }
    if (lead < 0xE0) {
      continuation(p + 1);
      return p + 2;
    }
    int second = b[p + 1] & 0xFF;
    if (lead < 0xF0) {
      if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F)) {
        throw rejected;
      }
      continuation(p + 1);
      continuation(p + 2);
      return p + 3;
    }
    if (lead > 0xF4 || (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)) {
      throw rejected;
    }
    continuation(p + 1);
    continuation(p + 2);
    continuation(p + 3);
    return p + 4;
  }

  private void continuation(int p) {
    if ((b[p] & 0xC0) != 0x80) {
      throw rejected;
    }
  }

  private int literal(int p, byte[] word) {
    for (int i = 0; i < word.length; i++) {
      if (b[p + i] != word[i]) {
        throw rejected;
      }
    }
    return p + word.length;
  }

  /** Validates any JSON value at {@code p} ({@code depth}: its nesting level). */
  private int skip(int p, int depth) {
    if (depth > MAX_DEPTH) {
      throw rejected;
    }
    byte c = b[p];
    switch (c) {
      case '"':
        return string(p, MAX_STRING);
      case '{':
        p = open(p, (byte) '}');
        if (p < 0) {
          return ~p;
        }
        while (true) {
          if (b[p] != '"') {
            throw rejected;
          }
          p = colon(string(p, MAX_NAME));
          p = next(skip(p, depth + 1), (byte) '}');
          if (p < 0) {
            return ~p;
          }
        }
      case '[':
        p = open(p, (byte) ']');
        if (p < 0) {
          return ~p;
        }
        while (true) {
          p = next(skip(p, depth + 1), (byte) ']');
          if (p < 0) {
            return ~p;
          }
        }
      case 't':
        return literal(p, TRUE);
      case 'f':
        return literal(p, FALSE);
      case 'n':
        return literal(p, NULL);
      default:
        if (c == '-' || isDigit(c)) {
          return number(p, false);
        }
        throw rejected;
    }
  }

  /**
   * A JSON number at {@code p}. Sets {@link #numIntegral} (no fraction, no exponent); with {@code
   * convert}, also {@link #numDouble} (the value Jackson's {@code getDoubleValue} gives: an integer
   * through long, or correctly rounded) and, for an integer, {@link #numFitsLong} and {@link
   * #numLong}.
   *
   * @return the index after the number
   */
  private int number(int p, boolean convert) {
    byte[] a = b;
    int s = p;
    boolean negative = a[p] == '-';
    if (negative) {
      p++;
    }
    int digitsStart = p;
    long m = 0;
    boolean overflow = false;
    if (a[p] == '0') {
      p++;
      if (isDigit(a[p])) {
        throw rejected; // a leading zero
      }
    } else if (isDigit(a[p])) {
      while (isDigit(a[p])) {
        int d = a[p] - '0';
        if (m < 922_337_203_685_477_580L || (m == 922_337_203_685_477_580L && d <= 7)) {
          m = m * 10 + d;
        } else {
          overflow = true;
        }
        p++;
      }
    } else {
      throw rejected;
    }
    int intDigits = p - digitsStart;
    int fraction = 0;
    long exponent = 0;
    boolean integral = true;
    if (a[p] == '.') {
      p++;
      if (!isDigit(a[p])) {
        throw rejected;
      }
      int fs = p;
      // 8 bytes at a time: the chunks keep PADDING spare bytes after the data, and a line
      // always ends in '\n' before them
      int n;
      do {
        n = leadingDigits((long) LONGS.get(a, p));
        p += n;
      } while (n == 8);
      fraction = p - fs;
      integral = false;
    }
    if (a[p] == 'e' || a[p] == 'E') {
      p++;
      boolean negExp = false;
      if (a[p] == '+' || a[p] == '-') {
        negExp = a[p] == '-';
        p++;
      }
      if (!isDigit(a[p])) {
        throw rejected;
      }
      while (isDigit(a[p])) {
        if (exponent < 100_000) {
          exponent = exponent * 10 + (a[p] - '0');
        }
        p++;
      }
      if (negExp) {
        exponent = -exponent;
      }
      integral = false;
    }
    if (p - s > MAX_NUMBER) {
      throw rejected;
    }
    numIntegral = integral;
    if (!convert) {
      return p;
    }
    if (integral) {
      numFitsLong = !overflow;
      if (numFitsLong) {
        numLong = negative ? -m : m; // -0 is the integer 0, as Jackson reads it
        numDouble = (double) numLong;
      } else {
        numDouble = parseDouble(a, s, p);
      }
      return p;
    }
    numFitsLong = false;
    // exact when the digits fit 2^53 and the power of ten is exact (Clinger's fast path);
    // otherwise a correctly rounded conversion, like Jackson's
    long e10 = exponent - fraction;
    if (intDigits + fraction <= 18 && e10 >= -22 && e10 <= 22) {
      long digits = m;
      for (int i = digitsStart + intDigits + 1, n = i + fraction; i < n; i++) {
        digits = digits * 10 + (a[i] - '0');
      }
      if (digits <= (1L << 53)) {
        double v = e10 < 0 ? digits / POWERS[(int) -e10] : digits * POWERS[(int) e10];
        numDouble = negative ? -v : v;
        return p;
      }
    }
    numDouble = parseDouble(a, s, p);
    return p;
  }

  private char[] chars = new char[MAX_NUMBER];

  /** A correctly rounded conversion (Jackson's fast parser; the JDK's is several times slower). */
  private double parseDouble(byte[] a, int from, int to) {
    char[] c = chars;
    for (int i = from; i < to; i++) {
      c[i - from] = (char) a[i];
    }
    return NumberInput.parseDouble(c, 0, to - from, true);
  }

  /** Reads 8 bytes of a byte array as one little-endian long. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Bytes that must follow a line's '\n' in the array (8-byte reads). */
  static final int PADDING = 8;

  /** How many of the 8 bytes (little-endian: first byte lowest) are leading ASCII digits. */
  private static int leadingDigits(long w) {
    // a byte is a digit when its high nibble is 3 and adding 6 keeps it 3 (low nibble <= 9);
    // a carry out of a byte can only come from a non-digit, after which nothing counts
    long notDigit =
        ((w & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L)
            | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L);
    return Long.numberOfTrailingZeros(notDigit) >>> 3;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Strings met again and again (metric tags, units), kept by their bytes so a record does not make
   * new ones; with {@code tracked}, also each name's index in {@link RecordScanner#TRACKED}.
   */
  private static final class Names {
    private static final int SLOTS = 256;
    private final byte[][] keys = new byte[SLOTS][];
    private final String[] strings = new String[SLOTS];
    private final int[] indexes = new int[SLOTS];
    private final boolean tracked;

    /** The TRACKED index of the name {@link #get} returned last (-1: not tracked). */
    int lastIndex;

    Names(boolean tracked) {
      this.tracked = tracked;
    }

    /** The text of the UTF-8 bytes [from, to) (validated, without escapes). */
    String get(byte[] a, int from, int to) {
      int h = 0;
      boolean ascii = true;
      for (int i = from; i < to; i++) {
        h = 31 * h + a[i];
        ascii &= a[i] >= 0;
      }
      var charset = ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8;
      int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
      for (int probe = 0; probe < 8; probe++, slot = (slot + 1) & (SLOTS - 1)) {
        byte[] k = keys[slot];
        if (k == null) {
          String s = new String(a, from, to - from, charset);
          keys[slot] = Arrays.copyOfRange(a, from, to);
          strings[slot] = s;
          indexes[slot] = tracked ? RecordScanner.TRACKED.indexOf(s) : -1;
          lastIndex = indexes[slot];
          return s;
        }
        if (Arrays.equals(k, 0, k.length, a, from, to)) {
          lastIndex = indexes[slot];
          return strings[slot];
        }
      }
      // a crowded table: no caching
      String s = new String(a, from, to - from, charset);
      lastIndex = tracked ? RecordScanner.TRACKED.indexOf(s) : -1;
      return s;
    }
  }
}
