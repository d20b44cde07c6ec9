package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * One executed pod ({@link PodExecution}): its volumes as local folders, one local process per
 * container (all started together), their output as the containers' logs. When every process has
 * ended, the first non-zero exit code (else 0) is reported once. Init containers are not executed.
 */
final class PodProcess implements AutoCloseable {
  /** Exit code when the stand-in cannot set the pod up (a real kubelet would keep it creating). */
  static final int SETUP_FAILED = 128;

  private final List<Process> processes = new ArrayList<>();
  private final List<StandInEndpoint> endpoints = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private PodProcess() {}

  /**
   * Starts {@code pod}'s containers; {@code logs} holds one log per container (the caller's);
   * {@code onExit} receives the pod's exit code on a thread of its own.
   */
  static PodProcess start(
      KubernetesClient client,
      Pod pod,
      PodExecution exec,
      Map<String, ContainerLog> logs,
      IntConsumer onExit) {
    PodProcess p = new PodProcess();
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    List<Thread> waiters = new ArrayList<>();
    int[] codes = new int[pod.getSpec().getContainers().size()];
    try {
      Map<String, Path> volumes = volumes(client, pod, exec);
      Path podDir = exec.workspace().resolve("pods").resolve(ns).resolve(name);
      String hosts =
          exec.engine() == null
              ? ""
              : ChrootContainer.hosts(
                  name,
                  ns,
                  client.services().inAnyNamespace().list().getItems(),
                  exec.serviceAddresses());
      Path bin = exec.engine() == null ? StandInAiperf.install(podDir.resolve(".standin")) : null;
      Path home = Files.createDirectories(podDir.resolve(".home"));
      int i = 0;
      for (Container c : pod.getSpec().getContainers()) {
        Process process;
        if (exec.engine() != null) {
          process =
              ChrootContainer.process(
                      exec.engine(),
                      podDir.resolve(".runtime"),
                      c.getName(),
                      chrootMounts(pod, c, volumes),
                      hosts,
                      realEngineEnv(env(client, ns, c), exec),
                      commandLine(c),
                      c.getWorkingDir())
                  .start();
        } else {
          process = standIn(c, mounts(c, volumes), client, ns, exec, p, bin, home);
        }
        p.processes.add(process);
        ContainerLog log = logs.get(c.getName());
        int index = i++;
        Thread waiter =
            new Thread(
                () -> {
                  pump(process.getInputStream(), log, exec.logCutAtBytes());
                  try {
                    codes[index] = process.waitFor();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    codes[index] = 137;
                  }
                },
                "pod-process-" + name + "-" + c.getName());
        waiter.setDaemon(true);
        waiters.add(waiter);
      }
    } catch (IOException | RuntimeException e) {
      p.close();
      String why = "kubelet stand-in: cannot execute pod " + ns + "/" + name + ": " + e + "\n";
      logs.values().forEach(l -> l.append(why));
      Thread t = new Thread(() -> onExit.accept(SETUP_FAILED), "pod-process-" + name + "-setup");
      t.setDaemon(true);
      t.start();
      return p;
    }
    waiters.forEach(Thread::start);
    Thread all =
        new Thread(
            () -> {
              for (Thread w : waiters) {
                try {
                  w.join();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
              }
              p.endpoints.forEach(StandInEndpoint::close);
              if (!p.closed.get()) {
                int code = 0;
                for (int c : codes) {
                  if (code == 0) {
                    code = c;
                  }
                }
                onExit.accept(code);
              }
            },
            "pod-process-" + name);
    all.setDaemon(true);
    all.start();
    return p;
  }

  /**
   * A container with the stand-ins: run on this machine, its mount paths rewritten to local
   * folders, the stand-in aiperf first on PATH and, for the AIPerf Job, a local endpoint.
   */
  private static Process standIn(
      Container c,
      Map<String, Path> mounts,
      KubernetesClient client,
      String ns,
      PodExecution exec,
      PodProcess p,
      Path bin,
      Path home)
      throws IOException {
    Map<String, String> rewrites = new LinkedHashMap<>();
    mounts.forEach((mountPath, local) -> rewrites.put(mountPath, local.toString()));
    Map<String, String> env = env(client, ns, c);
    if (exec.endpoint()
        && env.containsKey("BENCHPLAN_ENDPOINT")
        && env.containsKey("BENCHPLAN_MODEL")) {
      StandInEndpoint endpoint =
          StandInEndpoint.serve(env.get("BENCHPLAN_MODEL"), exec.firstCompletion());
      p.endpoints.add(endpoint);
      rewrites.put(env.get("BENCHPLAN_ENDPOINT"), endpoint.url());
    }
    List<String> command = new ArrayList<>();
    if (c.getCommand() != null) {
      c.getCommand().forEach(w -> command.add(rewrite(w, rewrites)));
    }
    if (c.getArgs() != null) {
      c.getArgs().forEach(w -> command.add(rewrite(w, rewrites)));
    }
    if (command.isEmpty()) {
      throw new IllegalStateException(
          "container " + c.getName() + " has no command: the stand-in runs no image entrypoints");
    }
    ProcessBuilder pb =
        new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
    Map<String, String> penv = pb.environment();
    penv.clear();
    penv.put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    penv.put("HOME", home.toString());
    penv.put("LANG", "C.UTF-8");
    env.forEach((k, v) -> penv.put(k, rewrite(v, rewrites)));
    if (env.containsKey("PATH")) {
      penv.put("PATH", bin + ":" + rewrite(env.get("PATH"), rewrites));
    }
    penv.putAll(exec.env());
    penv.put(StandInAiperf.DATA_ENV, exec.aiperfData().toString());
    StringBuilder map = new StringBuilder();
    mounts.forEach(
        (mountPath, local) -> map.append(mountPath).append('=').append(local).append('\n'));
    penv.put(StandInAiperf.PATH_MAP_ENV, map.toString());
    return pb.start();
  }

  /** The container's command and args as the pod spec has them. */
  private static List<String> commandLine(Container c) {
    List<String> command = new ArrayList<>();
    if (c.getCommand() != null) {
      command.addAll(c.getCommand());
    }
    if (c.getArgs() != null) {
      command.addAll(c.getArgs());
    }
    if (command.isEmpty()) {
      throw new IllegalStateException(
          "container " + c.getName() + " has no command: the stand-in runs no image entrypoints");
    }
    return command;
  }

  /**
   * The container's mounts for {@link ChrootContainer}: ConfigMaps and readOnly mounts read-only.
   */
  private static List<ChrootContainer.Mount> chrootMounts(
      Pod pod, Container c, Map<String, Path> volumes) throws IOException {
    Map<String, Volume> byName = new LinkedHashMap<>();
    if (pod.getSpec().getVolumes() != null) {
      pod.getSpec().getVolumes().forEach(v -> byName.put(v.getName(), v));
    }
    List<ChrootContainer.Mount> out = new ArrayList<>();
    if (c.getVolumeMounts() == null) {
      return out;
    }
    for (VolumeMount m : c.getVolumeMounts()) {
      Path dir = volumes.get(m.getName());
      if (dir == null) {
        throw new IllegalStateException(
            "volume mount " + m.getName() + " names no volume of the pod");
      }
      if (m.getSubPath() != null && !m.getSubPath().isEmpty()) {
        dir = Files.createDirectories(dir.resolve(m.getSubPath()));
      }
      Volume v = byName.get(m.getName());
      boolean readOnly =
          Boolean.TRUE.equals(m.getReadOnly()) || (v != null && v.getConfigMap() != null);
      out.add(new ChrootContainer.Mount(dir, m.getMountPath(), readOnly));
    }
    return out;
  }

  /**
   * Copies the process output into {@code log} line by line, at most {@code cutAt} bytes (-1: all).
   */
  private static void pump(InputStream in, ContainerLog log, long cutAt) {
    long served = 0;
    boolean cut = false;
    StringBuilder line = new StringBuilder();
    char[] buf = new char[1 << 16];
    try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      int n;
      while ((n = r.read(buf)) >= 0) {
        if (cut) {
          continue; // drain: the process must not block on a full pipe
        }
        for (int k = 0; k < n; k++) {
          line.append(buf[k]);
          if (buf[k] == '\n') {
            String text = line.toString();
            line.setLength(0);
            long size = text.getBytes(StandardCharsets.UTF_8).length;
            if (cutAt >= 0 && served + size > cutAt) {
              log.append(text.substring(0, (int) Math.max(0, cutAt - served)));
              cut = true;
              break;
            }
            served += size;
            log.append(text);
          }
        }
      }
      if (!cut && line.length() > 0) {
        String text = line.toString();
        long size = text.getBytes(StandardCharsets.UTF_8).length;
        log.append(
            cutAt >= 0 && served + size > cutAt
                ? text.substring(0, (int) Math.max(0, cutAt - served))
                : text);
      }
    } catch (IOException e) {
      // the process was killed: the log ends here
    }
  }

  private static String rewrite(String value, Map<String, String> rewrites) {
    if (value == null) {
      return null;
    }
    String best = null;
    for (String from : rewrites.keySet()) {
      String prefix = from.endsWith("/") ? from.substring(0, from.length() - 1) : from;
      boolean under =
          value.equals(prefix)
              || value.startsWith(prefix + "/")
              || (!prefix.startsWith("/") && value.startsWith(prefix));
      if (under && (best == null || prefix.length() > best.length())) {
        best = from;
      }
    }
    if (best == null) {
      return value;
    }
    String prefix = best.endsWith("/") ? best.substring(0, best.length() - 1) : best;
    return rewrites.get(best) + value.substring(prefix.length());
  }

  private static Map<String, Path> volumes(KubernetesClient client, Pod pod, PodExecution exec)
      throws IOException {
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    Map<String, Path> out = new LinkedHashMap<>();
    if (pod.getSpec().getVolumes() == null) {
      return out;
    }
    for (Volume v : pod.getSpec().getVolumes()) {
      Path dir;
      if (v.getPersistentVolumeClaim() != null) {
        dir = exec.claimDir(ns, v.getPersistentVolumeClaim().getClaimName());
      } else {
        dir = exec.podVolumeDir(ns, name, v.getName());
      }
      Files.createDirectories(dir);
      if (v.getConfigMap() != null) {
        ConfigMap cm =
            client.configMaps().inNamespace(ns).withName(v.getConfigMap().getName()).get();
        if (cm == null) {
          if (Boolean.TRUE.equals(v.getConfigMap().getOptional())) {
            out.put(v.getName(), dir);
            continue;
          }
          throw new IllegalStateException(
              "configmap \"" + v.getConfigMap().getName() + "\" not found");
        }
        if (cm.getData() != null) {
          for (Map.Entry<String, String> e : cm.getData().entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
          }
        }
        if (cm.getBinaryData() != null) {
          for (Map.Entry<String, String> e : cm.getBinaryData().entrySet()) {
            Files.write(dir.resolve(e.getKey()), Base64.getDecoder().decode(e.getValue()));
          }
        }
      }
      out.put(v.getName(), dir);
    }
    return out;
  }

  /** mountPath -> local folder, longest mount path first. */
  private static Map<String, Path> mounts(Container c, Map<String, Path> volumes)
      throws IOException {
    List<VolumeMount> list =
        c.getVolumeMounts() == null ? List.of() : new ArrayList<>(c.getVolumeMounts());
    list.sort(Comparator.comparingInt((VolumeMount m) -> m.getMountPath().length()).reversed());
    Map<String, Path> out = new LinkedHashMap<>();
    for (VolumeMount m : list) {
      Path dir = volumes.get(m.getName());
      if (dir == null) {
        throw new IllegalStateException(
            "volume mount " + m.getName() + " names no volume of the pod");
      }
      if (m.getSubPath() != null && !m.getSubPath().isEmpty()) {
        dir = Files.createDirectories(dir.resolve(m.getSubPath()));
      }
      out.put(m.getMountPath(), dir);
    }
    return out;
  }

  /**
   * A real-engine container's environment: its own, then the test's {@link PodExecution#env} over
   * it (as the stand-in path applies it), so a test can lower what the tier's small runs cannot
   * reach (the Job's log-channel bound).
   */
  private static Map<String, String> realEngineEnv(Map<String, String> own, PodExecution exec) {
    Map<String, String> env = new LinkedHashMap<>(own);
    env.putAll(exec.env());
    return env;
  }

  private static Map<String, String> env(KubernetesClient client, String ns, Container c) {
    Map<String, String> env = new LinkedHashMap<>();
    if (c.getEnv() == null) {
      return env;
    }
    for (EnvVar e : c.getEnv()) {
      if (e.getValueFrom() == null) {
        env.put(e.getName(), e.getValue() == null ? "" : e.getValue());
        continue;
      }
      SecretKeySelector ref = e.getValueFrom().getSecretKeyRef();
      if (ref == null) {
        continue; // fieldRef and friends: not emulated
      }
      Secret s = client.secrets().inNamespace(ns).withName(ref.getName()).get();
      String encoded = s == null || s.getData() == null ? null : s.getData().get(ref.getKey());
      if (encoded != null) {
        env.put(
            e.getName(), new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
      } else if (!Boolean.TRUE.equals(ref.getOptional())) {
        throw new IllegalStateException(
            "secret " + ref.getName() + " key " + ref.getKey() + " not found");
      }
    }
    return env;
  }

  /** Kills every process (and its children) and stops the endpoints; no exit is reported after. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (Process p : processes) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    endpoints.forEach(StandInEndpoint::close);
  }
}
