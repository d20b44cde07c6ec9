package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Two renders of one series may differ only in run-scoped fields: endpoint address, Job identity
 * (name, run id), namespace and artifact wiring. Everything else (the measurement itself) must be
 * identical, field for field, including inside the embedded aiperf-config.yaml.
 */
class RenderDiffTest {
  @TempDir Path tmp;

  /** Pointers (in the flattened documents) that are allowed to differ between two runs. */
  private static final List<Pattern> RUN_SCOPED =
      List.of(
          // Job identity: names derived from the run, the run id label, the config hash it implies
          Pattern.compile("doc\\d/metadata/name"),
          Pattern.compile("doc\\d(/spec/template)?/metadata/labels/benchplan\\.dev~1run-id"),
          Pattern.compile("doc\\d/metadata/annotations/benchplan\\.dev~1aiperf-config-sha256"),
          Pattern.compile("doc\\d/spec/template/spec/volumes/\\d+/configMap/name"),
          // namespace
          Pattern.compile("doc\\d/metadata/namespace"),
          // artifact wiring
          Pattern.compile("doc\\d/metadata/annotations/benchplan\\.dev~1artifacts"),
          Pattern.compile(
              "doc\\d/spec/template/spec/volumes/\\d+/(emptyDir|persistentVolumeClaim)(/.*)?"),
          Pattern.compile("doc\\d/spec/template/spec/containers/0/volumeMounts/\\d+/subPath"),
          Pattern.compile(
              "doc\\d/spec/template/spec/containers/0/env/\\d+/value@BENCHPLAN_ARTIFACT_DIR"),
          Pattern.compile("doc\\d/spec/template/spec/containers/0/args/\\d+@artifact-dir"),
          Pattern.compile("config(/settings)?/benchmark/artifacts/dir"),
          Pattern.compile("config(/flags/\\d+)@artifact-dir"),
          Pattern.compile("(config|perf)#run"),
          // the render's own note of where the artifacts go (pod log, or also a claim)
          Pattern.compile("perf#artifacts"),
          // endpoint address: the candidate measured and the ledger it came from
          Pattern.compile("(config|perf)#candidate"),
          Pattern.compile(
              "doc\\d/metadata/annotations/benchplan\\.dev~1(ledger|ledger-sha256|dgd|dgd-sha256)"),
          Pattern.compile("doc\\d/spec/template/spec/affinity(/.*)?"),
          Pattern.compile("doc\\d/metadata/annotations/benchplan\\.dev~1endpoint"),
          Pattern.compile(
              "doc\\d/spec/template/spec/containers/0/env/\\d+/value@BENCHPLAN_ENDPOINT"),
          Pattern.compile("doc\\d/spec/template/spec/containers/0/args/\\d+@url"),
          Pattern.compile("config(/settings)?/benchmark/endpoint/url"),
          Pattern.compile("config(/flags/\\d+)@url"));

  /** Plan identity: differs only when the two renders come from two plans of the series. */
  private static final List<Pattern> PLAN_IDENTITY =
      List.of(
          Pattern.compile("doc\\d(/spec/template)?/metadata/labels/benchplan\\.dev~1plan-sha256"),
          Pattern.compile("doc\\d/metadata/annotations/benchplan\\.dev~1plan-(sha256|path)"),
          Pattern.compile("(config|perf)#plan"));

  @Test
  @DisplayName("re-rendering one plan changes only Job identity, namespace and artifact wiring")
  void sameplanTwoRuns() throws Exception {
    for (String version : List.of("0.11.0", "0.6.0")) {
      PlanFixture.Written plan =
          PlanFixture.userStatic().aiperf(version).write(tmp.resolve(version + "/plan.json"));
      Rendered a = Rendered.render(plan, Files.createDirectories(tmp.resolve(version + "/a")));
      Clock later = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);
      Rendered b =
          Rendered.render(
              plan,
              Files.createDirectories(tmp.resolve(version + "/b")),
              later,
              99,
              "--namespace",
              "bench-runs",
              "--artifacts",
              "pvc:results/series-a");
      Set<String> diff = diff(a, b);
      assertThat(diff)
          .as("AIPerf %s", version)
          .contains(
              "doc0/metadata/namespace",
              "doc1/metadata/name",
              "doc1/metadata/labels/benchplan.dev~1run-id",
              "config#run")
          .anySatisfy(p -> assertThat(p).contains("persistentVolumeClaim"));
      assertOnly(diff, RUN_SCOPED);
    }
  }

  @Test
  @DisplayName("a moved frontend changes the endpoint address and nothing else of the measurement")
  void movedEndpoint() throws Exception {
    PlanFixture.Written p1 = PlanFixture.userStatic().aiperf("0.8.0").write(tmp.resolve("p1.json"));
    PlanFixture.Written p2 =
        PlanFixture.userStatic()
            .aiperf("0.8.0")
            .endpointUrl("http://vllm-agg-frontend-moved.dynamo.svc.cluster.local:8000")
            .write(tmp.resolve("p2.json"));
    Rendered a = Rendered.render(p1, Files.createDirectories(tmp.resolve("a")));
    Rendered b = Rendered.render(p2, Files.createDirectories(tmp.resolve("b")));
    Set<String> diff = diff(a, b);
    assertThat(diff)
        .anySatisfy(p -> assertThat(p).endsWith("@BENCHPLAN_ENDPOINT"))
        .anySatisfy(p -> assertThat(p).endsWith("@url"));
    assertOnly(diff, concat(RUN_SCOPED, PLAN_IDENTITY));
  }

  @Test
  @DisplayName("a different load point is not run-scoped: the diff catches it")
  void loadPointIsNotRunScoped() throws Exception {
    PlanFixture.Written plan = PlanFixture.recipeProxy().write(tmp.resolve("p.json"));
    Rendered a =
        Rendered.render(plan, Files.createDirectories(tmp.resolve("a")), "--load-point", "16");
    Rendered b =
        Rendered.render(plan, Files.createDirectories(tmp.resolve("b")), "--load-point", "64");
    Set<String> diff = diff(a, b);
    Set<String> notRunScoped = new TreeSet<>(diff);
    notRunScoped.removeIf(p -> RUN_SCOPED.stream().anyMatch(r -> r.matcher(p).matches()));
    assertThat(notRunScoped).contains("config/benchmark/phases/1/concurrency");
  }

  private static List<Pattern> concat(List<Pattern> a, List<Pattern> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }

  private static void assertOnly(Set<String> diff, List<Pattern> allowed) {
    Set<String> unexpected = new TreeSet<>(diff);
    unexpected.removeIf(p -> allowed.stream().anyMatch(r -> r.matcher(p).matches()));
    assertThat(unexpected).as("fields that differ but are not run-scoped").isEmpty();
  }

  /** Pointers whose values differ (or exist in one render only). */
  static Set<String> diff(Rendered a, Rendered b) {
    Map<String, String> fa = flatten(a);
    Map<String, String> fb = flatten(b);
    Set<String> keys = new TreeSet<>(fa.keySet());
    keys.addAll(fb.keySet());
    Set<String> diff = new TreeSet<>();
    for (String k : keys) {
      if (!java.util.Objects.equals(fa.get(k), fb.get(k))) {
        diff.add(k);
      }
    }
    return diff;
  }

  private static Map<String, String> flatten(Rendered r) {
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < r.docs().size(); i++) {
      JsonNode d = r.docs().get(i);
      JsonNode data = d.path("data");
      if (d.path("kind").asString().equals("ConfigMap") && data.has("aiperf-config.yaml")) {
        // the embedded config is compared as the file itself, below
        assertThat(data.path("aiperf-config.yaml").asString()).isEqualTo(r.configText());
        var copy = d.deepCopy();
        ((tools.jackson.databind.node.ObjectNode) copy.path("data")).remove("aiperf-config.yaml");
        flatten("doc" + i, copy, out);
      } else {
        flatten("doc" + i, d, out);
      }
    }
    flatten("config", YamlDocuments.read(r.configText()).get(0), out);
    for (String line : r.configText().lines().filter(l -> l.startsWith("#")).toList()) {
      String key =
          line.startsWith("# run ")
              ? "config#run"
              : line.startsWith("# candidate ")
                  ? "config#candidate"
                  : line.startsWith("# plan ") ? "config#plan" : "config#" + line;
      out.put(key, line);
    }
    for (String line : r.perfText().lines().filter(l -> l.startsWith("#")).toList()) {
      String key =
          line.startsWith("# run ")
              ? "perf#run"
              : line.startsWith("# candidate ")
                  ? "perf#candidate"
                  : line.startsWith("# plan ")
                      ? "perf#plan"
                      : line.startsWith("# artifacts: ") ? "perf#artifacts" : "perf#" + line;
      out.put(key, line);
    }
    return out;
  }

  private static void flatten(String prefix, JsonNode n, Map<String, String> out) {
    if (n.isObject()) {
      for (String k : n.propertyNames()) {
        flatten(prefix + "/" + k.replace("~", "~0").replace("/", "~1"), n.get(k), out);
      }
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        JsonNode item = n.get(i);
        String key = prefix + "/" + i;
        if (item.isObject() && item.has("name") && item.has("value")) {
          out.put(key + "/name", item.get("name").asString());
          out.put(key + "/value@" + item.get("name").asString(), item.get("value").asString());
        } else if (item.isString() && i > 0 && n.get(i - 1).asString().startsWith("--")) {
          out.put(key + "@" + n.get(i - 1).asString().substring(2), item.asString());
        } else {
          flatten(key, item, out);
        }
      }
    } else {
      out.put(prefix, n.toString());
    }
  }
}
