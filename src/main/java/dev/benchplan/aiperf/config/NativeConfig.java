package dev.benchplan.aiperf.config;

import dev.benchplan.json.Json;
import java.math.BigDecimal;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders {@link AiperfSettings} as AIPerf's native YAML config ({@code schemaVersion: "2.0"}, read
 * by {@code aiperf profile --config FILE} from AIPerf 0.11.0), as a Jackson tree in the camelCase
 * form of AIPerf's own JSON Schema and templates. Only keys the schema defines are written: AIPerf
 * rejects unknown keys.
 */
public final class NativeConfig {
  /**
   * AIPerf 0.11 spawns one record processor per this many workers
   * (AIPERF_RECORD_PROCESSOR_SCALE_FACTOR).
   */
  private static final int RECORDS_PER_PROCESSOR = 4;

  /** The native config schema version this renderer writes. */
  public static final String SCHEMA_VERSION = "2.0";

  private NativeConfig() {}

  /** The config document. */
  public static ObjectNode render(AiperfSettings s) {
    ObjectNode root = Json.JSON.createObjectNode();
    root.put("schemaVersion", SCHEMA_VERSION);
    root.put("randomSeed", s.randomSeed());
    ObjectNode benchmark = root.putObject("benchmark");
    benchmark.put("model", s.model());

    ObjectNode endpoint = benchmark.putObject("endpoint");
    endpoint.put("url", s.endpoint().url());
    endpoint.put("type", s.endpoint().type().name());
    endpoint.put("path", s.endpoint().path());
    endpoint.put("streaming", s.endpoint().streaming());
    endpoint.put("timeout", s.endpoint().timeoutSeconds());
    if (s.ignoreEos() || s.temperature() != null) {
      ObjectNode extra = endpoint.putObject("extra");
      if (s.ignoreEos()) {
        // honour the requested output length (sent as max_completion_tokens) instead of stopping at
        // EOS
        extra.put("ignore_eos", true);
      }
      if (s.temperature() != null) {
        extra.put("temperature", s.temperature());
      }
    }

    benchmark.putObject("tokenizer").put("name", s.tokenizer());
    benchmark.set("dataset", dataset(s.dataset()));

    ArrayNode phases = benchmark.putArray("phases");
    if (s.warmup() != null) {
      phases.add(phase("warmup", s.warmup()));
    }
    phases.add(phase("profiling", s.profiling()));

    if (!s.slos().isEmpty()) {
      ObjectNode slos = benchmark.putObject("slos");
      for (Map.Entry<String, BigDecimal> e : s.slos().entrySet()) {
        slos.put(e.getKey(), e.getValue());
      }
    }

    ObjectNode artifacts = benchmark.putObject("artifacts");
    artifacts.put("dir", s.artifactDir());
    artifacts.putArray("summary").add("json");
    artifacts.putArray("records").add("jsonl");

    // no TTY in a pod: progress goes to the log, not a dashboard
    ObjectNode runtime = benchmark.putObject("runtime").put("ui", "none");
    if (s.workers() != null) {
      // sized to the load by the plan: never AIPerf's CPU-count guess (load-generator.md)
      runtime.put("workers", s.workers());
      // AIPerf's own count (one per 4 workers), pinned so it waits for them before configuring:
      // left
      // to the workers, a record processor that subscribes after the dataset is configured drops
      // every record and the run hangs (AIPerf 0.11 on a loaded node; RealEngineIT)
      runtime.put("recordProcessors", Math.max(1, s.workers() / RECORDS_PER_PROCESSOR));
    }
    return root;
  }

  private static ObjectNode dataset(Dataset d) {
    ObjectNode node = Json.JSON.createObjectNode();
    if (d instanceof Dataset.Synthetic syn) {
      node.put("type", "synthetic");
      node.put("entries", syn.entries());
      ObjectNode prompts = node.putObject("prompts");
      prompts.putObject("isl").put("mean", syn.islMean()).put("stddev", syn.islStddev());
      prompts.putObject("osl").put("mean", syn.oslMean()).put("stddev", syn.oslStddev());
    } else if (d instanceof Dataset.MooncakeTrace trace) {
      node.put("type", "file");
      node.put("path", trace.path());
      node.put("format", "mooncake_trace");
      node.put("sampling", "sequential");
    }
    return node;
  }

  private static ObjectNode phase(String name, Phase p) {
    ObjectNode node = Json.JSON.createObjectNode();
    node.put("name", name);
    node.put("type", p.type().configName());
    if ("warmup".equals(name)) {
      node.put("excludeFromResults", true);
    }
    if (p.concurrency() != null) {
      node.put("concurrency", p.concurrency());
    }
    if (p.rate() != null) {
      node.put("rate", p.rate());
    }
    if (p.requests() != null) {
      node.put("requests", p.requests());
    }
    if (p.durationSeconds() != null) {
      node.put("duration", p.durationSeconds());
    }
    if (p.gracePeriodSeconds() != null) {
      node.put("gracePeriod", p.gracePeriodSeconds());
    }
    if (p.type() == PhaseType.FIXED_SCHEDULE) {
      if (p.window() == null) {
        node.put("autoOffset", true);
      } else {
        // an explicit window replays trace time [start, end]; AIPerf forbids it with autoOffset
        node.put("autoOffset", false);
        node.put("startOffset", p.window().startMs());
        node.put("endOffset", p.window().endMs());
      }
    }
    return node;
  }
}
