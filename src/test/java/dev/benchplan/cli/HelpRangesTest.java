package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.testing.CommandHarness;
import dev.benchplan.workload.InputRanges;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * What {@code --help} says about a numeric option is what the tool does: every ranged option's help
 * states its converter's range, the converter accepts both ends and refuses just past them, and
 * plan's validators (which also guard plans made from code) accept the same ends.
 */
class HelpRangesTest {
  @TempDir Path exp;

  record RangedOption(String command, OptionSpec option, NumericOptions.Ranged converter) {
    String name() {
      return command + " " + option.longestName();
    }
  }

  static List<RangedOption> rangedOptions() {
    List<RangedOption> out = new ArrayList<>();
    collect(Cli.commandLine(), "benchplan", out);
    return out;
  }

  private static void collect(CommandLine cl, String name, List<RangedOption> out) {
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (o.converters().length > 0 && o.converters()[0] instanceof NumericOptions.Ranged r) {
        out.add(new RangedOption(name, o, r));
      }
    }
    for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
      if (sub.getKey().equals(sub.getValue().getCommandName())) {
        collect(sub.getValue(), name + " " + sub.getKey(), out);
      }
    }
  }

  @Test
  @DisplayName("every ranged option's help states the range its converter accepts")
  void helpStatesTheRange() {
    List<RangedOption> ranged = rangedOptions();
    // plan 6, validate 6, render 2, run 1, trace inspect 2, gate 4, compare 1
    assertThat(ranged).hasSizeGreaterThanOrEqualTo(22);
    for (RangedOption r : ranged) {
      assertThat(String.join(" ", r.option().description()))
          .as(r.name() + "'s help")
          .contains(r.converter().range());
    }
  }

  @Test
  @DisplayName("every ranged converter accepts its stated ends and refuses just past them")
  void convertersHoldTheirRange() throws Exception {
    for (RangedOption r : rangedOptions()) {
      @SuppressWarnings("unchecked")
      CommandLine.ITypeConverter<Object> c =
          (CommandLine.ITypeConverter<Object>) r.option().converters()[0];
      NumericOptions.Ranged range = r.converter();
      if (range.lowest() != null) {
        assertThat(c.convert(range.argument(range.lowest()))).as(r.name()).isNotNull();
      }
      if (range.highest() != null) {
        assertThat(c.convert(range.argument(range.highest()))).as(r.name()).isNotNull();
      }
      for (String outside : new String[] {range.below(), range.above()}) {
        if (outside != null) {
          assertThatThrownBy(() -> c.convert(outside))
              .as(r.name() + " " + outside)
              .isInstanceOf(TypeConversionException.class);
        }
      }
    }
  }

  @Test
  @DisplayName("the range words follow the bounds: closed, open and half-open ends")
  void rangeWords() {
    assertThat(new NumericOptions.Repetitions().range()).isEqualTo("1 to 10");
    assertThat(new NumericOptions.Tolerance().range()).isEqualTo("0 to below 1");
    assertThat(new NumericOptions.EffectPercent().range()).isEqualTo("above 0, below 100");
    assertThat(new NumericOptions.Millis().range()).isEqualTo("above 0, at most 1000000000");
    assertThat(new NumericOptions.RequestRate().range()).isEqualTo("0.001 to 100000");
    assertThat(new NumericOptions.SmokeMaxAge().range()).isEqualTo("above 0, at most 720h");
  }

  /** plan's options at their converters' highest values: no range blocker from the validators. */
  @Test
  @DisplayName("plan's validators accept every ranged option's highest value and refuse past it")
  void planValidatorsAgree() {
    String[] base = {
      "plan",
      "--workload",
      Path.of("examples/workload-static.yaml").toAbsolutePath().toString(),
      "--ledger",
      Path.of("examples/deployment-ledger.yaml").toAbsolutePath().toString(),
      "--question",
      "q",
      "--aiperf-version",
      "0.13.0",
      "--exp-root",
      exp.toString(),
      "--format",
      "json"
    };
    int planOptions = 0;
    for (RangedOption r : rangedOptions()) {
      if (!r.command().equals("benchplan plan")) {
        continue;
      }
      planOptions++;
      List<String> args = new ArrayList<>(List.of(base));
      args.add(r.option().longestName());
      args.add(r.converter().argument(r.converter().highest()));
      if (r.option().longestName().equals("--repetitions")) {
        args.addAll(List.of("--repeat-rationale", "a consequential decision"));
      }
      var result = CommandHarness.run(args.toArray(String[]::new));
      assertThat(result.out() + result.err())
          .as(String.join(" ", args))
          .doesNotContain("OPTION_OUT_OF_RANGE")
          .doesNotContain("REPETITIONS_OUT_OF_RANGE")
          .doesNotContain("out of range");
    }
    assertThat(planOptions).isEqualTo(6);
    // the validators' own ends, which the converters take their bounds from
    assertThat(new NumericOptions.Repetitions().highest()).isEqualByComparingTo("10");
    assertThat(new NumericOptions.Seed().highest().longValueExact())
        .isEqualTo(InputRanges.MAX_SEED);
    assertThat(new NumericOptions.WarmupRequests().highest().longValueExact())
        .isEqualTo(InputRanges.MAX_WARMUP_REQUESTS);
  }

  @Test
  @DisplayName("plan --repetitions past the rule's maximum is refused by the option, naming it")
  void repetitionsPastTheRule() {
    CommandHarness.run(
            "plan",
            "--workload",
            "examples/workload-static.yaml",
            "--ledger",
            "examples/deployment-ledger.yaml",
            "--question",
            "q",
            "--exp-root",
            exp.toString(),
            "--repetitions",
            "11")
        .expectError(
            2,
            "Invalid value for option '--repetitions': '11' is out of range; expected a whole"
                + " number from 1 to 10");
  }

  @Test
  @DisplayName("--smoke-max-age past 720h is refused by plan, render and run's option, naming it")
  void smokeMaxAgeBound() {
    for (String command : List.of("plan", "render", "run")) {
      CommandHarness.run(command, "--smoke-max-age", "721h")
          .expectError(
              2,
              "Invalid value for option '--smoke-max-age': '721h' is out of range; expected a"
                  + " duration above 0, at most 720h (e.g. 72h)");
    }
    NumericOptions.SmokeMaxAge c = new NumericOptions.SmokeMaxAge();
    assertThat(c.convert("720h")).isEqualTo(java.time.Duration.ofDays(30));
    assertThat(c.convert("72h")).isEqualTo(java.time.Duration.ofHours(72));
    assertThatThrownBy(() -> c.convert("2592000001ms")).isInstanceOf(TypeConversionException.class);
  }
}
