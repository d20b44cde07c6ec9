package dev.benchplan.validate;

import dev.benchplan.aiperf.export.MetricUnit;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.gate.Constraint;
import dev.benchplan.gate.ConstraintReader;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.GateOptions;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the overlay asks of the inference performance check: whether it runs, with which of the
 * gate's constraints, and, when it does not run, why. The constraints are the gate's own ({@link
 * Constraint}), in canonical units (tokens/sec, ms), judged by the gate with AICR's tolerance
 * ({@link #GATE_OPTIONS}).
 *
 * @param source where the constraints came from (the overlay path, or {@code defaults})
 * @param checks the checks the overlay lists under {@code validation.performance.checks}
 * @param constraints the inference constraints found (empty when none)
 * @param skipReason null when the check runs; otherwise why it is skipped
 */
public record PerformanceRequest(
    String source, List<String> checks, List<Constraint> constraints, @Nullable String skipReason) {
  /** The check names that select this check: AICR's merged name and the seed's name. */
  public static final List<String> CHECK_NAMES = List.of("inference-perf", "inference-throughput");

  /** AICR's tolerance (10%) and the gate's default maximum error rate. */
  public static final GateOptions GATE_OPTIONS = GateOptions.defaults();

  public PerformanceRequest {
    Objects.requireNonNull(source, "source");
    checks = List.copyOf(checks);
    constraints = List.copyOf(constraints);
    if (skipReason == null && constraints.isEmpty()) {
      throw new IllegalArgumentException("a check that runs needs at least one constraint");
    }
  }

  /** Whether the check runs. */
  public boolean runs() {
    return skipReason == null;
  }

  /** The constraints as the gate's set. */
  public ConstraintSet set() {
    return new ConstraintSet(constraints, List.of(), source);
  }

  /** Validate without an overlay: the check runs with >= 5000 tokens/sec and TTFT p99 <= 200 ms. */
  public static PerformanceRequest defaults() {
    List<Constraint> cs =
        ConstraintReader.fromFlags(new BigDecimal("5000"), new BigDecimal("200"))
            .constraints()
            .stream()
            .map(c -> canonical(c, "defaults"))
            .toList();
    return new PerformanceRequest("defaults", List.of("inference-perf"), cs, null);
  }

  /** The per-GPU floor, if the request has one (threshold per GPU). */
  public @Nullable Constraint perGpuFloor() {
    return constraints.stream()
        .filter(c -> c.name().equals(ConstraintReader.THROUGHPUT_PER_GPU))
        .findFirst()
        .orElse(null);
  }

  /** AICR's per-node floor, if the request has one. */
  public @Nullable Constraint throughputFloor() {
    return constraints.stream()
        .filter(c -> c.name().equals(ConstraintReader.THROUGHPUT))
        .findFirst()
        .orElse(null);
  }

  /**
   * The constraints gated for this load: AICR's throughput floor multiplied by {@code floorScale}
   * (free GPUs / node GPUs on a partly occupied node, as AICR does; 1 otherwise), and the per-GPU
   * floor multiplied by {@code gpus} (the total the gate compares). A per-GPU floor without a GPU
   * count is invalid input.
   */
  public PerformanceRequest forLoad(
      @Nullable Integer gpus,
      @Nullable String gpuWhy,
      @Nullable BigDecimal floorScale,
      @Nullable String scaleWhy) {
    List<Constraint> out = new java.util.ArrayList<>();
    for (Constraint c : constraints) {
      if (c.name().equals(ConstraintReader.THROUGHPUT_PER_GPU)) {
        if (gpus == null) {
          throw BenchplanException.invalid(
              location(source, c),
              c.origin() + ": " + c.name() + " needs a GPU count, but " + gpuWhy);
        }
        out.add(
            withThreshold(
                c,
                c.threshold().multiply(BigDecimal.valueOf(gpus)),
                " per GPU x " + gpus + " GPUs"));
      } else if (c.name().equals(ConstraintReader.THROUGHPUT)
          && floorScale != null
          && floorScale.compareTo(BigDecimal.ONE) < 0) {
        BigDecimal t =
            c.threshold()
                .multiply(floorScale)
                .setScale(2, java.math.RoundingMode.HALF_UP)
                .stripTrailingZeros();
        t = t.scale() < 0 ? t.setScale(0) : t;
        out.add(withThreshold(c, t, " scaled by " + scaleWhy));
      } else {
        out.add(c);
      }
    }
    return new PerformanceRequest(source, checks, out, skipReason);
  }

  /** {@code c} judged against {@code threshold}; its origin says how it came from the given one. */
  private static Constraint withThreshold(Constraint c, BigDecimal threshold, String how) {
    return new Constraint(
        c.name(),
        c.metric(),
        c.stat(),
        c.operator(),
        threshold,
        c.unit(),
        c.origin() + " (" + c.threshold().toPlainString() + how + ")");
  }

  /**
   * An AICR constraint with its threshold in the canonical unit; a threshold of 0 gates nothing.
   */
  static Constraint canonical(Constraint c, Object file) {
    boolean rate =
        c.name().equals(ConstraintReader.THROUGHPUT)
            || c.name().equals(ConstraintReader.THROUGHPUT_PER_GPU);
    MetricUnit canonical = MetricUnit.parse(rate ? "tokens/sec" : "ms").orElseThrow();
    BigDecimal t = c.unit() == null ? c.threshold() : c.unit().convert(c.threshold(), canonical);
    if (t.signum() <= 0) {
      throw BenchplanException.invalid(
          location(file, c),
          c.origin()
              + "/value: "
              + c.name()
              + " needs a positive threshold, got "
              + c.threshold().toPlainString());
    }
    BigDecimal plain = t.stripTrailingZeros();
    plain = plain.scale() < 0 ? plain.setScale(0) : plain; // 5000, not 5E+3
    return new Constraint(
        c.name(), c.metric(), c.stat(), c.operator(), plain, canonical, c.origin());
  }

  /** Where a constraint sits: its overlay, and its name as the field. */
  private static ErrorLocation location(Object file, Constraint c) {
    return new ErrorLocation(String.valueOf(file), null, null, null, c.name());
  }
}
