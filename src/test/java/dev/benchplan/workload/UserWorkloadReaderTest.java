package dev.benchplan.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.RuleLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserWorkloadReaderTest {
  @TempDir Path tmp;

  private InputDocument doc(String yaml) throws IOException {
    Path p = tmp.resolve("sub").resolve("workload.yaml");
    Files.createDirectories(p.getParent());
    Files.writeString(p, yaml);
    return InputDocument.read(p, "user workload");
  }

  @Test
  @DisplayName("schema errors name the file, the line and the JSON pointer; nothing is returned")
  void schemaErrors() throws IOException {
    InputDocument d =
        doc(
            """
        profile:
          name: p
          type: batch
        traffic:
          input_tokens: 512
          concurrency:
            - 4
            - four
        surprise: 1
        """);
    RuleLog log = new RuleLog();
    assertThat(UserWorkloadReader.read(d, log)).isEmpty();
    assertThat(log.blockers()).extracting(Blocker::code).containsOnly("WORKLOAD_SCHEMA");
    assertThat(log.blockers())
        .extracting(Blocker::message)
        .anyMatch(m -> m.contains(d.location() + ":3 /profile/type") && m.contains("enum"))
        .anyMatch(m -> m.contains(d.location() + ":8 /traffic/concurrency/1"))
        .anyMatch(m -> m.contains(":9 /surprise: ") && m.contains("not defined"));
    assertThat(log.blockers()).allMatch(b -> b.rule().equals("execution/user-workload.md"));
  }

  @Test
  @DisplayName("a missing required section is reported at its parent")
  void missingProfile() throws IOException {
    RuleLog log = new RuleLog();
    UserWorkloadReader.read(doc("notes: hi\n"), log);
    assertThat(log.blockers().get(0).message()).contains(":1 /: required property 'profile'");
  }

  @Test
  @DisplayName("a token-looking value is refused by pointer and never echoed")
  void secretValue() throws IOException {
    String token = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
    InputDocument d =
        doc(
            """
        profile: {name: p, type: chat}
        notes: "use token %s for the download"
        """
                .formatted(token));
    RuleLog log = new RuleLog();
    assertThat(UserWorkloadReader.read(d, log)).isEmpty();
    Blocker b = log.blockers().get(0);
    assertThat(b.code()).isEqualTo("WORKLOAD_SECRET");
    assertThat(b.message())
        .contains(":2 /notes")
        .contains("Hugging Face token")
        .doesNotContain(token)
        .doesNotContain("AbCdEf");
  }

  @Test
  @DisplayName("credential keys are refused even where the schema would also reject them")
  void secretKeys() throws IOException {
    String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N";
    InputDocument d =
        doc(
            """
        profile: {name: p, type: chat}
        kubernetes:
          kube_context: prod
          password: hunter2hunter2
        model:
          source: x
          api_key: %s
        """
                .formatted(jwt));
    RuleLog log = new RuleLog();
    UserWorkloadReader.read(d, log);
    assertThat(log.blockers())
        .filteredOn(b -> b.code().equals("WORKLOAD_SECRET"))
        .extracting(Blocker::message)
        .anyMatch(m -> m.contains("/kubernetes/password"))
        .anyMatch(m -> m.contains("/model/api_key") && m.contains("JSON Web Token"));
    assertThat(log.blockers())
        .allMatch(b -> !b.message().contains("hunter2") && !b.message().contains(jwt));
  }

  @Test
  @DisplayName("relative paths resolve against the workload's own folder; SLOs are normalized")
  void paths() throws IOException {
    InputDocument d =
        doc(
            """
        profile: {name: p, type: chat}
        deployment: {dgd_path: ../dgd.yaml, origin: user}
        artifacts: {supporting_traces: [traces/t.jsonl, /abs/t2.jsonl]}
        objectives:
          ttft_ms_p95_max: 250.5
          error_rate_max: 0.01
          custom_slos: [{metric: request_throughput, stat: avg, min: 3}]
        """);
    RuleLog log = new RuleLog();
    UserWorkload w = UserWorkloadReader.read(d, log).orElseThrow();
    assertThat(log.blockers()).isEmpty();
    assertThat(w.dgdPath()).isEqualTo(tmp.resolve("dgd.yaml").toAbsolutePath().normalize());
    assertThat(w.supportingTraces())
        .extracting(UserWorkload.SupportingTrace::path)
        .containsExactly(
            tmp.resolve("sub/traces/t.jsonl").toAbsolutePath().normalize(),
            Path.of("/abs/t2.jsonl"));
    assertThat(w.slos())
        .extracting(Slo::metric)
        .containsExactly("time_to_first_token", "error_rate", "request_throughput");
    assertThat(w.slos().get(0).threshold()).isEqualByComparingTo("250.5");
    assertThat(w.slos().get(2).operator()).isEqualTo(">=");
    assertThat(w.slos().get(2).unit()).isEqualTo("requests/sec");
  }

  @Test
  @DisplayName("a relative path in a document built in code has nothing to resolve against")
  void relativeWithoutFolder() {
    var tree = dev.benchplan.json.Json.JSON.createObjectNode();
    tree.putObject("profile").put("name", "p").put("type", "chat");
    tree.putObject("artifacts").putArray("supporting_traces").add("t.jsonl");
    RuleLog log = new RuleLog();
    assertThat(UserWorkloadReader.read(InputDocument.of("code", tree, null), log)).isEmpty();
    assertThat(log.blockers().get(0).code()).isEqualTo("WORKLOAD_PATH_INVALID");
  }

  @Test
  @DisplayName("an SLO in the wrong unit is refused")
  void sloUnit() throws IOException {
    RuleLog log = new RuleLog();
    Optional<UserWorkload> w =
        UserWorkloadReader.read(
            doc(
                """
        profile: {name: p, type: chat}
        objectives:
          custom_slos:
            - {metric: time_to_first_token, stat: p99, max: 0.2, unit: s}
            - {metric: my_metric, stat: avg, max: 1}
        """),
            log);
    assertThat(w).isEmpty();
    assertThat(log.blockers())
        .extracting(Blocker::code)
        .containsExactly("WORKLOAD_SLO_INVALID", "WORKLOAD_SLO_INVALID");
    assertThat(log.blockers().get(0).message()).contains("must be in ms");
    assertThat(log.blockers().get(1).message()).contains("give its unit");
  }
}
