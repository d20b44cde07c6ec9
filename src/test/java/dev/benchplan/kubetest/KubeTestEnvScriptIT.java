package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/kube-test-env.sh} itself: every listener on 127.0.0.1 only, {@code up} idempotent,
 * {@code down} leaves no process behind. The lifecycle test starts a second, independent
 * environment (own state dir, free ports) with the 2026-08 DGD CRD, so it also records what the
 * 1.20 apiserver makes of that CRD.
 */
@KubeTestEnv
class KubeTestEnvScriptIT {
  private static final Path SCRIPT = Paths.get("scripts/kube-test-env.sh").toAbsolutePath();
  private static final Pattern SS_LINE =
      Pattern.compile("^\\S+\\s+\\S+\\s+\\d+\\s+\\d+\\s+(\\S+)\\s+\\S+\\s+.*");
  private static final Pattern PID = Pattern.compile("pid=(\\d+)");

  record Result(int exitCode, String out) {}

  static Result script(Path state, Map<String, String> env, String command)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(SCRIPT.toString(), command).redirectErrorStream(true);
    pb.environment().put("BENCHPLAN_KUBE_STATE", state.toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    return new Result(p.exitValue(), out);
  }

  /** pid -> local addresses it listens on (TCP and UDP), from {@code ss -Hltunp}. */
  static Map<Long, List<String>> listeners() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("ss", "-Hltunp").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Map<Long, List<String>> byPid = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      Matcher m = SS_LINE.matcher(line);
      if (!m.matches()) {
        continue;
      }
      Matcher pid = PID.matcher(line);
      while (pid.find()) {
        // a JVM's dual-stack socket bound to 127.0.0.1 shows as [::ffff:127.0.0.1]: still IPv4
        // loopback only
        String local = m.group(1).replace("[::ffff:127.0.0.1]:", "127.0.0.1:");
        byPid.computeIfAbsent(Long.parseLong(pid.group(1)), k -> new ArrayList<>()).add(local);
      }
    }
    return byPid;
  }

  /** component -> pid recorded by the script in {@code state/run/<component>.pid}. */
  static Map<String, Long> recordedPids(Path state) throws IOException {
    Map<String, Long> pids = new LinkedHashMap<>();
    for (String c : List.of("etcd", "kube-apiserver", "kube-controller-manager")) {
      Path f = state.resolve("run/" + c + ".pid");
      if (Files.exists(f)) {
        pids.put(c, Long.parseLong(Files.readString(f).trim().split("\\s+")[0]));
      }
    }
    return pids;
  }

  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Processes whose command line mentions {@code text} (e.g. a state dir). */
  static List<String> processesMentioning(String text) throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Paths.get("/proc"))) {
      for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmd =
              new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8)
                  .replace('\0', ' ');
          if (cmd.contains(text)) {
            found.add(proc.getFileName() + ": " + cmd);
          }
        } catch (IOException gone) {
          // the process ended while we looked
        }
      }
    }
    return found;
  }

  @Test
  @DisplayName(
      "etcd, kube-apiserver, kube-controller-manager and the kubelet stand-in listen on 127.0.0.1 only")
  void everythingListensOnLoopbackOnly(KubeTestCluster cluster, KubeTestContext kube)
      throws Exception {
    FakeKubelet kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-node", 0));
    Map<String, Long> pids = recordedPids(cluster.stateDir());
    assertThat(pids).containsOnlyKeys("etcd", "kube-apiserver", "kube-controller-manager");
    Map<Long, List<String>> listeners = listeners();

    assertThat(listeners.get(pids.get("etcd")))
        .as("etcd listeners")
        .hasSize(2)
        .allMatch(a -> a.startsWith("127.0.0.1:"));
    assertThat(listeners.get(pids.get("kube-apiserver")))
        .as("apiserver listeners")
        .containsExactly("127.0.0.1:" + java.net.URI.create(cluster.apiServerUrl()).getPort());
    assertThat(listeners.get(pids.get("kube-controller-manager")))
        .as("controller-manager listens nowhere")
        .isNull();
    assertThat(listeners.get(ProcessHandle.current().pid()))
        .as("this JVM (kubelet stand-in)")
        .contains("127.0.0.1:" + kubelet.port())
        .allMatch(a -> a.startsWith("127.0.0.1:"));
  }

  @Test
  @DisplayName(
      "a second environment: up is idempotent, status/env report it, the 2026-08 CRD serves v1beta1, down leaves no process")
  void lifecycleOfASecondEnvironment(@TempDir Path tmp) throws Exception {
    Path state = tmp.resolve("env2");
    Map<String, String> env = Map.of("BENCHPLAN_KUBE_DGD_CRD", "2026-08");
    List<Long> pids = List.of();
    try {
      Result up = script(state, env, "up");
      assertThat(up.exitCode()).as(up.out()).isZero();
      pids = List.copyOf(recordedPids(state).values());
      assertThat(pids).hasSize(3).allMatch(KubeTestEnvScriptIT::alive);

      Result again = script(state, env, "up");
      assertThat(again.exitCode()).as(again.out()).isZero();
      assertThat(again.out()).contains("already up");
      assertThat(recordedPids(state).values()).containsExactlyElementsOf(pids);

      Result status = script(state, env, "status");
      assertThat(status.exitCode()).isZero();
      assertThat(status.out())
          .contains("apiserver ready https://127.0.0.1:")
          .contains("dgd-crd 2026-08");
      Result printed = script(state, env, "env");
      assertThat(printed.out())
          .contains("export KUBECONFIG=" + state.resolve("kubeconfig"))
          .contains("export BENCHPLAN_KUBE_STATE=" + state)
          .contains("export BENCHPLAN_KUBE_AUDIT_LOG=" + state.resolve("log").resolve("audit.log"));
      // the API server audits every request (issue 19's comparison of calls with the call table)
      assertThat(Files.size(state.resolve("log").resolve("audit.log"))).isPositive();
      Map<Long, List<String>> listeners = listeners();
      for (long pid : pids) {
        assertThat(listeners.getOrDefault(pid, List.of()))
            .allMatch(a -> a.startsWith("127.0.0.1:"));
      }

      KubeTestCluster second = KubeTestCluster.attach(state);
      assertThat(second).isNotNull();
      try (KubernetesClient client = second.newAdminClient()) {
        CustomResourceDefinition crd =
            client
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("dynamographdeployments.nvidia.com")
                .get();
        assertThat(crd.getStatus().getConditions())
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
        assertThat(crd.getSpec().getVersions())
            .anyMatch(v -> "v1beta1".equals(v.getName()) && v.getStorage());
        ResourceDefinitionContext v1beta1 =
            new ResourceDefinitionContext.Builder()
                .withGroup("nvidia.com")
                .withVersion("v1beta1")
                .withKind("DynamoGraphDeployment")
                .withPlural("dynamographdeployments")
                .withNamespaced(true)
                .build();
        GenericKubernetesResource beta =
            client
                .getKubernetesSerialization()
                .unmarshal(
                    """
            apiVersion: nvidia.com/v1beta1
            kind: DynamoGraphDeployment
            metadata: {name: beta, namespace: default}
            spec:
              backendFramework: vllm
              components: [{name: Frontend, type: frontend, replicas: 1}]
            """,
                    GenericKubernetesResource.class);
        assertThat(
                client
                    .genericKubernetesResources(v1beta1)
                    .resource(beta)
                    .create()
                    .getMetadata()
                    .getUid())
            .isNotBlank();
        // v1alpha1 objects need the operator's conversion webhook, which does not exist here
        GenericKubernetesResource alpha =
            client
                .getKubernetesSerialization()
                .unmarshal(
                    """
            apiVersion: nvidia.com/v1alpha1
            kind: DynamoGraphDeployment
            metadata: {name: alpha, namespace: default}
            spec: {services: {Frontend: {componentType: frontend, replicas: 1}}}
            """,
                    GenericKubernetesResource.class);
        assertThatThrownBy(
                () ->
                    client
                        .genericKubernetesResources(FakeDynamoOperator.DGD)
                        .resource(alpha)
                        .create())
            .isInstanceOf(KubernetesClientException.class)
            // fabric8 wraps the API server's text in a URL (with the port) and a Status dump
            .hasMessageContaining("conversion webhook");
      }
    } finally {
      Result down = script(state, env, "down");
      assertThat(down.exitCode()).as(down.out()).isZero();
    }
    assertThat(pids).noneMatch(KubeTestEnvScriptIT::alive);
    assertThat(processesMentioning(state.toString())).isEmpty();
    Result status = script(state, env, "status");
    assertThat(status.exitCode()).isEqualTo(1);
    assertThat(status.out()).contains("kube-apiserver stopped");
    assertThat(script(state, env, "env").exitCode()).isNotZero();
  }
}
