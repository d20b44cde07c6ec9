package dev.benchplan.aiperf.export;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * What AIPerf says it ran: the summary's {@code input_config}, read from every layout AIPerf has
 * written. Up to 0.8 it is the CLI's config ({@code loadgen}, {@code input.prompt}, {@code
 * endpoint.model_names}); from 0.9 it is the native YAML config's {@code benchmark} section ({@code
 * phases[]}, {@code datasets[]}, {@code models.items[]}). A value the file does not record is null;
 * nothing is guessed.
 *
 * @param layout which layout the values were read from
 * @param concurrency the measured phase's concurrency, or null
 * @param requestRate the measured phase's request rate (requests per second), or null
 * @param load the measured phase's load point (the rate when one is set, else the concurrency), or
 *     null
 * @param requestCount the measured phase's request count, or null
 * @param warmupRequestCount the warmup's request count, or null
 * @param islMean the synthetic workload's mean input length in tokens, or null
 * @param oslMean the synthetic workload's mean output length in tokens, or null
 * @param islStddev the synthetic workload's input length standard deviation, or null
 * @param oslStddev the synthetic workload's output length standard deviation, or null
 * @param datasetFile the input file (a trace) the workload was read from, or null
 * @param model the (first) model name, or null
 * @param endpointType the endpoint type ({@code chat}, {@code completions}, ...), or null
 * @param streaming whether responses were streamed, or null
 * @param randomSeed the random seed, or null
 * @param tokenizer the tokenizer name or path, or null
 */
public record AiperfInputConfig(
    Layout layout,
    @Nullable Integer concurrency,
    @Nullable Double requestRate,
    @Nullable Load load,
    @Nullable Long requestCount,
    @Nullable Long warmupRequestCount,
    @Nullable Double islMean,
    @Nullable Double oslMean,
    @Nullable Double islStddev,
    @Nullable Double oslStddev,
    @Nullable String datasetFile,
    @Nullable String model,
    @Nullable String endpointType,
    @Nullable Boolean streaming,
    @Nullable Long randomSeed,
    @Nullable String tokenizer) {

  /** Which input_config layout. */
  public enum Layout {
    /** AIPerf up to 0.8: {@code loadgen}, {@code input.prompt}, {@code endpoint.model_names}. */
    LOADGEN,
    /** AIPerf 0.9 and later: {@code phases[]}, {@code datasets[]}, {@code models.items[]}. */
    PHASES,
    /** No input_config, or none of the known sections. */
    NONE
  }

  /** How the load was driven. */
  public enum LoadKind {
    /** A closed loop: this many requests in flight. */
    CONCURRENCY("concurrency"),
    /** An open loop: this many requests per second. */
    REQUEST_RATE("request_rate");

    private final String label;

    LoadKind(String label) {
      this.label = label;
    }
  }

  /**
   * A load point.
   *
   * @param kind concurrency or request rate
   * @param value the number as AIPerf wrote it
   * @param source where it was read, e.g. {@code input_config /phases/1/concurrency}
   */
  public record Load(LoadKind kind, String value, String source) {
    public Load {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(source, "source");
    }

    /** The load point as benchplan labels it: {@code concurrency=4}, {@code request_rate=2.5}. */
    public String label() {
      return kind.label + "=" + value;
    }
  }

  private static final String ROOT = "input_config ";

  public AiperfInputConfig {
    Objects.requireNonNull(layout, "layout");
  }

  /** Reads {@code inputConfig} (the summary's {@code /input_config}, or null). */
  public static AiperfInputConfig read(@Nullable JsonNode inputConfig) {
    if (inputConfig == null || !inputConfig.isObject()) {
      return none();
    }
    if (inputConfig.path("phases").isArray()) {
      return phases(inputConfig);
    }
    if (inputConfig.path("loadgen").isObject() || inputConfig.path("input").isObject()) {
      return loadgen(inputConfig);
    }
    return none();
  }

  /** Nothing recorded. */
  public static AiperfInputConfig none() {
    return new AiperfInputConfig(
        Layout.NONE,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  private static AiperfInputConfig loadgen(JsonNode ic) {
    JsonNode lg = ic.path("loadgen");
    JsonNode prompt = ic.path("input").path("prompt");
    Load load = load(lg, "request_rate", "concurrency", ROOT + "/loadgen/");
    return new AiperfInputConfig(
        Layout.LOADGEN,
        integer(lg.path("concurrency")),
        decimal(lg.path("request_rate")),
        load,
        count(lg.path("request_count")),
        count(lg.path("warmup_request_count")),
        decimal(prompt.path("input_tokens").path("mean")),
        decimal(prompt.path("output_tokens").path("mean")),
        decimal(prompt.path("input_tokens").path("stddev")),
        decimal(prompt.path("output_tokens").path("stddev")),
        text(ic.path("input").path("file")),
        text(ic.path("endpoint").path("model_names").path(0)),
        text(ic.path("endpoint").path("type")),
        bool(ic.path("endpoint").path("streaming")),
        count(ic.path("input").path("random_seed")),
        text(ic.path("tokenizer").path("name")));
  }

  private static AiperfInputConfig phases(JsonNode ic) {
    JsonNode phases = ic.path("phases");
    int measured = -1;
    int warmup = -1;
    for (int i = 0; i < phases.size(); i++) {
      JsonNode p = phases.get(i);
      // AIPerf forces the warmup phase out of the results and the profiling phase in
      if ("warmup".equals(p.path("name").asString(null))
          || p.path("exclude_from_results").asBoolean(false)) {
        warmup = warmup < 0 ? i : warmup;
      } else if (measured < 0) {
        measured = i;
      }
    }
    JsonNode m = measured < 0 ? MissingNode.getInstance() : phases.get(measured);
    Load load =
        measured < 0 ? null : load(m, "rate", "concurrency", ROOT + "/phases/" + measured + "/");
    JsonNode dataset = onlyDataset(ic.path("datasets"));
    JsonNode prompts = dataset.path("prompts");
    return new AiperfInputConfig(
        Layout.PHASES,
        integer(m.path("concurrency")),
        decimal(m.path("rate")),
        load,
        count(m.path("requests")),
        warmup < 0 ? null : count(phases.get(warmup).path("requests")),
        decimal(prompts.path("isl").path("mean")),
        decimal(prompts.path("osl").path("mean")),
        decimal(prompts.path("isl").path("stddev")),
        decimal(prompts.path("osl").path("stddev")),
        text(dataset.path("path")),
        text(ic.path("models").path("items").path(0).path("name")),
        text(ic.path("endpoint").path("type")),
        bool(ic.path("endpoint").path("streaming")),
        count(dataset.path("random_seed")),
        text(ic.path("tokenizer").path("name")));
  }

  /** The one dataset of the run, or a missing node when there are none or several. */
  private static JsonNode onlyDataset(JsonNode datasets) {
    return datasets.isArray() && datasets.size() == 1 ? datasets.get(0) : MissingNode.getInstance();
  }

  /**
   * The rate when one is set (a rate-driven load; a concurrency beside it is a cap), else the
   * concurrency.
   */
  private static @Nullable Load load(
      JsonNode section, String rateKey, String concurrencyKey, String at) {
    JsonNode rate = section.path(rateKey);
    if (rate.isNumber() && rate.asDouble() > 0) {
      return new Load(LoadKind.REQUEST_RATE, rate.asString(), at + rateKey);
    }
    JsonNode c = section.path(concurrencyKey);
    if (c.isIntegralNumber() && c.asLong() > 0) {
      return new Load(LoadKind.CONCURRENCY, c.asString(), at + concurrencyKey);
    }
    return null;
  }

  private static @Nullable Integer integer(JsonNode n) {
    return n.isIntegralNumber() && n.canConvertToInt() ? n.asInt() : null;
  }

  private static @Nullable Long count(JsonNode n) {
    return n.isIntegralNumber() && n.canConvertToLong() ? n.asLong() : null;
  }

  private static @Nullable Double decimal(JsonNode n) {
    return n.isNumber() ? n.asDouble() : null;
  }

  private static @Nullable String text(JsonNode n) {
    return n.isString() ? n.asString() : null;
  }

  private static @Nullable Boolean bool(JsonNode n) {
    return n.isBoolean() ? n.asBoolean() : null;
  }
}
