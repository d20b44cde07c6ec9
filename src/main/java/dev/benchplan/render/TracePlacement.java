package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.render.manifest.TraceVolume;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Decides how the plan's trace reaches the pod and checks it has not changed since planning: a
 * trace readable here must hash to the plan's SHA-256; it travels in a ConfigMap when it fits,
 * otherwise the operator names a PVC holding it. A host path is never mounted.
 *
 * @param volume the trace volume for the Job
 * @param sha256 the plan's SHA-256 of the trace (checked again in the pod)
 * @param localFile the trace file here, or null when it is not readable locally
 */
public record TracePlacement(TraceVolume volume, String sha256, @Nullable Path localFile) {
  /** The largest trace carried in a ConfigMap (Kubernetes caps an object at 1 MiB). */
  public static final long CONFIGMAP_BUDGET_BYTES = 900L * 1024;

  /** Places the trace of {@code plan}, resolving a relative path against the plan's folder. */
  public static TracePlacement place(VerifiedPlan verified, TraceSource source) {
    BenchmarkPlan.Trace trace =
        Objects.requireNonNull(
            verified.plan().workload().trace(), "a trace workload names its trace");
    String planRef = verified.path() + " /workload/trace";
    Path file = Path.of(trace.path());
    if (!file.isAbsolute()) {
      file = verified.folder().resolve(file);
    }
    file = file.normalize();
    boolean readable = Files.isRegularFile(file) && Files.isReadable(file);
    if (readable) {
      String actual = Sha256.ofFile(file);
      if (!actual.equals(trace.sha256())) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": SHA-256 is "
                + actual
                + ", but "
                + planRef
                + "/sha256 recorded "
                + trace.sha256()
                + ": the trace changed since planning; expected the planned file"
                + " (plan again to use the new one)");
      }
    }
    if (source.kind() == TraceSource.Kind.PVC) {
      return new TracePlacement(
          // a PVC source always names its claim and path (TraceSource.parse)
          new TraceVolume.OnClaim(
              Objects.requireNonNull(source.claim(), "claim"),
              Objects.requireNonNull(source.path(), "path")),
          trace.sha256(),
          readable ? file : null);
    }
    if (!readable) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file
              + ": the trace named by "
              + planRef
              + "/path is not readable here, so it cannot"
              + " travel in a ConfigMap: expected the file, or --trace-source pvc:CLAIM/PATH");
    }
    long size;
    byte[] bytes;
    try {
      size = Files.size(file);
      if (size > CONFIGMAP_BUDGET_BYTES) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": the trace is "
                + size
                + " bytes, over the "
                + CONFIGMAP_BUDGET_BYTES
                + "-byte ConfigMap budget: expected --trace-source pvc:CLAIM/PATH naming a PVC"
                + " that holds this file (a host path is never mounted)");
      }
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": cannot read trace: " + e.getMessage(), e);
    }
    String content;
    try {
      content =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file
              + ": the trace is not UTF-8 text, so it cannot travel in a ConfigMap's data:"
              + " expected --trace-source pvc:CLAIM/PATH");
    }
    if (!Sha256.hex(content.getBytes(StandardCharsets.UTF_8)).equals(trace.sha256())) {
      throw new IllegalStateException("trace text does not re-encode to its bytes");
    }
    return new TracePlacement(new TraceVolume.InConfigMap(content), trace.sha256(), file);
  }

  /** How the trace travels, for annotations and output. */
  public String describe() {
    if (volume instanceof TraceVolume.OnClaim claim) {
      return "pvc:" + claim.claim() + "/" + claim.path();
    }
    return "configmap";
  }
}
