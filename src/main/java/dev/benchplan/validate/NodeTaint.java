package dev.benchplan.validate;

import java.util.Objects;

/**
 * A node taint, which the default deployment tolerates so its pods can run on the chosen node.
 *
 * @param key the taint key
 * @param value the taint value, or null
 * @param effect NoSchedule, PreferNoSchedule or NoExecute
 */
public record NodeTaint(String key, String value, String effect) {
  public NodeTaint {
    Objects.requireNonNull(key, "key");
  }
}
