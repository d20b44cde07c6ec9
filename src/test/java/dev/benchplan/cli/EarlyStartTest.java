package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which command lines start reading a trace before picocli parses them (a guess, never wrong). */
class EarlyStartTest {
  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "trace inspect t.jsonl | t.jsonl",
        "trace inspect t.jsonl --format json | t.jsonl",
        "trace inspect --format json t.jsonl | t.jsonl",
        "--stacktrace trace inspect t.jsonl --block-size 16 | t.jsonl",
        "trace inspect --max-context 40960 --window 0:10 t.jsonl --stacktrace | t.jsonl",
        "trace inspect --format=json --max-context-length=9 t.jsonl | t.jsonl",
        "trace inspect | ",
        "trace inspect --format json | ",
        "trace inspect a.jsonl b.jsonl | ",
        "trace inspect --help t.jsonl | ",
        "trace inspect -h t.jsonl | ",
        "trace inspect --version t.jsonl | ",
        "trace inspect @args.txt | ",
        "trace inspect -- t.jsonl | ",
        "trace inspect --unknown t.jsonl | ",
        "plan --workload t.jsonl | ",
        "trace t.jsonl | ",
      })
  @DisplayName("the trace of a plain trace inspect, and nothing for anything else")
  void traceOf(String line, String expected) {
    assertThat(EarlyStart.traceOf(line.strip().split("\\s+"))).isEqualTo(expected);
  }
}
