package dev.benchplan.kube;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one way run and validate open a cluster: the kubeconfig context as kubectl resolves it
 * ({@code $KUBECONFIG}, else {@code ~/.kube/config}), or the pod's service account when running in
 * a cluster. With neither, nothing is called: exit 2 naming what is missing and how to set it
 * (fabric8 would otherwise try https://kubernetes.default.svc and fail after its timeouts).
 *
 * @param client the client (the caller closes it)
 * @param description context and server, for records and messages
 */
public record KubeConnection(KubernetesClient client, String description) {
  /** Where a pod's service account token is mounted. */
  public static final Path SERVICE_ACCOUNT_TOKEN =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  public KubeConnection {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(description, "description");
  }

  /**
   * Opens {@code context} (null: the kubeconfig's current context) from the process environment.
   */
  public static KubeConnection open(@Nullable String context) {
    // fabric8 reads the system properties before the environment variables: so does the check
    Map<String, String> env = new java.util.HashMap<>(System.getenv());
    String kubeconfig = System.getProperty("kubeconfig");
    if (kubeconfig != null && !kubeconfig.isBlank()) {
      env.put("KUBECONFIG", kubeconfig);
    }
    String master = System.getProperty("kubernetes.master");
    if (master != null && !master.isBlank()) {
      env.put("KUBERNETES_MASTER", master);
    }
    return open(context, env, Path.of(System.getProperty("user.home")), SERVICE_ACCOUNT_TOKEN);
  }

  /**
   * Opens {@code context} given the environment, the home folder and the service account token
   * path.
   */
  static KubeConnection open(
      @Nullable String context, Map<String, String> env, Path home, Path serviceAccountToken) {
    check(context, env, home, serviceAccountToken);
    Config config;
    try {
      config = Config.autoConfigure(context);
    } catch (RuntimeException e) {
      throw BenchplanException.invalid(
          kubeconfigLocation(env, home),
          "cannot load the kubeconfig "
              + kubeconfigFiles(env, home)
              + ": "
              + (e.getMessage() == null
                  ? e.getClass().getSimpleName()
                  : e.getMessage().replace('\n', ' ')),
          e);
    }
    NamedContext current = config.getCurrentContext();
    if (context != null && (current == null || !context.equals(current.getName()))) {
      List<String> known =
          config.getContexts() == null
              ? List.of()
              : config.getContexts().stream().map(NamedContext::getName).toList();
      throw BenchplanException.invalid(
          ErrorLocation.option("--context"),
          "option --context: context '"
              + context
              + "' is not in the kubeconfig "
              + kubeconfigFiles(env, home)
              + (known.isEmpty() ? "" : " (it has: " + String.join(", ", known) + ")"));
    }
    String ctx = current == null ? "(in-cluster service account)" : current.getName();
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
    return new KubeConnection(client, "context " + ctx + ", server " + config.getMasterUrl());
  }

  /**
   * Refuses (exit 2) when no kubeconfig file exists and the process has no in-cluster service
   * account, or when the kubeconfig names no current context and none is given.
   */
  static void check(
      @Nullable String context, Map<String, String> env, Path home, Path serviceAccountToken) {
    boolean inCluster =
        !isBlank(env.get("KUBERNETES_SERVICE_HOST")) && Files.isRegularFile(serviceAccountToken);
    if (inCluster || !isBlank(env.get("KUBERNETES_MASTER"))) {
      return;
    }
    List<Path> files = kubeconfigPaths(env, home);
    List<Path> present = files.stream().filter(Files::isRegularFile).toList();
    String source =
        isBlank(env.get("KUBECONFIG"))
            ? "~/.kube/config (" + files.get(0) + ")"
            : "KUBECONFIG=" + env.get("KUBECONFIG");
    if (present.isEmpty()) {
      throw BenchplanException.invalid(
          kubeconfigLocation(env, home),
          "no Kubernetes cluster configured: "
              + source
              + " does not exist and"
              + " there is no in-cluster service account ("
              + serviceAccountToken
              + "); set KUBECONFIG to a"
              + " kubeconfig file (or create ~/.kube/config), then choose a context with --context or"
              + " 'kubectl config use-context'");
    }
    if (context == null && present.stream().noneMatch(KubeConnection::hasCurrentContext)) {
      throw BenchplanException.invalid(
          ErrorLocation.file(present.get(0)).withField("current-context"),
          "no Kubernetes context selected: "
              + source
              + " sets no current-context;"
              + " pass --context NAME or run 'kubectl config use-context NAME'");
    }
  }

  private static boolean hasCurrentContext(Path kubeconfig) {
    try {
      for (String line : Files.readAllLines(kubeconfig)) {
        String l = line.strip();
        if (l.startsWith("current-context:")
            && !l.substring("current-context:".length())
                .replace("\"", "")
                .replace("'", "")
                .isBlank()) {
          return true;
        }
      }
      return false;
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      return true; // unreadable: let the kubeconfig loader name the problem
    }
  }

  private static List<Path> kubeconfigPaths(Map<String, String> env, Path home) {
    String kc = env.get("KUBECONFIG");
    if (kc == null || kc.isBlank()) {
      return List.of(home.resolve(".kube").resolve("config"));
    }
    List<Path> out = new ArrayList<>();
    for (String p : kc.split(File.pathSeparator)) {
      if (!p.isBlank()) {
        out.add(Path.of(p));
      }
    }
    return out.isEmpty() ? List.of(home.resolve(".kube").resolve("config")) : out;
  }

  /** The kubeconfig file (the first of several), and KUBECONFIG when that names it. */
  private static ErrorLocation kubeconfigLocation(Map<String, String> env, Path home) {
    return ErrorLocation.file(kubeconfigPaths(env, home).get(0))
        .withField(isBlank(env.get("KUBECONFIG")) ? null : "KUBECONFIG");
  }

  private static String kubeconfigFiles(Map<String, String> env, Path home) {
    return String.join(
        File.pathSeparator, kubeconfigPaths(env, home).stream().map(Path::toString).toList());
  }

  private static boolean isBlank(@Nullable String s) {
    return s == null || s.isBlank();
  }
}
