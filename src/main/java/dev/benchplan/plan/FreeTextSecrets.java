package dev.benchplan.plan;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.SecretScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses a credential in any free text the plan would carry from the command line (the question,
 * its target region and references, the series ID, the repeat rationale). The workload's own texts
 * (notes, rationales) are scanned with the workload; this covers what reaches the plan besides it.
 */
final class FreeTextSecrets {
  private FreeTextSecrets() {}

  /** Logs PLAN_TEXT_SECRET for every text that looks like a credential, naming the option only. */
  static void check(Question q, PlanOptions o, RuleLog log) {
    List<String[]> texts = new ArrayList<>();
    texts.add(new String[] {"--question", q.text()});
    texts.add(new String[] {"--target-region", q.targetRegion()});
    for (int i = 0; i < q.references().size(); i++) {
      texts.add(new String[] {"--reference #" + (i + 1), q.references().get(i)});
    }
    texts.add(new String[] {"--series-id", o.seriesId()});
    texts.add(new String[] {"--repeat-rationale", o.repeatRationale()});
    for (String[] t : texts) {
      String kind = SecretScanner.kindOf(t[1]);
      if (kind != null) {
        log.block(
            BlockerCode.PLAN_TEXT_SECRET,
            t[0]
                + ": looks like "
                + kind
                + " (value not"
                + " shown); the plan is read-only and shared with reviewers, so it never carries a"
                + " credential — remove it from the text");
      }
    }
  }
}
