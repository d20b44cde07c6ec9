package dev.benchplan.render;

import dev.benchplan.testing.PlanFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Random;

/** Renders an operator-engine plan for tests outside this package (the cluster tier). */
public final class OperatorPlans {
  private OperatorPlans() {}

  /**
   * Writes an operator-engine plan (AIPerf 0.13.0, closed loop at {@code concurrency}), renders it
   * into {@code dir/deploy} for {@code namespace}, and points the AIPerfJobs' results-service
   * annotation at {@code resultsService} (the stand-in operator's Service).
   *
   * @return the deploy root
   */
  public static Path render(
      Path dir,
      String namespace,
      String resultsService,
      Clock clock,
      long seed,
      int... concurrency) {
    return render(dir, namespace, resultsService, clock, seed, null, concurrency);
  }

  /**
   * As {@link #render(Path, String, String, Clock, long, int...)}, as one arm of an AB/BA pair
   * ({@code render --pair}) when {@code pair} is given.
   */
  public static Path render(
      Path dir,
      String namespace,
      String resultsService,
      Clock clock,
      long seed,
      @org.jspecify.annotations.Nullable PairLabel pair,
      int... concurrency) {
    try {
      int[] cpw = new int[concurrency.length];
      java.util.Arrays.fill(cpw, 100);
      PlanFixture.Written plan =
          OperatorRenderTest.operator(
                  PlanFixture.userStatic()
                      .aiperf("0.13.0")
                      .closedLoop(concurrency)
                      .requestCount(80),
                  cpw)
              .write(dir.resolve("plan.json"));
      return renderPointed(plan, dir, namespace, resultsService, clock, seed, pair);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes an operator-engine plan replaying {@code trace} on its fixed schedule (AIPerf 0.13.0),
   * renders it into {@code dir/deploy} (the trace in a ConfigMap) and points the results-service
   * annotation at {@code resultsService}.
   *
   * @return the deploy root
   */
  public static Path renderTrace(
      Path dir, String namespace, String resultsService, Clock clock, long seed, Path trace) {
    try {
      PlanFixture.Written plan =
          OperatorRenderTest.operatorReplay(
                  PlanFixture.userTrace(trace, trace.toString()).aiperf("0.13.0"))
              .write(dir.resolve("plan.json"));
      return renderPointed(plan, dir, namespace, resultsService, clock, seed, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Renders {@code plan} into {@code dir/deploy} and points the results-service annotation at
   * {@code resultsService}; returns the deploy root.
   */
  private static Path renderPointed(
      PlanFixture.Written plan,
      Path dir,
      String namespace,
      String resultsService,
      Clock clock,
      long seed,
      @org.jspecify.annotations.Nullable PairLabel pair)
      throws IOException {
    Path root = Files.createDirectories(dir.resolve("deploy"));
    RenderResult r =
        PlanRenderer.render(
            RenderRequest.builder(plan.path(), plan.sha256(), root)
                .namespace(namespace)
                .runId(clock, new Random(seed))
                .pair(pair)
                .build());
    Path jobs = r.perfYaml();
    String text =
        Files.readString(jobs, StandardCharsets.UTF_8)
            .replace(AiperfJobContract.DEFAULT_RESULTS_SERVICE, resultsService);
    Files.writeString(jobs, text, StandardCharsets.UTF_8);
    return root;
  }
}
