package dev.benchplan.plan;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * How a plan writes a file's location so that no checkout's absolute path reaches a hashed file
 * (agent-docs/rules/execution/benchmark-plan.md, "Location independence"): relative to the
 * experiment root, the plan's one recorded anchor ({@code provenance.anchors.exp_root}), with
 * {@code /} separators and {@code ..} segments for inputs beside the experiment root. A plan is
 * read back by resolving such a path against {@code <plan file>/../..}.
 */
public final class PlanPaths {
  /** The name of the anchor every recorded path is relative to. */
  public static final String EXP_ROOT = "exp_root";

  /** The experiment root when none is given ({@code --exp-root} of plan and analyze). */
  public static final String DEFAULT_EXP_ROOT = "experiments";

  private PlanPaths() {}

  /** {@code file} relative to {@code expRoot}, written with {@code /} ({@code .} for the root). */
  public static String relative(Path expRoot, Path file) {
    Path root = expRoot.toAbsolutePath().normalize();
    Path abs = file.toAbsolutePath().normalize();
    if (abs.getRoot() == null || !abs.getRoot().equals(root.getRoot())) {
      return abs.toString().replace('\\', '/'); // another drive: nothing relative exists
    }
    String rel = root.relativize(abs).toString().replace('\\', '/');
    return rel.isEmpty() ? "." : rel;
  }

  /** {@code file} (a string as a document or the invocation wrote it) relative to the root. */
  public static String relative(Path expRoot, String file) {
    return relative(expRoot, Path.of(file));
  }

  /** Where a recorded path lies, given the experiment root it is relative to. */
  public static Path resolve(Path expRoot, String recorded) {
    return expRoot.toAbsolutePath().normalize().resolve(recorded).normalize();
  }

  /** The experiment root of a plan that lies at {@code <root>/inputs/benchmark-plans/x.json}. */
  public static @Nullable Path expRootOf(Path planFile) {
    Path abs = planFile.toAbsolutePath().normalize();
    Path dir = abs.getParent();
    if (dir == null
        || dir.getParent() == null
        || dir.getParent().getParent() == null
        || !dir.getFileName().toString().equals("benchmark-plans")
        || !dir.getParent().getFileName().toString().equals("inputs")) {
      return null;
    }
    return dir.getParent().getParent();
  }
}
