package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.render.PlanRenderer;
import dev.benchplan.render.RenderRequest;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.workload.InputRanges;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 15 item 3, as a property: for generated workloads whose every number lies in its range
 * (edges included), {@code plan} either writes a plan or stops with documented exit-2 blockers, and
 * {@code render} renders every load point of every plan it wrote. Seeded, so a failure reproduces;
 * the failing workload and options are printed.
 */
class PlanRenderPropertyTest {
  static final long SEED = 20261201L;
  static final int CASES = 250;

  @TempDir Path tmp;

  @Test
  @DisplayName(
      "whatever plan writes, render renders (seeded random valid workloads, edges included)")
  void planThenRender() throws Exception {
    Random random = new Random(SEED);
    PlanFixture.Inputs fx = PlanFixture.Inputs.create(tmp);
    Path deploy = Files.createDirectories(tmp.resolve("deploy-root"));
    Map<String, Integer> blockerCodes = new TreeMap<>();
    int planned = 0;
    int renders = 0;
    for (int i = 0; i < CASES; i++) {
      ObjectNode workload = workload(random);
      Consumer<PlanOptions.Builder> options = options(random);
      String yaml = Json.YAML.writeValueAsString(workload);
      String described =
          "case " + i + " (seed " + SEED + "):\n" + yaml + "options: " + describe(options, fx);
      PlanResult r;
      try {
        PlanOptions.Builder b = fx.options().seriesId("prop-" + i);
        options.accept(b);
        r = new PlanService().plan(fx.request(fx.workload("w" + i + ".yaml", yaml), b.build()));
      } catch (PlanBlockedException e) {
        e.codes().forEach(c -> blockerCodes.merge(c, 1, Integer::sum));
        assertThat(e.codes()).as("documented blocker codes for " + described).isNotEmpty();
        continue;
      } catch (RuntimeException e) {
        throw new AssertionError(
            "plan failed with " + e + " (not an exit-2 blocker) for " + described, e);
      }
      planned++;
      JsonNode plan = PlanJson.parse(Files.readAllBytes(r.planPath()));
      for (String point : points(plan.get("experiment"))) {
        try {
          PlanRenderer.render(
              RenderRequest.builder(r.planPath(), r.sha256(), deploy)
                  .loadPoint(point)
                  .runId(PlanFixture.Inputs.CLOCK, new Random(i))
                  .build());
          renders++;
        } catch (RuntimeException e) {
          throw new AssertionError(
              "render of load point "
                  + point
                  + " failed with "
                  + e
                  + " for a plan `plan` wrote, "
                  + described,
              e);
        }
      }
    }
    System.out.println(
        "PlanRenderPropertyTest: "
            + CASES
            + " workloads, "
            + planned
            + " planned, "
            + renders
            + " renders, blockers "
            + blockerCodes);
    assertThat(planned)
        .as("enough generated workloads plan to make the property mean something")
        .isGreaterThan(CASES / 5);
    assertThat(blockerCodes).as("and enough are blocked").isNotEmpty();
  }

  /** Every load point to render: all of a small grid, the ends and the middle of a large one. */
  private static List<String> points(JsonNode e) {
    JsonNode list =
        e.get("concurrency").isArray()
            ? e.get("concurrency")
            : e.get("request_rate").isArray() ? e.get("request_rate") : null;
    List<String> all = new ArrayList<>();
    if (list == null) {
      all.add(null);
      return all;
    }
    list.forEach(p -> all.add(p.decimalValue().stripTrailingZeros().toPlainString()));
    if (all.size() == 1) {
      return List.of(all.get(0)).stream().map(x -> (String) null).toList();
    }
    if (all.size() <= 4) {
      return all;
    }
    Set<String> some =
        new LinkedHashSet<>(List.of(all.get(0), all.get(all.size() / 2), all.get(all.size() - 1)));
    return new ArrayList<>(some);
  }

  private static long pick(Random r, long min, long max) {
    return switch (r.nextInt(5)) {
      case 0 -> min;
      case 1 -> max;
      case 2 -> Math.min(max, min + r.nextInt(16));
      case 3 -> Math.max(min, max - r.nextInt(16));
      default -> min + (long) (r.nextDouble() * (max - min));
    };
  }

  /** A small value most of the time (so that many plans pass), an edge of the range sometimes. */
  private static long small(Random r, long min, long max, long typical) {
    return r.nextInt(4) == 0 ? pick(r, min, max) : Math.min(max, min + r.nextInt((int) typical));
  }

  private static BigDecimal rate(Random r) {
    return switch (r.nextInt(6)) {
      case 0 -> InputRanges.MIN_REQUEST_RATE;
      case 1 -> InputRanges.MAX_REQUEST_RATE;
      case 2 -> new BigDecimal("0.5");
      default -> BigDecimal.valueOf(1 + r.nextInt(40)).add(BigDecimal.valueOf(r.nextInt(4), 1));
    };
  }

  static ObjectNode workload(Random r) {
    ObjectNode w = Json.JSON.createObjectNode();
    w.putObject("profile").put("name", "prop").put("type", "chat");
    ObjectNode t = w.putObject("traffic");
    t.put("input_tokens", small(r, 1, InputRanges.MAX_TOKENS, 4000));
    t.put("output_tokens", small(r, 1, InputRanges.MAX_TOKENS, 1000));
    if (r.nextInt(4) == 0) {
      t.put("input_tokens_stddev", small(r, 0, InputRanges.MAX_TOKENS, 100));
    }
    if (r.nextInt(4) == 0) {
      t.put("output_tokens_stddev", small(r, 0, InputRanges.MAX_TOKENS, 100));
    }
    switch (r.nextInt(5)) {
      case 0, 1 -> {
        ArrayNode c = t.putArray("concurrency");
        Set<Long> seen = new LinkedHashSet<>();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
          seen.add(small(r, 1, InputRanges.MAX_CONCURRENCY, 64));
        }
        seen.forEach(c::add);
      }
      case 2 -> {
        if (r.nextBoolean()) {
          t.put("request_rate", rate(r));
        } else {
          ArrayNode a = t.putArray("request_rate");
          Set<BigDecimal> seen = new LinkedHashSet<>();
          for (int i = 0; i < 1 + r.nextInt(3); i++) {
            seen.add(rate(r));
          }
          seen.forEach(a::add);
        }
        if (r.nextBoolean()) {
          t.put("arrival_pattern", r.nextBoolean() ? "poisson" : "constant");
        }
      }
      case 3 -> t.put("max_concurrency", small(r, 1, InputRanges.MAX_CONCURRENCY, 128));
      default -> t.put("max_request_rate", rate(r));
    }
    if (r.nextInt(3) == 0) {
      t.put("request_count", small(r, 1, InputRanges.MAX_REQUEST_COUNT, 5000));
    }
    if (r.nextInt(4) == 0) {
      t.put("duration_s", small(r, 1, InputRanges.MAX_DURATION_S, 1800));
    }
    if (r.nextInt(3) == 0) {
      ObjectNode o = w.putObject("objectives");
      if (r.nextBoolean()) {
        o.put("ttft_ms_p95_max", BigDecimal.valueOf(pick(r, 1, 3_600_000)));
      }
      if (r.nextBoolean()) {
        o.put("output_tput_per_gpu_min", BigDecimal.valueOf(pick(r, 1, 10_000_000)));
      }
      if (r.nextBoolean()) {
        o.putArray("custom_slos")
            .addObject()
            .put("metric", "time_to_first_token")
            .put("stat", "p99")
            .put("max", BigDecimal.valueOf(pick(r, 1, 1_000_000_000_000L)));
      }
    }
    return w;
  }

  /** Plan options: mostly none, sometimes an edge of each range. */
  static Consumer<PlanOptions.Builder> options(Random r) {
    List<Consumer<PlanOptions.Builder>> chosen = new ArrayList<>();
    if (r.nextInt(4) == 0) {
      chosen.add(b -> b.experiment(ExperimentType.capacity));
    }
    if (r.nextInt(5) == 0) {
      int max = (int) small(r, 1, InputRanges.MAX_CONCURRENCY, 64);
      chosen.add(b -> b.maxConcurrency(max));
    }
    if (r.nextInt(6) == 0) {
      int warmup = (int) pick(r, 0, InputRanges.MAX_WARMUP_REQUESTS);
      chosen.add(b -> b.warmupRequests(warmup));
    }
    if (r.nextInt(6) == 0) {
      long seed = pick(r, 0, InputRanges.MAX_SEED);
      chosen.add(b -> b.seed(seed));
    }
    if (r.nextInt(6) == 0) {
      MeasurementMode m = r.nextBoolean() ? MeasurementMode.closed_loop : MeasurementMode.open_loop;
      chosen.add(b -> b.measurementMode(m));
    }
    return b -> chosen.forEach(c -> c.accept(b));
  }

  private static String describe(Consumer<PlanOptions.Builder> options, PlanFixture.Inputs fx) {
    PlanOptions.Builder b = fx.options();
    options.accept(b);
    PlanOptions o = b.build();
    return "experiment="
        + o.experiment()
        + " maxConcurrency="
        + o.maxConcurrency()
        + " warmup="
        + o.warmupRequests()
        + " seed="
        + o.seed()
        + " mode="
        + o.measurementMode();
  }
}
