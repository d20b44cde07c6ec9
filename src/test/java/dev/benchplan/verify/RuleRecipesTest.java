package dev.benchplan.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The recipes written in the plan rules compute what they say (issue 21 item 3). */
class RuleRecipesTest {
  @Test
  @DisplayName(
      "the plan_id worked example in execution/benchmark-plan.md: its document gives its plan_id,"
          + " by the same code verify checks plans with")
  void planIdWorkedExample() throws Exception {
    String rules =
        Files.readString(Path.of("agent-docs/rules/execution/benchmark-plan.md"))
            .replace("\n", " ");
    Matcher m =
        Pattern.compile("Worked example: the document `(\\{.*?\\})` has plan_id `([^`]+)`")
            .matcher(rules);
    assertThat(m.find()).as("the worked example is in the rule file").isTrue();
    ObjectNode doc = (ObjectNode) Json.JSON.readTree(m.group(1));
    assertThat(PlanVerifier.planId(doc)).isEqualTo(m.group(2));
    // and it changes with any field: an edited plan no longer matches its own ID
    doc.putObject("experiment").put("seed", 101).put("warmup_requests", 0);
    assertThat(PlanVerifier.planId(doc)).isNotEqualTo(m.group(2));
  }
}
