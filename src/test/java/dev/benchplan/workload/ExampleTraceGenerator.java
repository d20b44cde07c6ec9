package dev.benchplan.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Writes examples/traces/example_trace.jsonl: a small Mooncake-format trace the project owns (no
 * third-party data): 200 requests from 40 multi-turn sessions over about 8 minutes, every session
 * sharing a 2,048-token system prompt (hash blocks 0-3) and re-sending its own growing history, so
 * the trace has real prefix reuse. Deterministic: java.util.Random's algorithm is fixed by its
 * specification. Run {@code main} with the output path to regenerate; ExampleTraceTest checks the
 * committed file is exactly what this produces.
 */
public final class ExampleTraceGenerator {
  static final int SESSIONS = 40;
  static final int TURNS = 5;
  static final int BLOCK = 512;
  static final int SYSTEM_BLOCKS = 4;

  private ExampleTraceGenerator() {}

  private record Row(long timestamp, int input, int output, List<Integer> hashIds) {}

  /** The trace bytes. */
  public static byte[] generate() {
    Random random = new Random(20261130L);
    List<Row> rows = new ArrayList<>();
    int nextBlock = SYSTEM_BLOCKS;
    for (int s = 0; s < SESSIONS; s++) {
      long t = s * 10_000L + random.nextInt(5_000);
      List<Integer> history = new ArrayList<>();
      for (int b = 0; b < SYSTEM_BLOCKS; b++) {
        history.add(b);
      }
      int context = SYSTEM_BLOCKS * BLOCK;
      for (int turn = 0; turn < TURNS; turn++) {
        int userTokens = 100 + random.nextInt(900);
        int input = context + userTokens;
        int blocks = (input + BLOCK - 1) / BLOCK;
        List<Integer> ids = new ArrayList<>(history);
        while (ids.size() < blocks) {
          ids.add(nextBlock++);
        }
        int output = 50 + random.nextInt(350);
        rows.add(new Row(t, input, output, List.copyOf(ids)));
        // the next turn re-sends this prompt and the answer: full blocks are shared prefix
        context = input + output;
        history = new ArrayList<>(ids.subList(0, Math.min(ids.size(), input / BLOCK)));
        t += 15_000 + random.nextInt(45_000);
      }
    }
    rows.sort(Comparator.comparingLong(Row::timestamp));
    StringBuilder sb = new StringBuilder();
    for (Row r : rows) {
      sb.append("{\"timestamp\": ")
          .append(r.timestamp())
          .append(", \"input_length\": ")
          .append(r.input())
          .append(", \"output_length\": ")
          .append(r.output())
          .append(", \"hash_ids\": ")
          .append(r.hashIds().toString())
          .append("}\n");
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Writes the trace to args[0] (default examples/traces/example_trace.jsonl). */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "examples/traces/example_trace.jsonl");
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, generate());
  }
}
