package dev.benchplan.aiperf.config;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything one AIPerf run is told, independent of how it is told (native config or flags).
 *
 * @param model the served model name sent in requests
 * @param endpoint where and how requests go
 * @param tokenizer Hugging Face tokenizer name or path used for token counts
 * @param dataset synthetic lengths or a trace file in the pod
 * @param ignoreEos send {@code ignore_eos: true} so the requested output length is honoured
 * @param warmup a warmup phase excluded from results, or null for none
 * @param profiling the measured phase
 * @param slos goodput SLOs: metric tag to threshold in display units (ms); empty for none
 * @param randomSeed seed for prompt generation and sampling
 * @param artifactDir absolute directory in the pod for every AIPerf artifact
 * @param workers AIPerf worker processes ({@code benchmark.runtime.workers}), or null to leave the
 *     count to AIPerf (agent-docs/rules/benchmarking/load-generator.md)
 * @param temperature the sampling temperature sent with every request, or null for none
 */
public record AiperfSettings(
    String model,
    Endpoint endpoint,
    String tokenizer,
    Dataset dataset,
    boolean ignoreEos,
    @Nullable Phase warmup,
    Phase profiling,
    Map<String, BigDecimal> slos,
    long randomSeed,
    String artifactDir,
    @Nullable Integer workers,
    @Nullable BigDecimal temperature) {
  public AiperfSettings {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(tokenizer, "tokenizer");
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(profiling, "profiling");
    Objects.requireNonNull(artifactDir, "artifactDir");
    if (model.isEmpty() || tokenizer.isEmpty()) {
      throw new IllegalArgumentException("model and tokenizer must not be empty");
    }
    if (!artifactDir.startsWith("/")) {
      throw new IllegalArgumentException("artifact dir must be absolute: " + artifactDir);
    }
    if (randomSeed < 0) {
      throw new IllegalArgumentException("random seed must be >= 0");
    }
    if (profiling.type() == PhaseType.FIXED_SCHEDULE
        && !(dataset instanceof Dataset.MooncakeTrace)) {
      throw new IllegalArgumentException("a fixed-schedule phase replays a trace dataset");
    }
    if (workers != null && workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1");
    }
    slos = slos == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(slos));
    if (temperature != null && temperature.signum() < 0) {
      throw new IllegalArgumentException("temperature must be >= 0");
    }
  }
}
