package dev.benchplan.kubetest;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension behind {@link KubeTestEnv}.
 *
 * <p>Once per test run it attaches to the environment in {@link KubeTestCluster#defaultStateDir()}
 * (started by {@code scripts/test.sh} or by hand with {@code scripts/kube-test-env.sh up}); when
 * none answers it runs {@code scripts/kube-test-env.sh up} itself (output in {@code
 * target/kube-test-env.log}) and runs {@code down} at the end of the run (unless {@code
 * BENCHPLAN_KUBE_KEEP=1}). When {@code BENCHPLAN_KUBE_TEST_ENV=1} or {@code CI=true} an unusable
 * environment fails the test classes; otherwise they are skipped with the reason ({@code
 * BENCHPLAN_KUBE_TEST_ENV=0} skips without trying to start one).
 *
 * <p>Per test class it creates a {@link KubeTestContext} (own namespace, admin client) and tears it
 * down after the class. Resolves parameters of type {@link KubeTestContext}, {@link
 * KubernetesClient} (the context's admin client) and {@link KubeTestCluster}.
 */
public final class KubeTestEnvExtension
    implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(KubeTestEnvExtension.class);
  private static final String CONTEXT = "context";

  /**
   * The environment for the whole run: a cluster, or why there is none (JUnit closes it at the
   * end).
   */
  static final class ClusterHandle implements AutoCloseable {
    final KubeTestCluster cluster;
    final String problem;
    final Path startedWith;

    private ClusterHandle(KubeTestCluster cluster, String problem, Path startedWith) {
      this.cluster = cluster;
      this.problem = problem;
      this.startedWith = startedWith;
    }

    /**
     * Attaches to the environment in {@code state}, else starts it with the script found above
     * {@code cwd}.
     */
    static ClusterHandle obtain(Path state, Map<String, String> env, Path cwd) {
      KubeTestCluster attached = KubeTestCluster.attach(state);
      if (attached != null) {
        return new ClusterHandle(attached, null, null);
      }
      if ("0".equals(env.get("BENCHPLAN_KUBE_TEST_ENV"))) {
        return new ClusterHandle(
            null, "BENCHPLAN_KUBE_TEST_ENV=0 and no environment runs in " + state, null);
      }
      Path script = findScript(cwd);
      if (script == null) {
        return new ClusterHandle(
            null, "no executable scripts/kube-test-env.sh in " + cwd + " or above", null);
      }
      try {
        Path log = script.getParent().getParent().resolve("target/kube-test-env.log");
        return new ClusterHandle(KubeTestCluster.startWithScript(script, state, log), null, script);
      } catch (RuntimeException e) {
        return new ClusterHandle(null, e.getMessage(), null);
      }
    }

    private static Path findScript(Path cwd) {
      for (Path dir = cwd.toAbsolutePath(); dir != null; dir = dir.getParent()) {
        Path candidate = dir.resolve("scripts/kube-test-env.sh");
        if (Files.isExecutable(candidate)) {
          return candidate;
        }
      }
      return null;
    }

    @Override
    public void close() {
      if (startedWith != null && !"1".equals(System.getenv("BENCHPLAN_KUBE_KEEP"))) {
        KubeTestCluster.runScript(
            startedWith,
            cluster.stateDir(),
            startedWith.getParent().getParent().resolve("target/kube-test-env.log"),
            "down",
            2);
      }
    }
  }

  /**
   * True when the environment must be usable: {@code BENCHPLAN_KUBE_TEST_ENV=1} or {@code CI=true}.
   */
  static boolean required(Map<String, String> env) {
    return "1".equals(env.get("BENCHPLAN_KUBE_TEST_ENV")) || "true".equalsIgnoreCase(env.get("CI"));
  }

  /**
   * Returns the cluster of {@code handle}; without one, fails (required, see {@link #required}) or
   * aborts the calling test class (skipped, with the reason).
   */
  static KubeTestCluster requireUsable(ClusterHandle handle, Map<String, String> env) {
    if (handle.cluster != null) {
      return handle.cluster;
    }
    String message =
        "no Kubernetes test environment: "
            + handle.problem
            + " (start one with scripts/kube-test-env.sh up)";
    if (required(env)) {
      throw new IllegalStateException("BENCHPLAN_KUBE_TEST_ENV=1 or CI=true, but " + message);
    }
    Assumptions.abort("skipped: " + message);
    throw new AssertionError("unreachable");
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (context.getStore(NS).get(CONTEXT) != null) {
      return; // a @Nested class shares its enclosing class's namespace
    }
    ClusterHandle handle =
        context
            .getRoot()
            .getStore(NS)
            .getOrComputeIfAbsent(
                ClusterHandle.class,
                k ->
                    ClusterHandle.obtain(
                        KubeTestCluster.defaultStateDir(), System.getenv(), Paths.get("")),
                ClusterHandle.class);
    KubeTestCluster cluster = requireUsable(handle, System.getenv());
    Class<?> testClass = context.getRequiredTestClass();
    context
        .getStore(NS)
        .put(CONTEXT, new Owned(testClass, new KubeTestContext(cluster, testClass)));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Owned owned = context.getStore(NS).get(CONTEXT, Owned.class);
    if (owned != null && owned.testClass == context.getRequiredTestClass()) {
      context.getStore(NS).remove(CONTEXT);
      owned.context.close();
    }
  }

  private record Owned(Class<?> testClass, KubeTestContext context) {}

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubeTestContext.class
        || type == KubernetesClient.class
        || type == KubeTestCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    Owned owned = extension.getStore(NS).get(CONTEXT, Owned.class);
    if (owned == null) {
      throw new IllegalStateException(
          "no KubeTestContext: is the class annotated with @KubeTestEnv?");
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == KubernetesClient.class) {
      return owned.context.client();
    }
    if (type == KubeTestCluster.class) {
      return owned.context.cluster();
    }
    return owned.context;
  }
}
