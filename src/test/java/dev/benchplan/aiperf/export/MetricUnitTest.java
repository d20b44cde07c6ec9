package dev.benchplan.aiperf.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.aiperf.export.MetricUnit.Dimension;
import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class MetricUnitTest {
  @ParameterizedTest(name = "{0} {1} = {2} {3}")
  @DisplayName("durations and rates convert exactly to their canonical units")
  @CsvSource({
    "220000000, ns, 220, ms",
    "220000, us, 220, ms",
    "220000, \u00b5s, 220, ms",
    "220, ms, 220, ms",
    "0.22, s, 220, ms",
    "0.22, sec, 220, ms",
    "4.5, tokens/ms, 4500, tokens/sec",
    "4500, tokens/s, 4500, tokens/sec",
    "270000, tokens/min, 4500, tokens/sec",
    "3, requests/ms, 3000, requests/sec",
    "0.25, requests/sec, 0.00025, requests/ms",
    "220, ms, 0.22, s",
    "64, requests, 64, requests",
    "55, tokens/sec/user, 55, tokens/sec/user",
    "3.5, KB, 3584, B",
    "2, MB, 2048, KB",
    "13, count, 13, count",
    "12.5, %, 12.5, %",
    "0.95, ratio, 0.95, ratio",
  })
  void converts(String value, String from, String expected, String to) {
    MetricUnit f = MetricUnit.parse(from).orElseThrow();
    MetricUnit t = MetricUnit.parse(to).orElseThrow();
    assertThat(f.convert(new BigDecimal(value), t)).isEqualByComparingTo(expected);
  }

  @ParameterizedTest
  @DisplayName("units benchplan does not know are not guessed")
  @ValueSource(
      strings = {
        "",
        "W",
        "MHz",
        "percentage points",
        "kbit",
        "tokens/fortnight",
        "bananas/sec",
        "requests/sec/user",
        "ms/token"
      })
  void unknown(String unit) {
    assertThat(MetricUnit.parse(unit)).isEmpty();
  }

  @Test
  @DisplayName(
      "every unit a real AIPerf 0.11 summary reports is known (ms, tokens, KB, count, %, ratio...)")
  void everyUnitOfAiperf011() throws Exception {
    Path summary = SharedData.require("aiperf/real-0.11.0-tiny/profile_export_aiperf.json");
    JsonNode root = Json.JSON.readTree(Files.readAllBytes(summary));
    Set<String> units = new TreeSet<>();
    for (String tag : root.propertyNames()) {
      if (root.get(tag).path("unit").isString()) {
        units.add(root.get(tag).path("unit").asString());
      }
    }
    assertThat(units).contains("%", "count", "KB", "ratio");
    assertThat(units).allSatisfy(u -> assertThat(MetricUnit.parse(u)).as(u).isPresent());
    assertThat(MetricUnit.parse("%").orElseThrow().dimension()).isEqualTo(Dimension.PERCENT);
    assertThat(MetricUnit.parse("KB").orElseThrow().dimension()).isEqualTo(Dimension.DATA_SIZE);
  }

  @Test
  @DisplayName("units of different dimensions cannot be converted")
  void incompatible() {
    MetricUnit ms = MetricUnit.parse("ms").orElseThrow();
    MetricUnit tps = MetricUnit.parse("tokens/sec").orElseThrow();
    assertThat(ms.compatibleWith(tps)).isFalse();
    assertThatThrownBy(() -> ms.convert(BigDecimal.ONE, tps))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(MetricUnit.canonical(Dimension.DURATION).text()).isEqualTo("ms");
    assertThat(MetricUnit.parse(" Tokens/Sec ").orElseThrow().dimension())
        .isEqualTo(Dimension.TOKEN_RATE);
  }
}
