package dev.benchplan.aiperf.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.aiperf.version.AiperfVersion;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProfileFlagsTest {
  static AiperfVersion v(String s) {
    return AiperfVersion.parse(s, "test");
  }

  static AiperfSettings settings(
      Phase profiling, Phase warmup, Dataset dataset, Map<String, BigDecimal> slos) {
    return new AiperfSettings(
        "Qwen/Qwen3-0.6B",
        new Endpoint(
            "http://svc.ns.svc.cluster.local:8000",
            EndpointType.chat,
            "/v1/chat/completions",
            true,
            300),
        "Qwen/Qwen3-0.6B",
        dataset,
        dataset instanceof Dataset.Synthetic,
        warmup,
        profiling,
        slos,
        42,
        "/artifacts/run",
        null,
        null);
  }

  static final Dataset SYN = new Dataset.Synthetic(128, 10, 256, 0, 700);
  static final Phase CLOSED = new Phase(PhaseType.CONCURRENCY, 16, null, 640L, 600, 30, null);
  static final Phase WARM = new Phase(PhaseType.CONCURRENCY, 16, null, 16L, 300, null, null);

  /** The value after a flag. */
  static String after(List<String> args, String flag) {
    int i = args.indexOf(flag);
    assertThat(i).as("%s present in %s", flag, args).isNotNegative();
    return args.get(i + 1);
  }

  @Test
  @DisplayName("closed loop on 0.8.0+: count and duration bound the run together")
  void closedLoopNew() {
    List<String> a =
        ProfileFlags.render(settings(CLOSED, WARM, SYN, Map.of()), v("0.10.0"), "p").args();
    assertThat(after(a, "--concurrency")).isEqualTo("16");
    assertThat(after(a, "--request-count")).isEqualTo("640");
    assertThat(after(a, "--benchmark-duration")).isEqualTo("600");
    assertThat(after(a, "--benchmark-grace-period")).isEqualTo("30");
    assertThat(after(a, "--warmup-request-count")).isEqualTo("16");
    assertThat(after(a, "--synthetic-input-tokens-stddev")).isEqualTo("10");
    assertThat(after(a, "--extra-inputs")).isEqualTo("ignore_eos:true");
    assertThat(after(a, "--random-seed")).isEqualTo("42");
    assertThat(after(a, "--artifact-dir")).isEqualTo("/artifacts/run");
    assertThat(after(a, "--export-level")).isEqualTo("records");
    assertThat(after(a, "--ui")).isEqualTo("none");
    assertThat(a).contains("--streaming");
  }

  @Test
  @DisplayName("up to 0.7 a request count excludes a duration: the count wins and a note says so")
  void countOrDurationOld() {
    FlagRendering r = ProfileFlags.render(settings(CLOSED, null, SYN, Map.of()), v("0.7.0"), "p");
    assertThat(r.args())
        .contains("--request-count")
        .doesNotContain("--benchmark-duration", "--benchmark-grace-period");
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("activeDeadlineSeconds"));
    Phase durationOnly = new Phase(PhaseType.CONCURRENCY, 8, null, null, 120, 30, null);
    List<String> a =
        ProfileFlags.render(settings(durationOnly, null, SYN, Map.of()), v("0.2.0"), "p").args();
    assertThat(after(a, "--benchmark-duration")).isEqualTo("120");
    assertThat(a).doesNotContain("--request-count");
  }

  @Test
  @DisplayName("--request-rate-mode before 0.8.0, --arrival-pattern from 0.8.0")
  void arrivalPatternRename() {
    Phase rate =
        new Phase(PhaseType.CONSTANT, null, new BigDecimal("2.50"), 100L, null, null, null);
    List<String> old =
        ProfileFlags.render(settings(rate, null, SYN, Map.of()), v("0.6.0.post1"), "p").args();
    assertThat(after(old, "--request-rate")).isEqualTo("2.5");
    assertThat(after(old, "--request-rate-mode")).isEqualTo("constant");
    List<String> now =
        ProfileFlags.render(settings(rate, null, SYN, Map.of()), v("0.8.0"), "p").args();
    assertThat(after(now, "--arrival-pattern")).isEqualTo("constant");
    assertThat(now).doesNotContain("--request-rate-mode");
  }

  @Test
  @DisplayName("fixed-schedule replay of a trace, with and without a window")
  void fixedSchedule() {
    Dataset trace = new Dataset.MooncakeTrace("/benchplan/trace/trace.jsonl");
    Phase whole = new Phase(PhaseType.FIXED_SCHEDULE, null, null, null, 900, 30, null);
    List<String> a =
        ProfileFlags.render(settings(whole, null, trace, Map.of()), v("0.9.0"), "p").args();
    assertThat(after(a, "--input-file")).isEqualTo("/benchplan/trace/trace.jsonl");
    assertThat(after(a, "--custom-dataset-type")).isEqualTo("mooncake_trace");
    assertThat(a).contains("--fixed-schedule", "--fixed-schedule-auto-offset");
    assertThat(a)
        .doesNotContain("--synthetic-input-tokens-mean", "--extra-inputs", "--concurrency");
    Phase window =
        new Phase(
            PhaseType.FIXED_SCHEDULE,
            null,
            null,
            null,
            900,
            30,
            new Phase.ReplayWindow(1000, 61000));
    List<String> w =
        ProfileFlags.render(settings(window, null, trace, Map.of()), v("0.9.0"), "p").args();
    assertThat(after(w, "--fixed-schedule-start-offset")).isEqualTo("1000");
    assertThat(after(w, "--fixed-schedule-end-offset")).isEqualTo("61000");
    assertThat(w).doesNotContain("--fixed-schedule-auto-offset");
  }

  @Test
  @DisplayName("goodput SLOs become one --goodput value from 0.2.0; 0.1.1 refuses them")
  void goodput() {
    Map<String, BigDecimal> slos = new LinkedHashMap<>();
    slos.put("time_to_first_token", new BigDecimal("2000.0"));
    slos.put("inter_token_latency", new BigDecimal("25"));
    List<String> a = ProfileFlags.render(settings(CLOSED, null, SYN, slos), v("0.2.0"), "p").args();
    assertThat(after(a, "--goodput")).isEqualTo("time_to_first_token:2000 inter_token_latency:25");
    assertThatThrownBy(
            () -> ProfileFlags.render(settings(CLOSED, null, SYN, slos), v("0.1.1"), "plan.json"))
        .hasMessage(
            "plan.json: /objectives/goodput: AIPerf 0.1.1 has no --goodput (it appeared in 0.2.0):"
                + " expected no goodput SLOs, or an AIPerf pin >= 0.2.0");
  }

  @Test
  @DisplayName("0.1.1 and 0.2.0 have no --export-level; a note records the default exports")
  void exportLevel() {
    FlagRendering r = ProfileFlags.render(settings(CLOSED, null, SYN, Map.of()), v("0.2.0"), "p");
    assertThat(r.args()).doesNotContain("--export-level");
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("no --export-level"));
  }

  @Test
  @DisplayName("the flag table: names per release, and a flag is valid only where the table has it")
  void table() {
    assertThat(ProfileOption.GOODPUT.flagIn(v("0.1.1"))).isEmpty();
    assertThat(ProfileOption.GOODPUT.flagIn(v("0.2.0"))).contains("--goodput");
    assertThat(ProfileOption.ARRIVAL_PATTERN.flagIn(v("0.7.0"))).contains("--request-rate-mode");
    assertThat(ProfileOption.ARRIVAL_PATTERN.flagIn(v("0.13.0"))).contains("--arrival-pattern");
    assertThat(ProfileOption.isValidFlag("--export-level", v("0.2.0"))).isFalse();
    assertThat(ProfileOption.isValidFlag("--export-level", v("0.3.0"))).isTrue();
    assertThat(ProfileOption.isValidFlag("--profile-export-level", v("0.13.0"))).isFalse();
    assertThat(ProfileOption.isValidFlag("--made-up", v("0.13.0"))).isFalse();
  }

  @Test
  @DisplayName("a hostile model name stays one exact argument")
  void hostileModel() {
    String model = "m: # ' \" \n x";
    AiperfSettings s =
        new AiperfSettings(
            model,
            settings(CLOSED, null, SYN, Map.of()).endpoint(),
            model,
            SYN,
            false,
            null,
            CLOSED,
            Map.of(),
            1,
            "/a",
            null,
            null);
    List<String> a = ProfileFlags.render(s, v("0.5.0"), "p").args();
    assertThat(after(a, "--model")).isEqualTo(model);
    assertThat(after(a, "--tokenizer")).isEqualTo(model);
  }
}
