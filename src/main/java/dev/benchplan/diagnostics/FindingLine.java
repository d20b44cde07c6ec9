package dev.benchplan.diagnostics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A finding as the verdict documents carry it ({@code findings[]} in schemas/verdict.schema.json
 * and schemas/validate-verdict.schema.json), for Jackson to write at the edge.
 *
 * @param kind what was found
 * @param severity how much it matters
 * @param run the run it was found in, or null when the verdict covers one run
 * @param message one line with the figures
 * @param signals the signals that fired
 * @param figures the named numbers: integral values as integers (counts), others at 16 significant
 *     digits ({@link Finding#figure}), one form in every writer
 * @param evidence lines quoted from AIPerf's log
 * @param recommendation what to do about it
 * @param rule the rule file that defines the detector, relative to agent-docs/rules/
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record FindingLine(
    String kind,
    String severity,
    @Nullable String run,
    String message,
    List<String> signals,
    Map<String, Number> figures,
    List<String> evidence,
    String recommendation,
    String rule) {
  public FindingLine {
    signals = List.copyOf(signals);
    figures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    evidence = List.copyOf(evidence);
  }

  /** The line of {@code f}. */
  public static FindingLine of(Finding f) {
    Map<String, Number> figures = new LinkedHashMap<>();
    f.figures()
        .forEach(
            (k, v) ->
                figures.put(
                    k,
                    v == Math.rint(v) && Math.abs(v) < 1e15
                        ? (Number) (long) v.doubleValue()
                        : Finding.figure(v)));
    return new FindingLine(
        f.kind().json(),
        f.kind().severity(),
        f.run(),
        f.message(),
        f.signals(),
        figures,
        f.evidence(),
        f.recommendation(),
        f.rule());
  }
}
