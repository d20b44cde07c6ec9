package dev.benchplan.verify;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Where agent-docs/rules lies: above the experiment root (a project's checkout), or beside the jar.
 */
final class RulesFolder {
  private RulesFolder() {}

  static @Nullable Path find(Path expRoot) {
    for (Path d = expRoot.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
      Path rules = d.resolve("agent-docs").resolve("rules");
      if (Files.isDirectory(rules)) {
        return rules;
      }
    }
    try {
      Path code =
          Path.of(RulesFolder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      for (Path d = code.getParent(); d != null; d = d.getParent()) {
        Path rules = d.resolve("agent-docs").resolve("rules");
        if (Files.isDirectory(rules)) {
          return rules;
        }
      }
    } catch (URISyntaxException | RuntimeException e) {
      return null; // no code source (e.g. a custom class loader): checked against the rule list
    }
    return null;
  }
}
