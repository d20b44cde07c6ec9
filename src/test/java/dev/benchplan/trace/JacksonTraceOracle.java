package dev.benchplan.trace;

import dev.benchplan.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * An independent, deliberately naive reference for valid traces: Jackson trees per line, boxed
 * collections, sorting. Tests compare the streaming scanner against it.
 */
record JacksonTraceOracle(
    long rows,
    List<Long> inputs,
    List<Long> outputs,
    long uniqueBlocks,
    double hitRate,
    long minTimestamp,
    long maxTimestamp) {

  static JacksonTraceOracle of(Path file, int blockSize) throws IOException {
    long rows = 0;
    List<Long> inputs = new ArrayList<>();
    List<Long> outputs = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    long tokens = 0;
    long hits = 0;
    long minTs = Long.MAX_VALUE;
    long maxTs = Long.MIN_VALUE;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      rows++;
      JsonNode row = Json.JSON.readTree(line);
      long input = row.get("input_length").asLong();
      inputs.add(input);
      outputs.add(row.get("output_length").asLong());
      if (row.has("timestamp")) {
        minTs = Math.min(minTs, row.get("timestamp").asLong());
        maxTs = Math.max(maxTs, row.get("timestamp").asLong());
      }
      if (row.has("hash_ids")) {
        List<Long> ids = new ArrayList<>();
        row.get("hash_ids").forEach(id -> ids.add(id.asLong()));
        tokens += input;
        for (int j = 0; j < ids.size(); j++) {
          if (seen.contains(ids.get(j))) {
            hits += Math.max(0, Math.min(blockSize, input - (long) j * blockSize));
          }
        }
        seen.addAll(ids);
      }
    }
    Collections.sort(inputs);
    Collections.sort(outputs);
    return new JacksonTraceOracle(
        rows, inputs, outputs, seen.size(), (double) hits / tokens, minTs, maxTs);
  }

  /** Nearest rank on a sorted list, written the textbook way (with floating point). */
  static long percentile(List<Long> sorted, double p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(1, rank) - 1);
  }

  static double mean(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).average().orElseThrow();
  }
}
