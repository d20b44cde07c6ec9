package dev.benchplan.workload;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleLog;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The one home of the numeric ranges of benchplan's inputs: the user workload, the deployment
 * ledger and the plan options. The schemas carry the same bounds (a test keeps them equal); the
 * readers check them again, so that no number outside them reaches the planner, whatever schema is
 * bundled. Every bound is far above anything a real benchmark needs and far below what would
 * overflow the planner's or AIPerf's arithmetic.
 */
public final class InputRanges {
  /** Tokens: ISL, OSL, their standard deviations, a served context length. */
  public static final long MAX_TOKENS = 10_000_000;

  /** Concurrent requests of a load point, a declared grid maximum, and warmup requests. */
  public static final long MAX_CONCURRENCY = 100_000;

  /** Warmup requests of a load point. */
  public static final long MAX_WARMUP_REQUESTS = 1_000_000;

  /** Measured requests per load point. */
  public static final long MAX_REQUEST_COUNT = 10_000_000;

  /** Seconds of a user duration (the measurement limit, 1800 s, is a rule checked by the plan). */
  public static final long MAX_DURATION_S = 86_400;

  /** GPUs of one SKU entry. */
  public static final long MAX_GPU_COUNT = 100_000;

  /** Random seed: AIPerf seeds numpy, which takes 0..2^32-1. */
  public static final long MAX_SEED = 4_294_967_295L;

  /** Measured runs per load point ({@code --repetitions}). */
  public static final int MAX_REPETITIONS = 10;

  /**
   * Seconds of one measured run: the measurement-limit rule's cap ({@code --measurement-limit}).
   */
  public static final int MAX_MEASUREMENT_LIMIT_S = 1800;

  /**
   * Seconds of {@code --smoke-max-age}: 30 days. A smoke test older than that says nothing about
   * what the endpoint serves now; the default (72 h) is far below it.
   */
  public static final long MAX_SMOKE_MAX_AGE_S = 30L * 86_400;

  /** {@link #MIN_REQUEST_RATE} as text: a compile-time constant the option help can quote. */
  public static final String MIN_REQUEST_RATE_TEXT = "0.001";

  /** {@link #MAX_REQUEST_RATE} as text. */
  public static final String MAX_REQUEST_RATE_TEXT = "100000";

  /** Requests per second: a point, or a declared grid maximum. */
  public static final BigDecimal MIN_REQUEST_RATE = new BigDecimal(MIN_REQUEST_RATE_TEXT);

  public static final BigDecimal MAX_REQUEST_RATE = new BigDecimal(MAX_REQUEST_RATE_TEXT);

  /** A latency objective in ms (one hour). */
  public static final BigDecimal MAX_LATENCY_MS = new BigDecimal("3600000");

  /** Output tokens/s per GPU. */
  public static final BigDecimal MAX_TPUT_PER_GPU = new BigDecimal("10000000");

  /** Absolute value of a custom objective's threshold. */
  public static final BigDecimal MAX_CUSTOM_THRESHOLD = new BigDecimal("1000000000000");

  /**
   * One numeric field: where (a JSON pointer; {@code *} matches every array item), its bounds and
   * whether it must be a whole number.
   *
   * @param min the lower bound, or null
   * @param minExclusive true when min itself is refused
   * @param max the upper bound (inclusive)
   */
  public record Field(
      String pointer, boolean integer, BigDecimal min, boolean minExclusive, BigDecimal max) {
    /** The range in words, e.g. "an integer 1..100000" or "a number > 0 and <= 3600000". */
    public String describe() {
      String lo = min == null ? "" : (minExclusive ? "> " : ">= ") + min.toPlainString() + " and ";
      if (integer && min != null && !minExclusive) {
        return "an integer " + min.toPlainString() + ".." + max.toPlainString();
      }
      return (integer ? "an integer " : "a number ") + lo + "<= " + max.toPlainString();
    }

    /** True when the value lies in the range (and is whole when it must be). */
    public boolean accepts(BigDecimal v) {
      if (integer && v.stripTrailingZeros().scale() > 0) {
        return false;
      }
      if (min != null) {
        int c = v.compareTo(min);
        if (c < 0 || (minExclusive && c == 0)) {
          return false;
        }
      }
      return v.compareTo(max) <= 0;
    }
  }

  /** Every numeric field of the user workload. */
  public static final List<Field> WORKLOAD =
      List.of(
          integer("/hardware/*/gpu_count", 1, MAX_GPU_COUNT),
          integer("/traffic/input_tokens", 1, MAX_TOKENS),
          integer("/traffic/output_tokens", 1, MAX_TOKENS),
          integer("/traffic/input_tokens_stddev", 0, MAX_TOKENS),
          integer("/traffic/output_tokens_stddev", 0, MAX_TOKENS),
          rate("/traffic/request_rate"),
          rate("/traffic/request_rate/*"),
          integer("/traffic/concurrency/*", 1, MAX_CONCURRENCY),
          integer("/traffic/request_count", 1, MAX_REQUEST_COUNT),
          integer("/traffic/duration_s", 1, MAX_DURATION_S),
          integer("/traffic/max_concurrency", 1, MAX_CONCURRENCY),
          rate("/traffic/max_request_rate"),
          positive("/objectives/ttft_ms_p95_max", MAX_LATENCY_MS),
          positive("/objectives/itl_ms_p95_max", MAX_LATENCY_MS),
          positive("/objectives/request_latency_ms_p95_max", MAX_LATENCY_MS),
          positive("/objectives/output_tput_per_gpu_min", MAX_TPUT_PER_GPU),
          new Field("/objectives/error_rate_max", false, BigDecimal.ZERO, false, BigDecimal.ONE),
          new Field(
              "/objectives/custom_slos/*/max",
              false,
              MAX_CUSTOM_THRESHOLD.negate(),
              false,
              MAX_CUSTOM_THRESHOLD),
          new Field(
              "/objectives/custom_slos/*/min",
              false,
              MAX_CUSTOM_THRESHOLD.negate(),
              false,
              MAX_CUSTOM_THRESHOLD));

  /** Every numeric field of the deployment ledger. */
  public static final List<Field> LEDGER =
      List.of(
          integer("/frontend/port", 1, 65535),
          integer("/gpus/*/gpu_count", 1, MAX_GPU_COUNT),
          integer("/max_context_length", 1, MAX_TOKENS));

  private InputRanges() {}

  /** An integer field min..max. */
  public static Field integer(String pointer, long min, long max) {
    return new Field(pointer, true, BigDecimal.valueOf(min), false, BigDecimal.valueOf(max));
  }

  private static Field rate(String pointer) {
    return new Field(pointer, false, MIN_REQUEST_RATE, false, MAX_REQUEST_RATE);
  }

  private static Field positive(String pointer, BigDecimal max) {
    return new Field(pointer, false, BigDecimal.ZERO, true, max);
  }

  /**
   * Blocks, with {@code code}, every number of {@code doc} outside its field's range, naming the
   * file, line, JSON pointer, value and range. Non-numbers are left to the schema.
   *
   * @param what the document, for messages ("user workload", "deployment ledger")
   * @return the pointers blocked (empty when every number is in range)
   */
  public static java.util.Set<String> check(
      InputDocument doc, List<Field> fields, String what, BlockerCode code, RuleLog log) {
    java.util.Set<String> blocked = new java.util.LinkedHashSet<>();
    for (Field f : fields) {
      for (String pointer : expand(doc.tree(), f.pointer())) {
        JsonNode v = doc.tree().at(pointer);
        if (!v.isNumber()) {
          continue;
        }
        if (!finite(v)) {
          log.block(code, refused(doc, pointer, what, v.asString(), "is not a finite number", f));
          blocked.add(pointer);
          continue;
        }
        BigDecimal value = v.decimalValue();
        if (!f.accepts(value)) {
          log.block(code, refused(doc, pointer, what, shown(value), "is out of range", f));
          blocked.add(pointer);
        }
      }
    }
    return blocked;
  }

  /**
   * The blocker's line: where, the value shown, what is wrong with it, and what {@code f} takes.
   */
  private static String refused(
      InputDocument doc, String pointer, String what, String shown, String wrong, Field f) {
    return what + " " + doc.at(pointer) + ": " + shown + " " + wrong + ": expected " + f.describe();
  }

  /** False for the infinities and NaN YAML can write ({@code .inf}, {@code .nan}). */
  static boolean finite(JsonNode v) {
    return !(v.isDouble() || v.isFloat()) || Double.isFinite(v.doubleValue());
  }

  /** A whole number that the schema has already required at {@code pointer}. */
  public static long requiredWhole(JsonNode t, String pointer) {
    Long v = wholeValue(t, pointer);
    if (v == null) {
      throw new IllegalStateException(
          pointer + ": expected a whole number, which the schema requires");
    }
    return v;
  }

  /** The exact whole value of an in-range integer field, or null when absent or not a number. */
  public static @Nullable Long wholeValue(JsonNode t, String pointer) {
    JsonNode v = t.at(pointer);
    if (!v.isNumber() || !finite(v)) {
      return null;
    }
    return v.decimalValue().stripTrailingZeros().toBigIntegerExact().longValueExact();
  }

  /**
   * A value as written, or to 3 digits when enormous (a 400-digit number is not worth repeating).
   */
  public static String shown(BigDecimal v) {
    String plain = v.stripTrailingZeros().toPlainString();
    return plain.length() <= 40 ? plain : v.round(new java.math.MathContext(3)).toString();
  }

  /** The concrete pointers a pattern matches in the tree ({@code *}: every array item). */
  static List<String> expand(JsonNode tree, String pattern) {
    List<String> out = new ArrayList<>();
    int star = pattern.indexOf("/*");
    if (star < 0) {
      out.add(pattern);
      return out;
    }
    String head = pattern.substring(0, star);
    String tail = pattern.substring(star + 2);
    JsonNode arr = tree.at(head);
    if (arr.isArray()) {
      for (int i = 0; i < arr.size(); i++) {
        out.addAll(expand(tree, head + "/" + i + tail));
      }
    }
    return out;
  }
}
