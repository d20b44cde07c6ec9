package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.kube.rbac.RbacManifest;
import dev.benchplan.kube.rbac.RbacManifests;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchplan rbac run|validate}: print the least-privilege RBAC objects a command needs. */
@Command(
    name = "rbac",
    mixinStandardHelpOptions = true,
    description = {
      "Print the Role(s), the ClusterRole(s) only where needed, and bindings that grant 'run' or 'validate'"
          + " exactly the Kubernetes calls they make: required and isolation rules apart, each rule with the"
          + " step that needs it, no wildcards. YAML for kubectl apply; --format json gives the same objects."
    },
    subcommands = {RbacCommand.Run.class, RbacCommand.Validate.class})
public final class RbacCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Who the bindings name. */
  public static final class SubjectOptions {
    @Option(
        names = "--service-account",
        paramLabel = "NS/NAME",
        description =
            "Bind to this ServiceAccount (default: benchplan in the Job's namespace: fill it in).")
    String serviceAccount;

    @Option(
        names = "--user",
        paramLabel = "NAME",
        description = "Bind to this user instead of a ServiceAccount.")
    String user;

    RbacManifest.@Nullable Subject subject() {
      if (user != null && serviceAccount != null) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--service-account"),
            "options --user and --service-account: give one subject, not both");
      }
      if (user != null) {
        return new RbacManifest.Subject("User", user, null);
      }
      return serviceAccount == null ? null : RbacManifest.Subject.serviceAccount(serviceAccount);
    }
  }

  static void print(CommandSpec spec, FormatMixin format, RbacManifest m) {
    Printer.print(spec.commandLine(), format, new Output(m), 0);
  }

  /** The printed RBAC objects: YAML with a comment per rule, or the same objects as JSON. */
  record Output(RbacManifest manifest) implements CommandOutput {
    @com.fasterxml.jackson.annotation.JsonValue
    tools.jackson.databind.JsonNode json() {
      return manifest.json();
    }

    @Override
    public void printText(PrintWriter out) {
      out.print(manifest.yaml());
    }
  }

  /** {@code benchplan rbac run}. */
  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description =
          "RBAC for 'benchplan run --deploy-root DIR' (reads DIR/benchmark/perf.yaml). Text output is YAML.")
  static final class Run implements Callable<Integer> {
    @Mixin FormatMixin format;
    @Spec CommandSpec spec;

    @Mixin PerfYamlRootMixin deployRoot;

    @Option(
        names = "--namespace",
        paramLabel = "NS",
        description = "The namespace run will use (default: perf.yaml's).")
    String namespace;

    @Mixin SubjectOptions subject;

    @Override
    public Integer call() {
      print(spec, format, RbacManifests.run(deployRoot.deployRoot(), namespace, subject.subject()));
      return 0;
    }
  }

  /** {@code benchplan rbac validate}. */
  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      description =
          "RBAC for 'benchplan validate --dgd NS/NAME' (an existing DGD), or without --dgd for its"
              + " auto-deployment. Text output is YAML.")
  static final class Validate implements Callable<Integer> {
    @Mixin FormatMixin format;
    @Spec CommandSpec spec;

    @Option(
        names = "--dgd",
        paramLabel = "NS/NAME",
        description = "The existing DGD validate will benchmark.")
    String dgd;

    @Option(
        names = "--namespace",
        paramLabel = "NS",
        description = "validate's --namespace (discovery in one namespace).")
    String namespace;

    @Option(
        names = "--no-model-cache",
        description =
            "validate's --no-model-cache: the auto-deployment without"
                + " its model-weights cache needs no rule for the cache's StorageClass, PVC or populate Job.")
    boolean noModelCache;

    @Mixin SubjectOptions subject;

    @Override
    public Integer call() {
      if (dgd != null && dgd.isBlank()) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--dgd"),
            "option --dgd: expected NAMESPACE/NAME, got an empty value");
      }
      print(spec, format, RbacManifests.validate(dgd, namespace, subject.subject(), !noModelCache));
      return 0;
    }
  }
}
