package dev.benchplan.diagnostics;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a detector found in a run, with the figures it rests on.
 *
 * @param kind what was found
 * @param run the run it was found in (a label such as {@code concurrency4} or {@code run_0002}), or
 *     null when the verdict covers one run
 * @param message one line with the figures
 * @param signals the signals that fired (or, for "not judged", why none could)
 * @param figures named numbers the message rests on (ms, seconds, shares as fractions, counts)
 * @param evidence lines quoted from AIPerf's log (at most {@link #MAX_EVIDENCE})
 * @param recommendation what to do about it
 */
public record Finding(
    FindingKind kind,
    @Nullable String run,
    String message,
    List<String> signals,
    Map<String, Double> figures,
    List<String> evidence,
    String recommendation) {
  /** Quoted log lines kept per finding. */
  public static final int MAX_EVIDENCE = 5;

  public Finding {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(recommendation, "recommendation");
    signals = List.copyOf(signals);
    Map<String, Double> f = new LinkedHashMap<>();
    figures.forEach(
        (k, v) -> {
          if (v != null && Double.isFinite(v)) {
            f.put(k, v);
          }
        });
    figures = java.util.Collections.unmodifiableMap(f);
    evidence =
        List.copyOf(evidence.size() > MAX_EVIDENCE ? evidence.subList(0, MAX_EVIDENCE) : evidence);
  }

  /** A non-integral figure at 16 significant digits, in plain notation. */
  public static BigDecimal figure(double v) {
    BigDecimal d = new BigDecimal(v).round(MathContext.DECIMAL64).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0) : d;
  }

  /** The same finding attributed to one run of several. */
  public Finding inRun(String label) {
    return new Finding(kind, label, message, signals, figures, evidence, recommendation);
  }

  /** The rule file that defines the detector, relative to agent-docs/rules/. */
  public String rule() {
    return kind.rule();
  }
}
