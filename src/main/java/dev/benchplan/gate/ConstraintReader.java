package dev.benchplan.gate;

import dev.benchplan.aiperf.export.MetricSummary;
import dev.benchplan.aiperf.export.MetricUnit;
import dev.benchplan.aiperf.export.MetricUnit.Dimension;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.rules.GateTolerance;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads constraints from an AICR-style overlay ({@code spec.validation.performance.constraints} of
 * a RecipeMetadata, or a top-level {@code validation.performance.constraints}), from a plan's
 * {@code objectives.gates}, or from command-line flags. Every malformed entry is invalid input
 * (exit 2) naming the file and JSON pointer.
 */
public final class ConstraintReader {
  /** AICR's throughput constraint: output_token_throughput avg, tokens/sec, only {@code >=}. */
  public static final String THROUGHPUT = "inference-throughput";

  /** AICR's TTFT constraint: time_to_first_token p99, ms, only {@code <=}. */
  public static final String TTFT_P99 = "inference-ttft-p99";

  /**
   * benchplan's own per-GPU throughput floor (AICR's floor is per node): gated by {@code validate},
   * which knows the GPU count; read and ignored here.
   */
  public static final String THROUGHPUT_PER_GPU = "inference-throughput-per-gpu";

  /** AICR performance settings that are not thresholds: read, recorded, never gated. */
  public static final Set<String> AICR_SETTINGS =
      Set.of(
          "inference-model",
          "inference-concurrency-per-gpu",
          "inference-routing-mode",
          "inference-model-cache-storage-class");

  private static final Pattern EXPRESSION =
      Pattern.compile(
          "\\s*(>=|<=|==|=|>|<)\\s*([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*([A-Za-z\u00b5\u03bc][A-Za-z/]*)?\\s*");
  private static final Pattern GENERIC_NAME =
      Pattern.compile("([a-z][a-z0-9_]*)-(avg|min|max|std|count|sum|p\\d{1,3})");

  private ConstraintReader() {}

  /** A parsed {@code "<op> <number> [unit]"} expression. */
  record Expression(Operator operator, BigDecimal value, @Nullable MetricUnit unit) {}

  /** What a constraint name means: which metric/stat, which operator it takes, which unit. */
  private record Known(String metric, String stat, Operator operator, Dimension dimension) {}

  private static @Nullable Known known(String name) {
    return switch (name) {
      case THROUGHPUT, THROUGHPUT_PER_GPU ->
          new Known("output_token_throughput", "avg", Operator.GE, Dimension.TOKEN_RATE);
      case TTFT_P99 -> new Known("time_to_first_token", "p99", Operator.LE, Dimension.DURATION);
      default -> null;
    };
  }

  /** Constraints from command-line flags; either may be null. */
  public static ConstraintSet fromFlags(BigDecimal minThroughput, BigDecimal maxTtftP99) {
    List<Constraint> out = new ArrayList<>();
    if (minThroughput != null) {
      out.add(
          aicr(
              THROUGHPUT,
              new Expression(Operator.GE, nonNegative(minThroughput, "--min-throughput"), null),
              "--min-throughput",
              ErrorLocation.option("--min-throughput")));
    }
    if (maxTtftP99 != null) {
      out.add(
          aicr(
              TTFT_P99,
              new Expression(Operator.LE, nonNegative(maxTtftP99, "--max-ttft-p99"), null),
              "--max-ttft-p99",
              ErrorLocation.option("--max-ttft-p99")));
    }
    return new ConstraintSet(out, List.of(), "flags");
  }

  private static BigDecimal nonNegative(BigDecimal v, String flag) {
    if (!Double.isFinite(v.doubleValue())) {
      throw BenchplanException.invalid(
          ErrorLocation.option(flag),
          flag + ": expected a finite number, got " + v + " (beyond the range of a double)");
    }
    if (v.signum() < 0) {
      throw BenchplanException.invalid(
          ErrorLocation.option(flag),
          flag + ": expected a non-negative number, got " + v.toPlainString());
    }
    return v;
  }

  /**
   * Every {@code inference-*} name benchplan reads: the gates and AICR's benchmark settings (the
   * list an unknown name's error gives).
   */
  public static final List<String> KNOWN_INFERENCE_NAMES =
      List.of(
          THROUGHPUT,
          TTFT_P99,
          THROUGHPUT_PER_GPU,
          "inference-model",
          "inference-concurrency-per-gpu",
          "inference-routing-mode",
          "inference-model-cache-storage-class");

  /**
   * Constraints from an AICR-style overlay YAML file; an unknown {@code inference-*} name (a typo
   * such as {@code inference-ttft-p95}) is invalid input.
   */
  public static ConstraintSet fromOverlay(Path file) {
    return fromOverlay(file, false);
  }

  /**
   * Constraints from an AICR-style overlay YAML file. An unknown {@code inference-*} name is
   * invalid input naming the known ones, unless {@code allowUnknown} (an overlay newer than
   * benchplan): then it is listed as ignored. Other checks' names ({@code nccl-*}) are always
   * listed as ignored.
   */
  public static ConstraintSet fromOverlay(Path file, boolean allowUnknown) {
    JsonNode root = readYaml(file);
    if (root == null || !root.isObject()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, ""),
          file + ": /: expected a YAML mapping (an AICR recipe overlay)");
    }
    String base;
    JsonNode validation;
    if (root.path("spec").has("validation")) {
      base = "/spec/validation";
      validation = root.path("spec").get("validation");
    } else if (root.has("validation")) {
      base = "/validation";
      validation = root.get("validation");
    } else {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, ""),
          file
              + ": /: not an AICR overlay: expected spec.validation.performance.constraints (RecipeMetadata)"
              + " or validation.performance.constraints");
    }
    JsonNode constraints =
        validation == null ? null : validation.path("performance").get("constraints");
    String pointer = base + "/performance/constraints";
    if (constraints == null || constraints.isNull()) {
      return new ConstraintSet(List.of(), List.of(), file + " (no " + pointer + ")");
    }
    if (!constraints.isArray()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, pointer),
          file
              + ": "
              + pointer
              + ": expected a list of {name, value}, found "
              + JsonInput.describe(constraints));
    }
    List<Constraint> out = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < constraints.size(); i++) {
      String p = pointer + "/" + i;
      JsonNode entry = constraints.get(i);
      JsonNode name = entry.get("name");
      if (!entry.isObject() || name == null || !name.isString() || name.asString().isBlank()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, p + "/name"),
            file + ": " + p + "/name: expected the constraint's name as a string");
      }
      String n = name.asString().trim();
      if (!seen.add(n)) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, p + "/name"),
            file + ": " + p + "/name: constraint '" + n + "' is listed twice");
      }
      if (AICR_SETTINGS.contains(n)) {
        ignored.add(n + " (an AICR benchmark setting, not a threshold)");
        continue;
      }
      if (n.equals(THROUGHPUT_PER_GPU)) {
        perGpuFloor(
            entry.get("value"),
            file + ": " + p,
            ErrorLocation.pointer(file, p)); // malformed is invalid here too
        ignored.add(
            n
                + " (benchplan validate's per-GPU floor: gated by validate, which knows the GPU count)");
        continue;
      }
      boolean aicr = known(n) != null;
      Matcher generic = GENERIC_NAME.matcher(n);
      if (!aicr && !generic.matches()) {
        if (n.startsWith("inference-") && !allowUnknown) {
          // a typo in a gate name must not pass silently on the remaining gates
          throw BenchplanException.invalid(
              ErrorLocation.pointer(file, p + "/name"),
              file
                  + ": "
                  + p
                  + "/name: unknown inference constraint name '"
                  + n
                  + "': expected one of "
                  + String.join(", ", KNOWN_INFERENCE_NAMES)
                  + ", or <metric>-<stat> (e.g. time_to_first_token-p95); an overlay newer than"
                  + " benchplan: --allow-unknown-constraints");
        }
        // AICR adds names: with --allow-unknown-constraints a newer overlay does not break
        // benchplan
        ignored.add(
            n
                + (n.startsWith("inference-")
                    ? " (unknown inference constraint name: ignored, --allow-unknown-constraints)"
                    : " (not an inference performance constraint)"));
        continue;
      }
      JsonNode value = entry.get("value");
      if (value == null || !value.isString()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, p + "/value"),
            file
                + ": "
                + p
                + "/value: expected an expression such as \">= 5000\" (a string), found "
                + JsonInput.describe(value));
      }
      String origin = file + ": " + p;
      ErrorLocation at = ErrorLocation.pointer(file, p);
      Expression e = parseExpression(value.asString(), origin + "/value", at.child("value"));
      out.add(
          aicr
              ? aicr(n, e, origin, at)
              : generic(n, generic.group(1), generic.group(2), e, origin, at));
    }
    return new ConstraintSet(out, ignored, file.toString());
  }

  /**
   * Reads the value of an {@code inference-throughput-per-gpu} entry ({@code ">= N"} tokens/sec per
   * GPU, only {@code >=}) as a throughput floor named {@link #THROUGHPUT_PER_GPU}, its threshold
   * per GPU; {@code origin} names the entry (file and JSON pointer). Malformed is invalid input.
   */
  public static Constraint perGpuFloor(JsonNode value, String origin) {
    return perGpuFloor(value, origin, ErrorLocation.NONE);
  }

  /** {@link #perGpuFloor(JsonNode, String)} with the entry's place for errors. */
  public static Constraint perGpuFloor(JsonNode value, String origin, ErrorLocation at) {
    if (value == null || !value.isString()) {
      throw BenchplanException.invalid(
          at.child("value"),
          origin
              + "/value: "
              + THROUGHPUT_PER_GPU
              + ": expected an expression such as \">= 6000\" (a string), found "
              + JsonInput.describe(value));
    }
    return aicr(
        THROUGHPUT_PER_GPU,
        parseExpression(value.asString(), origin + "/value", at.child("value")),
        origin,
        at);
  }

  /**
   * Constraints from a plan's {@code objectives.gates} (typed, as {@link
   * dev.benchplan.plan.PlanFile} read and schema-checked them); {@code source} names the plan file.
   * Each gate keeps its own tolerance; a gate without one (a plan written before gates recorded it)
   * is judged with {@link GateTolerance#LEGACY_PLAN} and carries {@link GateTolerance#LEGACY_NOTE}.
   */
  public static ConstraintSet fromPlanGates(List<BenchmarkPlan.Gate> gates, String source) {
    String pointer = "/objectives/gates";
    List<Constraint> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < gates.size(); i++) {
      String p = pointer + "/" + i;
      String origin = source + ": " + p;
      ErrorLocation at = ErrorLocation.pointer(source, p);
      BenchmarkPlan.Gate g = gates.get(i);
      String name = g.name();
      if (!seen.add(name)) {
        throw BenchplanException.invalid(
            at.child("name"), origin + "/name: gate '" + name + "' is listed twice");
      }
      String metric = g.metric();
      if (ERROR_RATE_METRIC.equals(metric)) {
        continue; // not an AIPerf metric: it is the gate's maximum error rate (planGateOptions)
      }
      String stat = g.stat();
      String op = g.operator();
      String unit = g.unit();
      Operator operator =
          Operator.fromSymbol(op)
              .orElseThrow(
                  () ->
                      BenchplanException.invalid(
                          at.child("operator"),
                          origin + "/operator: expected >= or <=, got '" + op + "'"));
      MetricUnit u =
          MetricUnit.parse(unit)
              .orElseThrow(
                  () ->
                      BenchplanException.invalid(
                          at.child("unit"),
                          origin
                              + "/unit: unknown unit '"
                              + unit
                              + "': expected e.g. ms, s, tokens/sec, requests/sec"));
      Expression e = new Expression(operator, g.threshold(), u);
      BigDecimal tolerance = planTolerance(g.tolerance(), origin, at);
      // an older plan's gate recorded none: judged with 10%, as it was run, and the verdict says so
      String note = tolerance == null ? GateTolerance.LEGACY_NOTE : null;
      BigDecimal applied = tolerance == null ? GateTolerance.LEGACY_PLAN : tolerance;
      Known k = known(name);
      if (k != null) {
        if (!k.metric().equals(metric) || !k.stat().equals(stat)) {
          throw BenchplanException.invalid(
              at,
              origin
                  + ": gate '"
                  + name
                  + "' must measure "
                  + k.metric()
                  + " "
                  + k.stat()
                  + ", not "
                  + metric
                  + " "
                  + stat);
        }
        out.add(aicr(name, e, origin, at).withTolerance(applied, note));
      } else {
        out.add(generic(name, metric, stat, e, origin, at).withTolerance(applied, note));
      }
    }
    return new ConstraintSet(out, List.of(), source);
  }

  /** A plan gate's {@code tolerance}: null when absent (an older plan), else a number in [0, 1). */
  private static @Nullable BigDecimal planTolerance(
      @Nullable BigDecimal t, String origin, ErrorLocation at) {
    if (t != null && !GateTolerance.inRange(t)) {
      throw BenchplanException.invalid(
          at.child("tolerance"),
          origin + "/tolerance: expected a fraction in [0, 1) such as 0 or 0.05, got " + t);
    }
    return t;
  }

  /** The derived metric a plan uses for the workload's {@code error_rate_max}. */
  static final String ERROR_RATE_METRIC = "error_rate";

  /**
   * Gate options for a plan's gates: the default tolerance, and the plan's {@code error_rate} gate
   * (a ratio, {@code <=}) as the maximum error rate when there is one.
   */
  public static GateOptions planGateOptions(List<BenchmarkPlan.Gate> gates) {
    for (BenchmarkPlan.Gate g : gates) {
      if (ERROR_RATE_METRIC.equals(g.metric()) && "<=".equals(g.operator())) {
        return new GateOptions(GateOptions.DEFAULT_TOLERANCE, g.threshold());
      }
    }
    return GateOptions.defaults();
  }

  /** Parses {@code "<op> <number> [unit]"}, e.g. {@code ">= 5000"} or {@code "<= 0.2 s"}. */
  static Expression parseExpression(String text, String where, ErrorLocation at) {
    Matcher m = EXPRESSION.matcher(text);
    if (!m.matches()) {
      throw BenchplanException.invalid(
          at,
          where
              + ": cannot parse '"
              + text
              + "': expected an operator and a number, e.g. \">= 5000\" or \"<= 200\"");
    }
    Operator op = Operator.fromSymbol(m.group(1)).orElseThrow();
    BigDecimal value = new BigDecimal(m.group(2));
    if (!Double.isFinite(value.doubleValue())) {
      throw BenchplanException.invalid(
          at,
          where
              + ": '"
              + text
              + "': expected a finite number, got "
              + value
              + " (beyond the range of a double)");
    }
    MetricUnit unit = null;
    if (m.group(3) != null) {
      String u = m.group(3);
      unit =
          MetricUnit.parse(u)
              .orElseThrow(
                  () ->
                      BenchplanException.invalid(
                          at,
                          where
                              + ": unknown unit '"
                              + u
                              + "' in '"
                              + text
                              + "': expected e.g. ms, s, tokens/sec"));
    }
    return new Expression(op, value, unit);
  }

  private static Constraint aicr(String name, Expression e, String origin, ErrorLocation at) {
    Known k = Objects.requireNonNull(known(name), () -> "not an AICR constraint: " + name);
    if (e.operator() != k.operator()) {
      throw BenchplanException.invalid(
          at,
          origin
              + ": "
              + name
              + " takes only "
              + k.operator().symbol()
              + " (as AICR requires), got "
              + e.operator().symbol());
    }
    MetricUnit unit = e.unit() == null ? MetricUnit.canonical(k.dimension()) : e.unit();
    if (unit.dimension() != k.dimension()) {
      throw BenchplanException.invalid(
          at,
          origin
              + ": "
              + name
              + " is measured in "
              + k.dimension().canonical()
              + ", not in "
              + unit.text());
    }
    return new Constraint(
        name, k.metric(), k.stat(), e.operator(), threshold(e, origin, at), unit, origin);
  }

  private static Constraint generic(
      String name, String metric, String stat, Expression e, String origin, ErrorLocation at) {
    if (!MetricSummary.STATS.contains(stat)) {
      throw BenchplanException.invalid(
          at,
          origin
              + ": "
              + name
              + ": AIPerf writes no statistic '"
              + stat
              + "': expected one of "
              + MetricSummary.STATS);
    }
    if (e.operator() != Operator.GE && e.operator() != Operator.LE) {
      throw BenchplanException.invalid(
          at,
          origin
              + ": "
              + name
              + ": expected >= (a floor) or <= (a ceiling), got "
              + e.operator().symbol());
    }
    return new Constraint(
        name, metric, stat, e.operator(), threshold(e, origin, at), e.unit(), origin);
  }

  private static BigDecimal threshold(Expression e, String origin, ErrorLocation at) {
    if (e.value().signum() < 0) {
      throw BenchplanException.invalid(
          at, origin + ": threshold must not be negative, got " + e.value().toPlainString());
    }
    return e.value();
  }

  private static JsonNode readYaml(Path file) {
    try {
      return Json.YAML.readTree(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": constraints overlay not found", e);
    } catch (IOException e) {
      throw InputErrors.unreadable("constraints overlay", file, e);
    } catch (JacksonException e) {
      throw InputErrors.unparsable("constraints overlay", file, e);
    }
  }
}
