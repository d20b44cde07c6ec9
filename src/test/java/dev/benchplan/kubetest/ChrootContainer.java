package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.Service;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The kubelet stand-in's container runtime for the real-engine tier ({@link
 * PodExecution#realEngine}): a container's command and args run unchanged inside the AIPerf chroot
 * ({@link RealEngine}), in a private mount namespace where the pod's volumes are mounted at the
 * container's own mount paths and {@code /etc/hosts} names every Service, as cluster DNS would (all
 * pods of the stand-in node share the host's loopback, so a Service resolves to 127.0.0.1 and its
 * port is the port a local server listens on; or to a loopback address of its own where a test's
 * {@link ServiceProxy} forwards the Service's port, {@link PodExecution#withServiceAddress}).
 * Nothing is rewritten: the container sees the paths, URLs and files its pod spec names. The mounts
 * live in the namespace and vanish with the container's last process ({@code chroot-container.sh}).
 */
final class ChrootContainer {
  /** The pod's network has no route to the Hugging Face hub: fail fast instead of waiting. */
  static final String NO_HUB = "http://127.0.0.1:9";

  /**
   * The niceness a pod's containers run at (below the machine's default 0: a higher CPU weight).
   */
  static final int POD_NICE = -5;

  private static final String DEFAULT_PATH =
      "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  /**
   * One volume mount.
   *
   * @param local the local folder backing the volume (subPath applied)
   * @param mountPath where the container sees it
   * @param readOnly mounted read-only (ConfigMaps, readOnly mounts)
   */
  record Mount(Path local, String mountPath, boolean readOnly) {
    Mount {
      Objects.requireNonNull(local, "local");
      if (!mountPath.startsWith("/") || mountPath.contains("\t") || mountPath.contains("\n")) {
        throw new IllegalArgumentException("not a mount path: " + mountPath);
      }
    }
  }

  private ChrootContainer() {}

  /**
   * The process for one container: {@code unshare} + {@code chroot-container.sh} + the container's
   * command; its files ({@code <name>.mounts}, {@code hosts}) are written under {@code runtimeDir}.
   */
  static ProcessBuilder process(
      RealEngine engine,
      Path runtimeDir,
      String container,
      List<Mount> mounts,
      String hosts,
      Map<String, String> env,
      List<String> command,
      String workingDir)
      throws IOException {
    Files.createDirectories(runtimeDir);
    Path script = runtimeDir.resolve("chroot-container.sh");
    try (InputStream in = ChrootContainer.class.getResourceAsStream("chroot-container.sh")) {
      Files.copy(
          Objects.requireNonNull(in, "chroot-container.sh resource"),
          script,
          StandardCopyOption.REPLACE_EXISTING);
    }
    // outer mounts first, so a mount below another lands on top of it
    List<Mount> ordered = new ArrayList<>(mounts);
    ordered.sort(Comparator.comparingInt((Mount m) -> m.mountPath().length()));
    StringBuilder lines = new StringBuilder();
    for (Mount m : ordered) {
      lines
          .append(m.local().toAbsolutePath())
          .append('\t')
          .append(m.mountPath())
          .append('\t')
          .append(m.readOnly() ? "ro" : "rw")
          .append('\n');
    }
    Path mountsFile = runtimeDir.resolve(container + ".mounts");
    Files.writeString(mountsFile, lines, StandardCharsets.UTF_8);
    Path hostsFile = runtimeDir.resolve("hosts");
    Files.writeString(hostsFile, hosts, StandardCharsets.UTF_8);

    List<String> argv = new ArrayList<>();
    // the pod's CPU request honoured over the machine's other work, as a real kubelet's cgroup CPU
    // weight does: on a shared 2-core machine the load generator otherwise starves (client bound)
    argv.addAll(List.of("nice", "-n", String.valueOf(POD_NICE)));
    argv.addAll(List.of("unshare", "--mount", "--propagation", "private", "bash"));
    argv.add(script.toString());
    argv.add(engine.chroot().toString());
    argv.add(mountsFile.toString());
    argv.add(hostsFile.toString());
    argv.add(workingDir == null || workingDir.isEmpty() ? "/" : workingDir);
    argv.add("--");
    argv.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    Map<String, String> penv = pb.environment();
    penv.clear();
    penv.put("HOME", "/root");
    penv.put("HF_ENDPOINT", NO_HUB);
    // AIPerf's ~10 service processes import pandas, pyarrow and transformers at start: on a loaded
    // shared machine that outlasts its 30 s registration and start bounds (the run then fails
    // before a request); the pod's own env still wins
    penv.put("AIPERF_SERVICE_REGISTRATION_TIMEOUT", "300");
    penv.put("AIPERF_SERVICE_START_TIMEOUT", "300");
    // the tier's frontend (llama-server 0.7) closes the connection after every streamed response
    // while its headers say "Keep-Alive: timeout=5, max=100": a pooled connection reused before
    // the close reaches AIPerf fails its request (ServerDisconnectedError, 1-3 in 100). A Dynamo
    // frontend keeps its connections; here AIPerf closes each one itself, as the server does
    // (aiohttp refuses a keep-alive timeout with force_close: 0 is AIPerf's "none")
    penv.put("AIPERF_HTTP_FORCE_CLOSE", "true");
    penv.put("AIPERF_HTTP_KEEPALIVE_TIMEOUT", "0");
    penv.putAll(env);
    penv.put("KUBELET_CONTAINER_PATH", env.getOrDefault("PATH", DEFAULT_PATH));
    // the runtime script's own PATH (host tools: mount, chroot)
    penv.put("PATH", DEFAULT_PATH);
    return pb;
  }

  /**
   * The pod's {@code /etc/hosts}: localhost, the pod's name, and every Service under the names
   * cluster DNS answers for it ({@code <svc>.<ns>.svc.cluster.local}, {@code <svc>.<ns>.svc},
   * {@code <svc>.<ns>}, and {@code <svc>} in the pod's own namespace), on 127.0.0.1 or the address
   * {@code addresses} gives the Service's name (a {@link ServiceProxy} there).
   */
  static String hosts(
      String podName, String podNamespace, List<Service> services, Map<String, String> addresses) {
    StringBuilder sb = new StringBuilder();
    sb.append("127.0.0.1\tlocalhost ").append(podName).append('\n');
    sb.append("::1\tlocalhost ip6-localhost ip6-loopback\n");
    TreeSet<String> lines = new TreeSet<>();
    for (Service s : services) {
      String name = s.getMetadata().getName();
      String ns = s.getMetadata().getNamespace();
      String line =
          addresses.getOrDefault(name, "127.0.0.1")
              + "\t"
              + name
              + "."
              + ns
              + ".svc.cluster.local "
              + name
              + "."
              + ns
              + ".svc "
              + name
              + "."
              + ns
              + (ns.equals(podNamespace) ? " " + name : "");
      lines.add(line);
    }
    lines.forEach(l -> sb.append(l).append('\n'));
    return sb.toString();
  }
}
