package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.SchemaValidator;
import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;

/** A render's output read back, plus the shared helpers the render tests use. */
record Rendered(RenderResult result, String configText, String perfText, List<JsonNode> docs) {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T12:34:56Z"), ZoneOffset.UTC);

  /** Renders with a fixed clock and seed (so the run id is known) and reads both files back. */
  static Rendered render(PlanFixture.Written plan, Path deployRoot, String... options) {
    return render(plan, deployRoot, CLOCK, 7, options);
  }

  static Rendered render(
      PlanFixture.Written plan, Path deployRoot, Clock clock, long seed, String... options) {
    String namespace = null;
    String jobName = null;
    String image = null;
    String artifacts = null;
    String traceSource = null;
    String loadPoint = null;
    for (int i = 0; i < options.length; i += 2) {
      String v = options[i + 1];
      switch (options[i]) {
        case "--namespace" -> namespace = v;
        case "--job-name" -> jobName = v;
        case "--image" -> image = v;
        case "--artifacts" -> artifacts = v;
        case "--trace-source" -> traceSource = v;
        case "--load-point" -> loadPoint = v;
        default -> throw new IllegalArgumentException(options[i]);
      }
    }
    RenderResult r =
        PlanRenderer.render(
            RenderRequest.builder(plan.path(), plan.sha256(), deployRoot)
                .namespace(namespace)
                .jobName(jobName)
                .image(image)
                .artifacts(artifacts)
                .traceSource(traceSource)
                .loadPoint(loadPoint)
                .runId(clock, new Random(seed))
                .build());
    return read(r);
  }

  static Rendered read(RenderResult r) {
    try {
      String config = Files.readString(r.aiperfConfig(), StandardCharsets.UTF_8);
      String perf = Files.readString(r.perfYaml(), StandardCharsets.UTF_8);
      return new Rendered(r, config, perf, YamlDocuments.read(perf));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  JsonNode job() {
    JsonNode last = docs.get(docs.size() - 1);
    assertThat(last.path("kind").asString()).isEqualTo("Job");
    return last;
  }

  List<JsonNode> configMaps() {
    List<JsonNode> cms = new ArrayList<>();
    for (JsonNode d : docs.subList(0, docs.size() - 1)) {
      assertThat(d.path("kind").asString()).isEqualTo("ConfigMap");
      cms.add(d);
    }
    return cms;
  }

  JsonNode container() {
    return job().at("/spec/template/spec/containers/0");
  }

  /** The aiperf-config.yaml document. */
  JsonNode config() {
    return YamlDocuments.read(configText).get(0);
  }

  /** The strict Kubernetes 1.20 schemas and AIPerf's config schema (loaded once). */
  static final class Schemas {
    private static SchemaValidator job;
    private static SchemaValidator configMap;
    private static SchemaValidator aiperf;

    static synchronized SchemaValidator job() {
      if (job == null) {
        job =
            SchemaValidator.fromFile(
                SharedData.require("kubernetes/job-batch-v1-k8s1.20-strict.schema.json"));
      }
      return job;
    }

    static synchronized SchemaValidator configMap() {
      if (configMap == null) {
        configMap =
            SchemaValidator.fromFile(
                SharedData.require("kubernetes/configmap-v1-k8s1.20-strict.schema.json"));
      }
      return configMap;
    }

    static synchronized SchemaValidator aiperf() {
      if (aiperf == null) {
        aiperf = SchemaValidator.fromFile(SharedData.require("aiperf/aiperf-config.schema.json"));
      }
      return aiperf;
    }

    private Schemas() {}
  }

  /** Asserts every document passes its strict schema. */
  void assertKubernetesValid() {
    for (JsonNode d : docs) {
      SchemaValidator v =
          d.path("kind").asString().equals("Job") ? Schemas.job() : Schemas.configMap();
      assertThat(v.validate(d))
          .as("%s %s", d.path("kind").asString(), d.at("/metadata/name").asString())
          .isEmpty();
    }
  }

  /** Lists every file under a folder (to prove nothing was written). */
  static List<String> tree(Path root) {
    try (var s = Files.walk(root)) {
      return s.map(p -> root.relativize(p).toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
