package dev.benchplan.kube.run;

import dev.benchplan.aiperf.export.AiperfPodLog;
import dev.benchplan.artifacts.ArtifactChannel;
import dev.benchplan.artifacts.ArtifactChannelException;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.progress.RunProgress;
import dev.benchplan.render.JobContract;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.run.PerfYaml;
import dev.benchplan.run.PlanReference;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.runrecord.RunRecordDocument;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * {@code run --from-log}: the run directory {@code run} would have written, from the AIPerf Job's
 * log saved with {@code kubectl logs} (an interrupted {@code run}, a lost connection). Nothing in
 * the cluster is read or changed. The log is checked whole first — its end marker (the Job's exit
 * line) and, when it carries one, every chunk, file and checksum of its artifact block — and only
 * then goes through the collection and finisher {@code run} uses, so a cut or tampered log writes
 * nothing. What a log cannot tell (the pod, its node, the Job's status, the isolation preflight) is
 * null in run.json, and the run is not eligible as evidence ({@code ISOLATION_UNVERIFIED}).
 */
public final class LogRecovery {
  private LogRecovery() {}

  /**
   * Recovers the run of {@code request}'s perf.yaml from {@code logFile}.
   *
   * @throws BenchplanException exit 2 when the log is unreadable, has no end marker, is cut or
   *     fails a checksum, or holds no tree a log can carry (nothing written)
   */
  public static RunOutcome recover(
      RunRequest request, Path logFile, Clock clock, RunProgress sink) {
    Instant start = clock.instant();
    ProgressReporter progress = new ProgressReporter(sink, clock, start);
    PerfYaml perf = PerfYaml.read(request.perfYaml());
    PlanReference plan = PlanReference.verify(perf);
    // the log first: a bad log is the user's first problem, before an earlier run directory
    String log = read(logFile);
    check(log, logFile);
    ConstraintSet constraints =
        RunStart.constraints(request, plan.gates(), perf.annotation(JobContract.PLAN_PATH));
    RunDirectory dir = RunStart.directory(request, perf.runId());
    progress.report("collecting", "from the saved pod log " + logFile);
    String namespace = RunStart.namespace(request, perf.namespace(), null);
    Job job =
        new JobBuilder()
            .withNewMetadata()
            .withName(perf.jobName())
            .withNamespace(namespace)
            .endMetadata()
            .build();
    String why =
        "recovered from the saved pod log "
            + logFile
            + ": the pod, its node, the Job's status and the isolation preflight (namespace, other"
            + " benchmarks of the endpoint, serving pods and nodes) are not known";
    String[] dgd = perf.annotation(JobContract.DGD).split("/", 2);
    Preflight.Result pre =
        new Preflight.Result(
            perf.annotation(JobContract.ENDPOINT),
            new RunRecordDocument.NamespaceCheck(
                namespace, null, "not checked: recovered from a saved pod log"),
            new RunRecordDocument.OtherBenchmarks("namespace", List.of()),
            new RunRecordDocument.DgdPods(dgd[0], dgd.length > 1 ? dgd[1] : dgd[0], List.of()),
            List.of(),
            List.of(Preflight.finding(BlockerCode.ISOLATION_UNVERIFIED, why)),
            false,
            List.of(),
            Set.of());
    JobWatch.Result watched = new JobWatch.Result("completed", why, null, null, start);
    KubeRunService.Collected c =
        KubeRunService.collect(
            clock,
            request,
            perf,
            plan,
            constraints,
            pre,
            null,
            null,
            log,
            null,
            "saved pod log " + logFile,
            namespace,
            dir,
            job,
            watched,
            start,
            start,
            null,
            null);
    progress.report("done", c.verdict().verdict().json() + " -> " + c.runDir());
    return new RunOutcome(
        perf.runId(),
        c.runDir(),
        c.verdict(),
        c.exitCode(),
        c.exitReason(),
        c.run(),
        List.of("nothing in the cluster: recovered from " + logFile));
  }

  /** The log as UTF-8 text; exit 2 when it cannot be read or is not UTF-8. */
  static String read(Path logFile) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(logFile);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--from-log", logFile),
          logFile + ": cannot read the saved pod log: " + e.getMessage());
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(logFile),
          logFile + ": not a pod log: not UTF-8 text (" + e.getMessage() + ")");
    }
  }

  /**
   * Exit 2 unless the log ends with the Job's exit line and its artifact block (when it has one)
   * decodes and verifies whole: decoded into a scratch folder that is deleted again.
   */
  static void check(String log, Path logFile) {
    if (AiperfPodLog.parse(log).exitCode() == null) {
      throw BenchplanException.invalid(
          ErrorLocation.file(logFile),
          logFile
              + ": no end marker (the Job's last line '"
              + AiperfPodLog.EXIT_PREFIX
              + "<code> ===='): the log is cut, or was saved before the Job ended; nothing written");
    }
    if (!ArtifactChannel.present(log)) {
      if (ArtifactChannel.tooLarge(log)) {
        throw BenchplanException.invalid(
            ErrorLocation.file(logFile),
            logFile
                + ": the AIPerf tree stayed on the artifact volume (larger than the log bound) and"
                + " the log holds only its manifest: a log alone cannot restore it; nothing written");
      }
      return;
    }
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory("benchplan-from-log-");
      try (BufferedReader r = new BufferedReader(new StringReader(log))) {
        ArtifactChannel.decode(r, scratch.resolve("aiperf"), "saved pod log " + logFile);
      }
    } catch (ArtifactChannelException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(logFile), e.getMessage() + "; nothing written");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      RunDirectory.deleteQuietly(scratch);
    }
  }
}
