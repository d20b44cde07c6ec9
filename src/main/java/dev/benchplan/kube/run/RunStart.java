package dev.benchplan.kube.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.gate.ConstraintReader;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.GateOptions;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.rbac.Permission;
import dev.benchplan.kube.rbac.PermissionCheck;
import dev.benchplan.kube.rbac.RbacTargets;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.run.RunRequest;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What every way of running decides the same way before anything is created — the Job engine, the
 * operator engine and {@code run --from-log}: the gate's constraints and options, the run directory
 * (refused when the run-id was already collected), the namespace, the permissions, the bound.
 */
final class RunStart {
  private RunStart() {}

  /**
   * The constraints given in code (validate's), else the {@code --constraints} overlay's, else the
   * plan's gates ({@code source} names the plan in their messages).
   */
  static ConstraintSet constraints(
      RunRequest request, List<BenchmarkPlan.Gate> gates, String source) {
    if (request.constraints() != null) {
      return request.constraints();
    }
    return request.constraintsOverlay() != null
        ? ConstraintReader.fromOverlay(request.constraintsOverlay())
        : ConstraintReader.fromPlanGates(gates, source);
  }

  /** The plan's gate options (its error_rate gate) when its gates are the constraints. */
  static GateOptions options(RunRequest request, List<BenchmarkPlan.Gate> gates) {
    return request.constraints() != null || request.constraintsOverlay() != null
        ? GateOptions.defaults()
        : ConstraintReader.planGateOptions(gates);
  }

  /** The run's directory; exit 2 when the run-id was already collected and not --replace. */
  static RunDirectory directory(RunRequest request, String runId) {
    RunDirectory dir = new RunDirectory(request.runsDir(), runId);
    if (dir.exists() && !request.replace()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(dir.finalDir()),
          dir.finalDir()
              + ": run "
              + runId
              + " was already collected:"
              + " re-render for a new run-id, or use --replace (the earlier directory is kept under a new name)");
    }
    return dir;
  }

  /** {@code --namespace}, else the rendered one, else the context's, else {@code default}. */
  static String namespace(
      RunRequest request, @Nullable String rendered, @Nullable String contextDefault) {
    if (request.namespace() != null) {
      return request.namespace();
    }
    return rendered != null ? rendered : Objects.requireNonNullElse(contextDefault, "default");
  }

  /**
   * Every permission the run needs, asked of the API server before anything is created (issue 19);
   * isolation checks it may not make are reported and recorded as not verified.
   */
  static void permissions(
      ClusterAccess client,
      RbacTargets targets,
      RunRequest request,
      String namespace,
      @Nullable String rendered,
      ProgressReporter progress) {
    List<Permission> skipped =
        PermissionCheck.require(
            client,
            targets,
            "benchplan rbac run --deploy-root "
                + request.deployRoot()
                + (namespace.equals(rendered) ? "" : " --namespace " + namespace));
    if (!skipped.isEmpty()) {
      progress.report(
          "permissions",
          "isolation checks without permission (recorded as not verified): "
              + String.join("; ", skipped.stream().map(Permission::describe).toList()));
    }
  }

  /**
   * {@code --timeout}, else the object's own deadline ({@code seconds}, null or 0: none) plus
   * {@code margin}, else {@link KubeRunService#DEFAULT_RUN_BOUND}.
   */
  static Duration bound(RunRequest request, @Nullable Long seconds, Duration margin) {
    if (request.timeout() != null) {
      return request.timeout();
    }
    return seconds != null && seconds > 0
        ? Duration.ofSeconds(seconds).plus(margin)
        : KubeRunService.DEFAULT_RUN_BOUND;
  }
}
