package dev.benchplan.verify;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.JsonInput;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.render.AiperfJobContract;
import dev.benchplan.render.PlanRenderer;
import dev.benchplan.render.RenderManifest;
import dev.benchplan.render.RenderRequest;
import dev.benchplan.render.manifest.JobProgram;
import dev.benchplan.render.manifest.PerfManifests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Verifies a DEPLOY_ROOT by its {@code benchmark/render-manifest.json}: every listed file hashes to
 * the manifest, the plan it names verifies, and a re-render with the recorded options, run id and
 * names (into a scratch folder) gives identical bytes. A root rendered with another Job program
 * (another benchplan) gets a note saying so instead of the re-render.
 */
final class DeployRootVerifier {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

  private final PlanVerifier plans;

  DeployRootVerifier(PlanVerifier plans) {
    this.plans = plans;
  }

  VerifyReport verify(Path deployRoot) {
    Path root = deployRoot.toAbsolutePath().normalize();
    Path manifestFile = root.resolve(PlanRenderer.BENCHMARK_DIR).resolve(RenderManifest.FILE);
    String label = deployRoot + "/" + PlanRenderer.BENCHMARK_DIR + "/" + RenderManifest.FILE;
    byte[] manifestBytes;
    try {
      manifestBytes = Files.readAllBytes(manifestFile);
    } catch (IOException e) {
      throw InputErrors.unreadable(null, label, e);
    }
    JsonNode m =
        JsonInput.parse(manifestBytes)
            .orThrow(null, label, "the render-manifest.json benchplan render wrote");
    List<String> checks = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    checks.add("manifest schema");
    for (SchemaValidator.Problem p : SchemaValidator.bundled(RenderManifest.SCHEMA).validate(m)) {
      findings.add(
          new Finding(
              label, p.pointer(), "does not match " + RenderManifest.SCHEMA + ": " + p.message()));
    }
    if (!findings.isEmpty()) {
      return new VerifyReport("deploy_root", deployRoot.toString(), null, checks, findings, notes);
    }
    checks.add("rendered files re-hashed");
    JsonNode files = m.get("files");
    for (int i = 0; i < files.size(); i++) {
      String rel = files.get(i).get("path").asString();
      Path f = PlanPaths.resolve(root, rel);
      if (!Files.isRegularFile(f)) {
        findings.add(new Finding(label, "/files/" + i + "/path", rel + " is missing"));
      } else if (!Sha256.ofFile(f).equals(files.get(i).get("sha256").asString())) {
        findings.add(
            new Finding(
                label,
                "/files/" + i + "/sha256",
                rel
                    + " hashes to "
                    + Sha256.ofFile(f)
                    + ", the manifest lists "
                    + files.get(i).get("sha256").asString()));
      }
    }
    Path plan = PlanPaths.resolve(root, m.at("/plan/path").asString());
    String planSha = m.at("/plan/sha256").asString();
    checks.add("the plan it names");
    try {
      VerifyReport p = plans.verify(plan, planSha);
      findings.addAll(p.findings());
      p.notes().forEach(n -> notes.add("plan " + m.at("/plan/path").asString() + ": " + n));
    } catch (BenchplanException e) {
      findings.add(new Finding(label, "/plan/path", String.valueOf(e.getMessage())));
      return new VerifyReport("deploy_root", deployRoot.toString(), null, checks, findings, notes);
    }
    String other = renderedByAnother(m);
    if (other != null) {
      notes.add(other + ": the files were re-hashed, the byte-for-byte re-render skipped");
    } else {
      checks.add("re-rendered byte for byte");
      rerender(root, label, m, plan, planSha, findings);
    }
    return new VerifyReport("deploy_root", deployRoot.toString(), null, checks, findings, notes);
  }

  /**
   * Why this DEPLOY_ROOT cannot be re-rendered byte for byte by this benchplan (a perf.yaml whose
   * Job program is not this version's), or null when it can.
   */
  private static @Nullable String renderedByAnother(JsonNode m) {
    if (!m.path("engine")
        .asString(AiperfJobContract.JOB_ENGINE)
        .equals(AiperfJobContract.JOB_ENGINE)) {
      return null;
    }
    String recorded = m.path("job_program_sha256").asString(null);
    String mine = PerfManifests.programSha256();
    if (mine.equals(recorded)) {
      return null;
    }
    return "rendered by another version of benchplan ("
        + m.at("/benchplan/version").asString()
        + ", commit "
        + m.at("/benchplan/commit").asString()
        + "): "
        + (recorded == null
            ? "its perf.yaml carries the Job program inline (before " + JobProgram.FILE + ")"
            : "its Job program hashes to " + recorded + ", this version's to " + mine);
  }

  private static void rerender(
      Path root, String label, JsonNode m, Path plan, String planSha, List<Finding> findings) {
    String runId = m.get("run_id").asString();
    Clock clock =
        Clock.fixed(
            LocalDateTime.parse(runId.substring(0, 16), STAMP).toInstant(ZoneOffset.UTC),
            ZoneOffset.UTC);
    int bits = Integer.parseInt(runId.substring(17), 16);
    RandomGenerator random =
        new RandomGenerator() {
          @Override
          public long nextLong() {
            return bits;
          }

          @Override
          public int nextInt(int bound) {
            return bits; // replays the recorded 16 bits of the run id
          }
        };
    JsonNode o = m.get("options");
    Path scratch;
    try {
      scratch = Files.createTempDirectory("benchplan-verify-render");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      PlanRenderer.render(
          RenderRequest.builder(plan, planSha, scratch)
              .namespace(text(o, "namespace"))
              .jobName(text(o, "job_name"))
              .image(text(o, "image"))
              .artifacts(text(o, "artifacts"))
              .traceSource(text(o, "trace_source"))
              .loadPoint(text(o, "load_point"))
              .runId(clock, random)
              .modelWaitSeconds(
                  o.get("model_wait_seconds").isNull() ? null : o.get("model_wait_seconds").asInt())
              .readyRequestTimeoutSeconds(
                  o.path("ready_request_timeout_seconds").isIntegralNumber()
                      ? o.get("ready_request_timeout_seconds").asInt()
                      : null)
              .build(),
          root); // the rendered files name plan and ledger relative to this DEPLOY_ROOT
      JsonNode files = m.get("files");
      for (int i = 0; i < files.size(); i++) {
        String rel = files.get(i).get("path").asString();
        Path mine = PlanPaths.resolve(root, rel);
        Path again = PlanPaths.resolve(scratch, rel);
        if (rel.endsWith("/" + RenderManifest.FILE) || !Files.isRegularFile(mine)) {
          continue;
        }
        if (!Files.isRegularFile(again)
            || !Arrays.equals(Files.readAllBytes(mine), Files.readAllBytes(again))) {
          findings.add(
              new Finding(
                  root.relativize(mine).toString(),
                  firstDifference(mine, again),
                  "re-rendered with the recorded options, run id and names, the bytes differ"));
        }
      }
    } catch (BenchplanException e) {
      findings.add(new Finding(label, "/options", "re-rendering failed: " + e.getMessage()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(scratch);
    }
  }

  private static @Nullable String text(JsonNode o, String name) {
    JsonNode v = o.get(name);
    return v == null || v.isNull() ? null : v.asString();
  }

  private static String firstDifference(Path a, Path b) throws IOException {
    if (!Files.isRegularFile(b)) {
      return "not re-rendered";
    }
    List<String> x = Files.readAllLines(a);
    List<String> y = Files.readAllLines(b);
    for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
      String l = i < x.size() ? x.get(i) : null;
      String r = i < y.size() ? y.get(i) : null;
      if (l == null || !l.equals(r)) {
        return "line " + (i + 1) + " (" + (r == null ? "absent" : r.strip()) + " expected)";
      }
    }
    return "bytes";
  }

  private static void delete(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a scratch folder left in the temp directory is harmless
    }
  }
}
