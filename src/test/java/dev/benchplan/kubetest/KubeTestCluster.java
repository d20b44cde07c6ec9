package dev.benchplan.kubetest;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The running control plane of {@code scripts/kube-test-env.sh}, found through its state directory
 * ({@code $BENCHPLAN_KUBE_STATE}, default {@code /tmp/benchplan-kube-test-env}). One instance per
 * test run; {@link KubeTestEnvExtension} shares it between test classes.
 *
 * <p>State directory layout (written by the script): {@code kubeconfig} (admin, system:masters),
 * {@code user.kubeconfig} (user {@code benchplan-user}, no rights until a test grants some), {@code
 * pki/ca.crt}, {@code pki/kubelet.{crt,key}} (the kubelet stand-in's serving pair), {@code
 * pki/admin.token}, {@code pki/user.token}, {@code run/ports.env}, {@code log/*.log}.
 */
public final class KubeTestCluster {
  /** The apiserver version the script builds; tests may rely on its API surface. */
  public static final String KUBERNETES_VERSION = "v1.20.2";

  private final Path stateDir;
  private final Config adminConfig;

  private KubeTestCluster(Path stateDir, Config adminConfig) {
    this.stateDir = stateDir;
    this.adminConfig = adminConfig;
  }

  /** The state directory the script uses: $BENCHPLAN_KUBE_STATE or its default. */
  public static Path defaultStateDir() {
    String env = System.getenv("BENCHPLAN_KUBE_STATE");
    return Paths.get(env != null && !env.isBlank() ? env : "/tmp/benchplan-kube-test-env")
        .toAbsolutePath()
        .normalize();
  }

  /**
   * Attaches to the environment in {@code stateDir} when its apiserver answers.
   *
   * @return the cluster, or null when nothing usable runs there
   */
  static KubeTestCluster attach(Path stateDir) {
    Path kubeconfig = stateDir.resolve("kubeconfig");
    if (!Files.isReadable(kubeconfig) || !Files.exists(stateDir.resolve("run/ports.env"))) {
      return null;
    }
    KubeTestCluster cluster = new KubeTestCluster(stateDir, loadConfig(kubeconfig));
    try (KubernetesClient client = cluster.newAdminClient()) {
      client.getKubernetesVersion();
      return cluster;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Runs {@code script up} (which may build the binaries on a fresh machine: up to ~15 min) and
   * attaches. The script's output goes to {@code log}.
   *
   * @throws IllegalStateException when the script fails or the apiserver does not answer after it
   */
  static KubeTestCluster startWithScript(Path script, Path stateDir, Path log) {
    runScript(script, stateDir, log, "up", 45);
    KubeTestCluster cluster = attach(stateDir);
    if (cluster == null) {
      throw new IllegalStateException(
          script + " up succeeded but no apiserver answers with " + stateDir.resolve("kubeconfig"));
    }
    return cluster;
  }

  static void runScript(Path script, Path stateDir, Path log, String command, int timeoutMinutes) {
    try {
      Files.createDirectories(log.toAbsolutePath().getParent());
      ProcessBuilder pb = new ProcessBuilder(List.of(script.toString(), command));
      pb.environment().put("BENCHPLAN_KUBE_STATE", stateDir.toString());
      pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      Process p = pb.start();
      if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            script + " " + command + " timed out after " + timeoutMinutes + " min; see " + log);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            script + " " + command + " failed (exit " + p.exitValue() + "): " + tail(log));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script + " " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + script + " " + command, e);
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "(see " + log + ")";
    }
  }

  private static Config loadConfig(Path kubeconfig) {
    try {
      String text = Files.readString(kubeconfig, StandardCharsets.UTF_8);
      // fromKubeconfig reads only this file: no ~/.kube/config, no KUBECONFIG, no proxy variables
      return new ConfigBuilder(Config.fromKubeconfig(text))
          .withRequestTimeout(30_000)
          .withConnectionTimeout(10_000)
          .build();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + kubeconfig, e);
    }
  }

  /** The state directory of this environment. */
  public Path stateDir() {
    return stateDir;
  }

  /** The admin kubeconfig (user {@code benchplan-admin}, group system:masters). */
  public Path kubeconfig() {
    return stateDir.resolve("kubeconfig");
  }

  /** The apiserver URL, e.g. {@code https://127.0.0.1:6443/}. */
  public String apiServerUrl() {
    return adminConfig.getMasterUrl();
  }

  /** The admin bearer token (system:masters). */
  public String adminToken() {
    return readSecret("pki/admin.token");
  }

  /**
   * The bearer token of {@code benchplan-user} (group {@code benchplan-users}), which RBAC grants
   * nothing until a test binds a Role to it.
   */
  public String userToken() {
    return readSecret("pki/user.token");
  }

  /** A new admin client (caller closes it); its default namespace is {@code default}. */
  public KubernetesClient newAdminClient() {
    return new KubernetesClientBuilder().withConfig(adminConfig).build();
  }

  /** A new client for {@code namespace} authenticated by {@code token} (caller closes it). */
  public KubernetesClient newClient(String token, String namespace) {
    Config config =
        new ConfigBuilder(adminConfig).withOauthToken(token).withNamespace(namespace).build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** A new admin client whose default namespace is {@code namespace} (caller closes it). */
  public KubernetesClient newAdminClient(String namespace) {
    return newClient(adminToken(), namespace);
  }

  /** The TLS material the kubelet stand-in serves with (signed by the environment's CA). */
  public KubeletTls kubeletTls() {
    return new KubeletTls(
        stateDir.resolve("pki/kubelet.crt"),
        stateDir.resolve("pki/kubelet.key"),
        stateDir.resolve("pki/ca.crt"));
  }

  /**
   * Writes a kubeconfig for {@code token} whose current context defaults to {@code namespace}, for
   * CLI tests that take {@code --kubeconfig}. The file trusts the environment's CA.
   */
  public Path writeKubeconfig(Path file, String token, String namespace) {
    String ca =
        java.util.Base64.getEncoder().encodeToString(readBytes(stateDir.resolve("pki/ca.crt")));
    String server = apiServerUrl().replaceAll("/+$", "");
    String text =
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: benchplan-test",
            "  cluster:",
            "    server: " + server,
            "    certificate-authority-data: " + ca,
            "users:",
            "- name: test-user",
            "  user:",
            "    token: " + token,
            "contexts:",
            "- name: benchplan-test",
            "  context: {cluster: benchplan-test, user: test-user, namespace: " + namespace + "}",
            "current-context: benchplan-test",
            "");
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private String readSecret(String relative) {
    return new String(readBytes(stateDir.resolve(relative)), StandardCharsets.UTF_8).trim();
  }

  private static byte[] readBytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
