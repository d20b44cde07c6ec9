package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Sha256;
import dev.benchplan.render.JobContract;
import dev.benchplan.run.PerfYaml;
import dev.benchplan.run.PlanReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

class PerfYamlTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "a perf.yaml following the contract is read: run-id, Job, ConfigMaps, annotations, image")
  void reads() {
    RunFixture f = RunFixture.create(tmp, "bench", 50, 35);
    PerfYaml p = PerfYaml.read(f.perfYaml());
    assertThat(p.runId()).isEqualTo(RunFixture.RUN_ID);
    assertThat(p.series()).isEqualTo(RunFixture.SERIES);
    assertThat(p.jobName()).isEqualTo(RunFixture.JOB);
    assertThat(p.configMapNames()).containsExactly(RunFixture.CONFIG_MAP);
    assertThat(p.namespace()).isEqualTo("bench");
    assertThat(p.activeDeadlineSeconds()).isEqualTo(1860L);
    assertThat(p.image()).isEqualTo(RunFixture.IMAGE);
    assertThat(p.annotation(JobContract.ENDPOINT)).isEqualTo(RunFixture.ENDPOINT);
    assertThat(p.sha256()).isEqualTo(Sha256.ofFile(f.perfYaml()));
    PlanReference plan = PlanReference.verify(p);
    assertThat(plan.aiperfVersion()).isEqualTo("0.13.0");
    assertThat(plan.gates()).hasSize(2);
  }

  /** Reading perf.yaml is invalid input with {@code message} after the file's name. */
  private void expectInvalid(RunFixture f, String message) {
    assertThatThrownBy(() -> PerfYaml.read(f.perfYaml()))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(f.perfYaml() + ": " + message);
  }

  /** {@link #expectInvalid} for a problem in the Job (document 2). */
  private void expectInvalidJob(RunFixture f, String message) {
    expectInvalid(f, "document 2 (Job " + RunFixture.JOB + "): " + message);
  }

  private static Consumer<ObjectNode> label(String key, String value) {
    return j -> ((ObjectNode) j.get("metadata").get("labels")).put(key, value);
  }

  private static Consumer<ObjectNode> annotation(String key, String value) {
    return j -> {
      ObjectNode a = (ObjectNode) j.get("metadata").get("annotations");
      if (value == null) {
        a.remove(key);
      } else {
        a.put(key, value);
      }
    };
  }

  @ParameterizedTest(name = "{0}={1}")
  @DisplayName(
      "each broken label or annotation is invalid input naming the document and the pointer")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "label | app.kubernetes.io/managed-by | helm | /metadata/labels/app.kubernetes.io~1managed-by: expected 'benchplan', got 'helm'",
        "label | benchplan.dev/run-id | 2026-11-30 | /metadata/labels/benchplan.dev~1run-id: expected a run-id YYYYMMDDTHHMMSSZ-<4 hex>, got '2026-11-30'",
        "label | benchplan.dev/plan-sha256 | xyz | /metadata/labels/benchplan.dev~1plan-sha256: expected the first 12 hex characters of the plan SHA-256, got 'xyz'",
        "label | benchplan.dev/series | \"\" | /metadata/labels/benchplan.dev~1series: required label missing",
        "annotation | benchplan.dev/plan-path | plans\\x.json | /metadata/annotations/benchplan.dev~1plan-path: expected the plan's path relative to DEPLOY_ROOT (written with '/') or an absolute path, got 'plans\\x.json'",
        "annotation | benchplan.dev/plan-sha256 | abc | /metadata/annotations/benchplan.dev~1plan-sha256: expected 64 lowercase hex characters, got 'abc'",
        "annotation | benchplan.dev/endpoint | vllm:8000 | /metadata/annotations/benchplan.dev~1endpoint: expected an http(s) URL, got 'vllm:8000'",
        "annotation | benchplan.dev/dgd | vllm-agg | /metadata/annotations/benchplan.dev~1dgd: expected <namespace>/<dgd-name>, got 'vllm-agg'",
        "annotation | benchplan.dev/artifacts | hostPath:/x | /metadata/annotations/benchplan.dev~1artifacts: expected emptyDir or pvc:CLAIM[/SUBPATH], got 'hostPath:/x'",
        "annotation | benchplan.dev/aiperf-version | \"\" | /metadata/annotations/benchplan.dev~1aiperf-version: required annotation missing",
      })
  void brokenMetadata(String where, String key, String value, String expected) {
    RunFixture f = RunFixture.create(tmp, "bench", 50, 35);
    f.editJob(where.equals("label") ? label(key, value) : annotation(key, value));
    expectInvalidJob(f, expected);
  }

  @Test
  @DisplayName(
      "run reads the plan through PlanFile: a plan that hashes right but breaks its schema is invalid (exit 2)")
  void planSchema() {
    RunFixture f =
        RunFixture.create(tmp, "bench", 50, 35)
            .editPlan(p -> p.withObject("/experiment").put("measurement_limit_s", 0));
    PerfYaml p = PerfYaml.read(f.perfYaml());
    assertThatThrownBy(() -> PlanReference.verify(p))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            f.planFile
                + ": does not match schema benchmark-plan.schema.json:"
                + " /experiment/measurement_limit_s: must have a minimum value of 1 [minimum]");
  }

  @Test
  @DisplayName(
      "the Job must be last, be batch/v1, have the aiperf container and the artifacts volume")
  void structure() throws Exception {
    RunFixture f = RunFixture.create(tmp, "bench", 50, 35);
    f.editJob(j -> j.put("apiVersion", "batch/v1beta1"));
    expectInvalidJob(f, "/apiVersion: expected batch/v1, got 'batch/v1beta1'");
    f.editJob(j -> j.put("apiVersion", "batch/v1"));

    f.editJob(j -> ((ObjectNode) j.at("/spec/template/spec/containers/0")).put("name", "bench"));
    expectInvalidJob(f, "/spec/template/spec/containers: expected a container named 'aiperf'");
    f.editJob(j -> ((ObjectNode) j.at("/spec/template/spec/containers/0")).put("name", "aiperf"));

    f.editJob(j -> ((ObjectNode) j.at("/spec/template/spec/volumes/0")).put("name", "scratch"));
    expectInvalidJob(f, "/spec/template/spec/volumes: expected a volume named 'artifacts'");
    f.editJob(j -> ((ObjectNode) j.at("/spec/template/spec/volumes/0")).put("name", "artifacts"));

    f.editJob(j -> ((ObjectNode) j.get("metadata")).put("name", "Bp_Bad"));
    expectInvalid(
        f,
        "document 2 (Job Bp_Bad): /metadata/name: expected a DNS-1123 name of at most 63"
            + " characters, got 'Bp_Bad'");
    f.editJob(j -> ((ObjectNode) j.get("metadata")).put("name", RunFixture.JOB));

    // Job before the ConfigMap
    String text = Files.readString(f.perfYaml());
    String[] docs = text.split("(?m)^---\n");
    Files.writeString(f.perfYaml(), "---\n" + docs[2] + "---\n" + docs[1]);
    expectInvalid(
        f,
        "document 1 (Job "
            + RunFixture.JOB
            + "): the Job must be the last document (exactly one Job, after the ConfigMaps)");

    Files.writeString(f.perfYaml(), "---\n" + docs[1]);
    expectInvalid(f, "no batch/v1 Job: expected exactly one, as the last document");

    Files.writeString(
        f.perfYaml(),
        docs[1] + "---\napiVersion: v1\nkind: Secret\nmetadata: {name: x}\n---\n" + docs[2]);
    expectInvalid(f, "document 2 (Secret x): /kind: expected ConfigMap or Job, got 'Secret'");

    Files.writeString(f.perfYaml(), "kind: [unclosed\n");
    assertThatThrownBy(() -> PerfYaml.read(f.perfYaml()))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            f.perfYaml()
                + ":2:1: not valid YAML: expected ',' or ']', but got <stream end> (while parsing a"
                + " flow sequence that starts at line 1, column 7)");

    Files.delete(f.perfYaml());
    expectInvalid(f, "perf.yaml not found; run 'benchplan render' first");
  }

  @Test
  @DisplayName(
      "an unquoted numeric-looking label value is a YAML number, which Kubernetes refuses: invalid, with the fix")
  void numericLabel() throws Exception {
    RunFixture f = RunFixture.create(tmp, "bench", 50, 35);
    String text = Files.readString(f.perfYaml());
    // the first occurrence is the ConfigMap's label (the Job's annotation of the same key comes
    // later)
    String unquoted =
        text.replaceFirst("benchplan.dev/plan-sha256: .*", "benchplan.dev/plan-sha256: 1234567e1");
    Files.writeString(f.perfYaml(), unquoted);
    expectInvalid(
        f,
        "document 1 (ConfigMap "
            + RunFixture.CONFIG_MAP
            + "): /metadata/labels/benchplan.dev~1plan-sha256: expected a string, got the number"
            + " 1.234567E7 (quote it in YAML)");
  }

  @Test
  @DisplayName(
      "the ConfigMaps must carry the same run-id as the Job; the plan label must start the plan SHA")
  void consistency() {
    RunFixture f = RunFixture.create(tmp, "bench", 50, 35);
    f.editJob(label("benchplan.dev/run-id", "20261130T101500Z-ffff"));
    expectInvalidJob(
        f,
        "run-id/series labels differ from the first document's ("
            + RunFixture.RUN_ID
            + ", "
            + RunFixture.SERIES
            + ")");
    f.editJob(label("benchplan.dev/run-id", RunFixture.RUN_ID));
    f.editJob(label("benchplan.dev/plan-sha256", "000000000000"));
    expectInvalidJob(
        f,
        "/metadata/labels/benchplan.dev~1plan-sha256 '000000000000' is not the start of"
            + " /metadata/annotations/benchplan.dev~1plan-sha256 '"
            + Sha256.ofFile(f.planFile)
            + "'");
  }
}
