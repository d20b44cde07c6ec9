package dev.benchplan.plan;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * What made a plan (recorded in {@code /provenance}, never a series-identity field): benchplan's
 * version and commit, the clock source, and the invocation with its paths relative to the
 * experiment root and its secrets removed.
 *
 * @param tool benchplan's version and commit
 * @param clockSource {@code SOURCE_DATE_EPOCH}, {@code system_clock} or {@code caller_clock}
 * @param invocation the command and its arguments, or null for a plan built in code
 */
public record PlanOrigin(
    BenchmarkPlan.Tool tool, String clockSource, BenchmarkPlan.@Nullable Invocation invocation) {
  public PlanOrigin {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(clockSource, "clockSource");
  }

  /** A plan built in code (e.g. by {@code validate}) with the caller's clock. */
  public static PlanOrigin inCode() {
    return new PlanOrigin(runningTool(), "caller_clock", null);
  }

  /** This benchplan's version and commit, filtered into the jar at build time. */
  public static BenchmarkPlan.Tool runningTool() {
    Properties p = new Properties();
    try (InputStream in = PlanOrigin.class.getResourceAsStream("/benchplan-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // an unreadable resource is the same as an absent one: version unknown
    }
    return new BenchmarkPlan.Tool(known(p.getProperty("version")), known(p.getProperty("commit")));
  }

  private static String known(String v) {
    return v == null || v.isEmpty() || v.startsWith("${") ? "unknown" : v;
  }

  /** The invocation of {@code benchplan plan} with these (already anchored) arguments. */
  public static BenchmarkPlan.Invocation plan(List<String> arguments) {
    return new BenchmarkPlan.Invocation("plan", List.copyOf(arguments));
  }
}
