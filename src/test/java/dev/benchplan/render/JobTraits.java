package dev.benchplan.render;

import dev.benchplan.render.manifest.YamlDocuments;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * What a benchmark manifest (Dynamo's recipe perf.yaml or ours) does, read from the file itself:
 * the container's command text, and any AIPerf config carried in a ConfigMap of the same file. The
 * same analysis runs on both, so the comparison is like for like.
 */
record JobTraits(
    String kind,
    boolean waitsForModel,
    boolean unboundedSleep,
    boolean streaming,
    boolean seed,
    boolean warmup,
    boolean artifactDir,
    boolean runtimeDownload,
    boolean imagePinned,
    boolean privileged,
    boolean hostPath,
    Integer backoffLimit,
    Long activeDeadlineSeconds) {

  private static final Pattern SHELL_LOOP =
      Pattern.compile("\\b(while|until)\\s+(.*?)\\s*;\\s*do\\b(.*?)\\bdone\\b", Pattern.DOTALL);
  private static final Pattern BOUND_WORDS =
      Pattern.compile("(?i)deadline|timeout|attempt|tries|retries|\\$SECONDS|elapsed");
  private static final Pattern SLEEP = Pattern.compile("\\bsleep\\s+(\\d+)");
  private static final Pattern DOWNLOAD =
      Pattern.compile(
          "\\bpip3?\\s+install\\b|\\bapt(-get)?\\s+(update|install)\\b|\\bwget\\b|git\\+https?://"
              + "|https?://raw\\.githubusercontent");
  private static final Pattern EXACT_TAG = Pattern.compile(".*:\\d+\\.\\d+\\.\\d+([.-]?\\w+)?$");

  /** The bare Pod fault. */
  boolean barePod() {
    return kind.equals("Pod");
  }

  /** A wait for the model that ends on its own. */
  boolean boundedWait() {
    return waitsForModel && !unboundedSleep;
  }

  static JobTraits of(Path file) {
    try {
      return of(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JobTraits of(String yaml) {
    List<JsonNode> docs = YamlDocuments.read(yaml);
    JsonNode workload = null;
    List<JsonNode> configs = new ArrayList<>();
    StringBuilder program = new StringBuilder(); // the Job program, mounted from the ConfigMap
    for (JsonNode d : docs) {
      String kind = d.path("kind").asString();
      if (kind.equals("Job") || kind.equals("Pod")) {
        workload = d;
      } else if (kind.equals("ConfigMap")) {
        d.path("data")
            .properties()
            .forEach(
                e -> {
                  if (e.getKey().endsWith(".py")) {
                    program.append(e.getValue().asString()).append('\n');
                  }
                });
        for (JsonNode v : d.path("data")) {
          try {
            configs.addAll(YamlDocuments.read(v.asString()));
          } catch (RuntimeException notYaml) {
            // trace data and other text: not an AIPerf config
          }
        }
      }
    }
    if (workload == null) {
      throw new IllegalArgumentException("no Job or Pod in the manifest");
    }
    String kind = workload.path("kind").asString();
    JsonNode pod = kind.equals("Job") ? workload.at("/spec/template/spec") : workload.path("spec");
    JsonNode c = pod.path("containers").get(0);
    StringBuilder text = new StringBuilder();
    c.path("command").forEach(x -> text.append(x.asString()).append('\n'));
    c.path("args").forEach(x -> text.append(x.asString()).append('\n'));
    String script = text.toString();

    JsonNode aiperf = null;
    for (JsonNode cfg : configs) {
      JsonNode body = cfg.has("settings") ? cfg.get("settings") : cfg;
      if (body.has("benchmark")) {
        aiperf = body;
      }
    }
    boolean streaming =
        script.contains("--streaming")
            || (aiperf != null && aiperf.at("/benchmark/endpoint/streaming").asBoolean());
    boolean seed = script.contains("--random-seed") || (aiperf != null && aiperf.has("randomSeed"));
    boolean warmup =
        script.contains("--warmup-request-count")
            || (aiperf != null && hasWarmupPhase(aiperf))
            || (count(script, "aiperf profile") >= 2 && script.toLowerCase().contains("warmup"));
    boolean artifactDir =
        script.contains("--artifact-dir")
            || (aiperf != null && aiperf.at("/benchmark/artifacts/dir").isString());
    String image = c.path("image").asString();
    boolean pinned = image.contains("@sha256:") || EXACT_TAG.matcher(image).matches();
    boolean hostPath = pod.toString().contains("\"hostPath\"");
    JsonNode spec = workload.path("spec");
    return new JobTraits(
        kind,
        script.contains("/v1/models") || program.toString().contains("/v1/models"),
        unboundedSleep(script),
        streaming,
        seed,
        warmup,
        artifactDir,
        DOWNLOAD.matcher(script).find(),
        pinned,
        c.at("/securityContext/privileged").asBoolean(false),
        hostPath,
        kind.equals("Job") && spec.has("backoffLimit") ? spec.get("backoffLimit").asInt() : null,
        kind.equals("Job") && spec.has("activeDeadlineSeconds")
            ? spec.get("activeDeadlineSeconds").asLong()
            : null);
  }

  private static boolean hasWarmupPhase(JsonNode aiperf) {
    for (JsonNode p : aiperf.at("/benchmark/phases")) {
      if (p.path("excludeFromResults").asBoolean()) {
        return true;
      }
    }
    return false;
  }

  /**
   * A shell loop that sleeps without a deadline in its condition, a sleep of ten minutes or more,
   * or a Python loop that sleeps with no deadline check.
   */
  static boolean unboundedSleep(String script) {
    Matcher loop = SHELL_LOOP.matcher(script);
    while (loop.find()) {
      if (SLEEP.matcher(loop.group(3)).find() && !BOUND_WORDS.matcher(loop.group(2)).find()) {
        return true;
      }
    }
    Matcher sleep = SLEEP.matcher(script);
    while (sleep.find()) {
      if (Long.parseLong(sleep.group(1)) >= 600) {
        return true;
      }
    }
    return script.contains("time.sleep") && !script.contains(">= deadline");
  }

  private static int count(String s, String needle) {
    int n = 0;
    for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }
}
