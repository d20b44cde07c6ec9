package dev.benchplan.render.manifest;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything the perf.yaml objects are built from, as plain values.
 *
 * @param jobName the Job's name (DNS-1123 label); ConfigMaps derive their names from it
 * @param namespace where every object goes
 * @param labels the labels every object (and the pod) carries
 * @param jobAnnotations the Job's annotations
 * @param configYaml the exact text of aiperf-config.yaml, mounted at {@code configMountPath}
 * @param configSha256 its SHA-256, annotated on the ConfigMap
 * @param trace where the trace comes from, or null for synthetic workloads
 * @param traceSha256 the plan's trace SHA-256 (checked in the pod), or null
 * @param artifactClaim the PVC for artifacts, or null for an emptyDir
 * @param artifactSubPath the folder inside the artifact claim, or null
 * @param image the pinned AIPerf image
 * @param profileArgs the arguments after {@code aiperf profile}
 * @param endpointUrl the in-cluster base URL whose {@code /v1/models} is awaited
 * @param model the served model name awaited there
 * @param artifactDir the run's artifact folder in the pod
 * @param hfTokenSecret the Secret holding {@code HF_TOKEN} (by name only), or null
 * @param dgdName the DynamoGraphDeployment whose pods the client avoids
 * @param dgdNamespace the DGD's namespace
 * @param activeDeadlineSeconds the Job's backstop deadline
 * @param runConfigs the folder of each load point -> its AIPerf config text, in run order, when the
 *     Job measures several one after another (one ConfigMap key each), else empty
 * @param artifactLogMaxBytes the largest artifact tree shipped through the pod log
 * @param resources the AIPerf container's requests and memory limit
 */
public record JobInputs(
    String jobName,
    String namespace,
    Map<String, String> labels,
    Map<String, String> jobAnnotations,
    String configYaml,
    String configSha256,
    @Nullable TraceVolume trace,
    @Nullable String traceSha256,
    @Nullable String artifactClaim,
    @Nullable String artifactSubPath,
    String image,
    List<String> profileArgs,
    String endpointUrl,
    String model,
    String artifactDir,
    @Nullable String hfTokenSecret,
    String dgdName,
    String dgdNamespace,
    long activeDeadlineSeconds,
    Map<String, String> runConfigs,
    long artifactLogMaxBytes,
    JobResources resources) {
  public JobInputs {
    Objects.requireNonNull(resources, "resources");
    Objects.requireNonNull(jobName, "jobName");
    Objects.requireNonNull(namespace, "namespace");
    labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    jobAnnotations = Collections.unmodifiableMap(new LinkedHashMap<>(jobAnnotations));
    Objects.requireNonNull(configYaml, "configYaml");
    Objects.requireNonNull(image, "image");
    profileArgs = List.copyOf(profileArgs);
    runConfigs = Collections.unmodifiableMap(new LinkedHashMap<>(runConfigs));
    for (String d : runConfigs.keySet()) {
      // the folder names a ConfigMap key and a path segment
      if (!d.matches("[-_.a-zA-Z0-9]+") || d.startsWith(".")) {
        throw new IllegalArgumentException(
            "a run folder is one path segment of [-_.a-zA-Z0-9]: " + d);
      }
    }
    if ((trace == null) != (traceSha256 == null)) {
      throw new IllegalArgumentException("a trace needs its SHA-256, and only a trace has one");
    }
    if (artifactClaim == null && artifactSubPath != null) {
      throw new IllegalArgumentException("an artifact subPath needs a claim");
    }
    if (activeDeadlineSeconds < 1) {
      throw new IllegalArgumentException("activeDeadlineSeconds must be >= 1");
    }
  }

  /** The folder of each load point, in run order (empty: one AIPerf run). */
  public List<String> runDirs() {
    return List.copyOf(runConfigs.keySet());
  }

  /** The name of the ConfigMap holding aiperf-config.yaml. */
  public String configMapName() {
    return jobName + "-config";
  }

  /** The name of the ConfigMap holding the trace (when the trace travels in one). */
  public String traceConfigMapName() {
    return jobName + "-trace";
  }
}
