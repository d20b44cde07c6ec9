package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What one test class gets from {@link KubeTestEnv}: its own namespace on the real control plane,
 * an admin client defaulting to it, and the stand-ins. Everything started or created through it
 * (kubelets, operators, clients, namespaces) is stopped or deleted after the class.
 *
 * <pre>{@code
 * @KubeTestEnv
 * class JobRunIT {
 *   @Test
 *   void runsToCompletion(KubeTestContext kube) {
 *     FakeKubelet kubelet = kube.startKubelet(FakeNode.withGpus("node-a", 8));
 *     kubelet.when(FakeKubelet.labelled("job-name", "bench"), PodScript.replayLog("hello\n", 0));
 *     kube.client().batch().v1().jobs().resource(job).create();   // namespace defaults to kube.namespace()
 *     ...
 *   }
 * }
 * }</pre>
 */
public final class KubeTestContext {
  /** Which namespaces a stand-in watches. */
  public enum Scope {
    /** Only {@link #namespace()} (the default: test classes never see each other's pods). */
    TEST_NAMESPACE,
    /**
     * Every namespace except other test contexts' (e.g. for a tool that creates its own namespace).
     * Beware concurrent test runs sharing one environment: a namespace the tool under test creates
     * is fair game for every cluster-wide stand-in.
     */
    ALL_NAMESPACES
  }

  /**
   * Label on every namespace a context creates; its value is the context's own {@link
   * #namespace()}. Cluster-wide stand-ins skip namespaces labelled for another context.
   */
  public static final String NAMESPACE_LABEL = "benchplan.dev/kube-test-env";

  private final KubeTestCluster cluster;
  private final String namespace;
  private final KubernetesClient client;
  private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
  private final List<String> namespaces = new ArrayList<>();
  private final NamespaceOwnership ownership;

  KubeTestContext(KubeTestCluster cluster, Class<?> testClass) {
    this.cluster = cluster;
    this.namespace = uniqueName(testClass.getSimpleName());
    this.client = cluster.newAdminClient(namespace);
    this.ownership = new NamespaceOwnership(client, namespace);
    try {
      createNamespaceNamed(namespace, testClass.getSimpleName());
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** The environment this context runs on. */
  public KubeTestCluster cluster() {
    return cluster;
  }

  /** This test class's namespace (created before the class, deleted after it). */
  public String namespace() {
    return namespace;
  }

  /** An admin (system:masters) client whose default namespace is {@link #namespace()}. */
  public KubernetesClient client() {
    return client;
  }

  /** Starts a kubelet stand-in for pods in {@link #namespace()} with these nodes. */
  public FakeKubelet startKubelet(FakeNode... nodes) {
    return startKubelet(Scope.TEST_NAMESPACE, nodes);
  }

  /**
   * Starts a kubelet stand-in for pods in {@code scope} with these nodes; stopped after the class.
   */
  public FakeKubelet startKubelet(Scope scope, FakeNode... nodes) {
    FakeKubelet kubelet =
        FakeKubelet.start(
            client, scopeNamespace(scope), ownership, cluster.kubeletTls(), List.of(nodes));
    closeables.push(kubelet);
    return kubelet;
  }

  /** Starts a Dynamo operator stand-in for DGDs in {@link #namespace()}. */
  public FakeDynamoOperator startOperator(FakeDynamoOperator.Mode mode) {
    return startOperator(Scope.TEST_NAMESPACE, mode);
  }

  /** Starts a Dynamo operator stand-in for DGDs in {@code scope}; stopped after the class. */
  public FakeDynamoOperator startOperator(Scope scope, FakeDynamoOperator.Mode mode) {
    FakeDynamoOperator operator =
        FakeDynamoOperator.start(client, scopeNamespace(scope), ownership, mode);
    closeables.push(operator);
    return operator;
  }

  /** Creates another namespace named {@code <prefix>-<5 hex>}; deleted after the class. */
  public String createNamespace(String prefix) {
    String name = uniqueName(prefix);
    createNamespaceNamed(name, prefix);
    return name;
  }

  /** Deletes {@code name} (e.g. a namespace the tool under test created) after the class. */
  public void deleteAfterAll(String name) {
    namespaces.add(name);
  }

  /**
   * A client authenticated as {@code benchplan-user} (group {@code benchplan-users}), which RBAC
   * grants nothing until the test binds a Role; default namespace {@link #namespace()}.
   */
  public KubernetesClient userClient() {
    return clientWithToken(cluster.userToken());
  }

  /** A client authenticated by {@code token}, default namespace {@link #namespace()}. */
  public KubernetesClient clientWithToken(String token) {
    KubernetesClient c = cluster.newClient(token, namespace);
    closeables.push(c);
    return c;
  }

  /**
   * A token for ServiceAccount {@code name} in {@link #namespace()} (created if missing) from the
   * TokenRequest API: an identity {@code system:serviceaccount:<ns>:<name>} to bind Roles to.
   */
  public String serviceAccountToken(String name) {
    client
        .serviceAccounts()
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName(name).endMetadata().build())
        .createOr(NonDeletingOperation::update);
    return client
        .serviceAccounts()
        .withName(name)
        .tokenRequest(
            new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus()
        .getToken();
  }

  /**
   * Server-side dry run ({@code dryRun=All}, server-side apply) of every document in {@code yaml},
   * namespaced to {@link #namespace()} when a document has none. Nothing is persisted.
   *
   * @return the objects as the apiserver would have stored them (defaults filled in)
   * @throws KubernetesClientException when the apiserver rejects one (e.g. an invalid Job)
   */
  public List<HasMetadata> dryRunApply(String yaml) {
    List<HasMetadata> items =
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
    return client
        .resourceList(items)
        .inNamespace(namespace)
        .dryRun()
        .fieldManager("benchplan-test")
        .forceConflicts()
        .serverSideApply();
  }

  /** {@link #dryRunApply(String)} of a file. */
  public List<HasMetadata> dryRunApply(Path yamlFile) {
    try {
      return dryRunApply(Files.readString(yamlFile, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + yamlFile, e);
    }
  }

  /**
   * Writes a kubeconfig for {@code token} defaulting to {@link #namespace()} (see {@link
   * KubeTestCluster#writeKubeconfig}).
   */
  public Path writeKubeconfig(Path file, String token) {
    return cluster.writeKubeconfig(file, token, namespace);
  }

  private String scopeNamespace(Scope scope) {
    return scope == Scope.ALL_NAMESPACES ? null : namespace;
  }

  private void createNamespaceNamed(String name, String origin) {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(NAMESPACE_LABEL, namespace)
                .addToAnnotations("benchplan.dev/test-class", origin)
                .endMetadata()
                .build())
        .create();
    namespaces.add(name);
  }

  /** {@code <sanitized prefix, at most 40 chars>-<5 hex>}: a DNS-1123 label. */
  static String uniqueName(String prefix) {
    String base =
        prefix
            .replaceAll("([a-z0-9])([A-Z])", "$1-$2")
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9-]+", "-")
            .replaceAll("-+", "-")
            .replaceAll("^-|-$", "");
    if (base.length() > 40) {
      base = base.substring(0, 40).replaceAll("-$", "");
    }
    if (base.isEmpty()) {
      base = "it";
    }
    byte[] random = new byte[3];
    ThreadLocalRandom.current().nextBytes(random);
    return base + "-" + HexFormat.of().formatHex(random).substring(0, 5);
  }

  /** Stops the stand-ins and clients (newest first), then deletes the namespaces (not waiting). */
  void close() {
    RuntimeException failure = null;
    while (!closeables.isEmpty()) {
      try {
        closeables.pop().close();
      } catch (Exception e) {
        if (failure == null) {
          failure = new IllegalStateException("cleanup of the kube test context failed", e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    for (String ns : namespaces) {
      try {
        client.namespaces().withName(ns).delete();
      } catch (KubernetesClientException e) {
        if (failure == null) {
          failure = new IllegalStateException("cannot delete namespace " + ns, e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    client.close();
    if (failure != null) {
      throw failure;
    }
  }
}
