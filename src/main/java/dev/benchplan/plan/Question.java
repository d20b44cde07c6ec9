package dev.benchplan.plan;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The performance question a plan answers.
 *
 * @param text the question, in the user's words (required, non-blank to plan)
 * @param intent characterization or comparison
 * @param targetRegion the target operating region, or null
 * @param references reference candidates a comparison is made against (at least one for a
 *     comparison)
 */
public record Question(
    String text, Intent intent, @Nullable String targetRegion, List<String> references) {
  public Question {
    Objects.requireNonNull(intent, "intent");
    references = references == null ? List.of() : List.copyOf(references);
  }
}
