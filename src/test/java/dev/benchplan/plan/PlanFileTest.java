package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.workload.ScannerTraceInspector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** {@link PlanFile#verify}: the one reader of a written plan (render, run and validate use it). */
class PlanFileTest {
  @TempDir Path tmp;
  PlanFixture.Inputs fx;

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
  }

  private PlanResult staticPlan() {
    return new PlanService()
        .plan(
            fx.request(
                fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD), fx.options().build()));
  }

  /** How a schema violation of the plan begins. */
  private static final String SCHEMA = "does not match schema benchmark-plan.schema.json: ";

  /** Writes an edited copy of {@code plan} and returns it. */
  private Path edited(PlanResult plan, Consumer<ObjectNode> edit) throws Exception {
    ObjectNode tree = (ObjectNode) PlanJson.parse(Files.readAllBytes(plan.planPath()));
    edit.accept(tree);
    Path p = tmp.resolve("edited.json");
    Files.write(p, CanonicalJson.bytes(tree));
    return p;
  }

  /** Exit 2 with {@code <file>: message}, the whole message. */
  private static void expectInvalid(Path file, String message) {
    assertThatThrownBy(() -> PlanFile.verify(file, Sha256.ofFile(file)))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(file.toAbsolutePath().normalize() + ": " + message);
  }

  @Test
  @DisplayName(
      "a plan written by plan reads back as the typed plan it was built from, byte for byte")
  void roundTrip() throws Exception {
    PlanResult r = staticPlan();
    VerifiedPlan v = PlanFile.verify(r.planPath(), r.sha256());
    assertThat(v.sha256()).isEqualTo(r.sha256());
    assertThat(v.path()).isEqualTo(r.planPath().toAbsolutePath().normalize());
    assertThat(PlanJson.canonical(v.plan())).isEqualTo(Files.readAllBytes(r.planPath()));
    assertThat(v.plan().experiment().requestCount())
        .isEqualTo(r.plan().experiment().requestCount());
    assertThat(r.verified().plan()).isSameAs(r.plan());
  }

  @Test
  @DisplayName("a trace plan keeps the whole trace report typed, and it reads back byte for byte")
  void traceRoundTrip() throws Exception {
    Path trace = Path.of("examples/traces/example_trace.jsonl").toAbsolutePath();
    PlanResult r =
        new PlanService()
            .plan(
                fx.request(
                    fx.workload(
                        "t.yaml",
                        """
        profile: {name: Agent Replay, type: agentic}
        artifacts:
          supporting_traces: [%s]
        """
                            .formatted(trace)),
                    fx.options().build(),
                    PlanFixture.Inputs.question(),
                    new ScannerTraceInspector(),
                    PlanFixture.Inputs.OFFLINE));
    VerifiedPlan v = PlanFile.verify(r.planPath(), r.sha256());
    BenchmarkPlan.Trace t = v.plan().workload().trace();
    assertThat(t.sha256()).isEqualTo(Sha256.ofFile(trace));
    assertThat(t.valid()).isTrue();
    assertThat(t.rows()).isEqualTo(200);
    assertThat(t.timestampMs().presentRows()).isEqualTo(200);
    assertThat(t.hashIds().blockSize()).isEqualTo(PlanService.TRACE_BLOCK_SIZE);
    assertThat(t.window()).isNull();
    assertThat(PlanJson.canonical(v.plan())).isEqualTo(Files.readAllBytes(r.planPath()));
  }

  @Test
  @DisplayName("a wrong or malformed SHA-256 names the file and where the SHA-256 came from")
  void sha() {
    PlanResult r = staticPlan();
    String wrong = "a".repeat(64);
    assertThatThrownBy(() -> PlanFile.verify(r.planPath(), wrong, "perf.yaml annotation"))
        .hasMessage(
            r.planPath()
                + ": SHA-256 is "
                + r.sha256()
                + ", not "
                + wrong
                + " (perf.yaml annotation): the plan was edited or another file was"
                + " named; expected the plan exactly as it was written");
    assertThatThrownBy(() -> PlanFile.verify(r.planPath(), "abc"))
        .hasMessage("--plan-sha256 'abc': expected 64 hexadecimal characters");
    assertThatThrownBy(() -> PlanFile.verify(tmp.resolve("none.json"), r.sha256()))
        .hasMessage(
            tmp.resolve("none.json")
                + ": plan file does not exist: expected the plan written by `benchplan plan`");
  }

  @Test
  @DisplayName("schema violations name the JSON pointer")
  void schema() throws Exception {
    PlanResult r = staticPlan();
    expectInvalid(
        edited(r, t -> t.withObject("/experiment").put("measurement_limit_s", 0)),
        SCHEMA + "/experiment/measurement_limit_s: must have a minimum value of 1 [minimum]");
    expectInvalid(
        edited(r, t -> t.remove("aiperf")),
        SCHEMA + "/: required property 'aiperf' not found [required]");
  }

  @Test
  @DisplayName("cross-field rules the schema cannot state name the JSON pointer")
  void crossField() throws Exception {
    PlanResult r = staticPlan();
    expectInvalid(
        edited(r, t -> t.withObject("/experiment").putNull("concurrency")),
        "/experiment/concurrency: null, but measurement_mode is closed_loop: expected a list of"
            + " concurrency points");
    expectInvalid(
        edited(r, t -> t.withObject("/deployment").put("endpoint_url", "http://svc.ns:8000/v1")),
        "/deployment/endpoint_url: 'http://svc.ns:8000/v1': expected a base URL without a path,"
            + " query or fragment");
    expectInvalid(
        edited(r, t -> t.withObject("/workload").remove("synthetic")),
        SCHEMA + "/workload: required property 'synthetic' not found [required]");
  }

  @Test
  @DisplayName("a schema-valid value the plan cannot hold (a seed beyond long) names its pointer")
  void outOfRange() throws Exception {
    PlanResult r = staticPlan();
    expectInvalid(
        edited(
            r,
            t ->
                t.withObject("/experiment")
                    .put("seed", new java.math.BigInteger("99999999999999999999"))),
        SCHEMA + "/experiment/seed: must have a maximum value of 4294967295 [maximum]");
  }

  @Test
  @DisplayName("the base URL loses a trailing slash; request counts are long")
  void values() throws Exception {
    PlanResult r = staticPlan();
    Path p =
        edited(
            r,
            t -> {
              t.withObject("/deployment").put("endpoint_url", "http://svc.ns:8000/");
              t.withObject("/experiment").put("request_count", 3_000_000_000L);
            });
    VerifiedPlan v = PlanFile.verify(p, Sha256.ofFile(p));
    assertThat(v.endpointUrl()).isEqualTo("http://svc.ns:8000");
    assertThat(v.plan().experiment().requestCount()).isEqualTo(3_000_000_000L);
  }
}
