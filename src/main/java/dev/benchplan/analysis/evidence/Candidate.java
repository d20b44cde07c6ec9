package dev.benchplan.analysis.evidence;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.json.Sha256;
import dev.benchplan.runrecord.RunRecordDocument;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a run measured, apart from its series (issue 31): runs of one series may measure different
 * builds. Runs of different candidates are never pooled into one load point and never form a noise
 * floor together.
 *
 * <ul>
 *   <li>{@code run.json}'s {@code candidate} block: the ledger's SHA-256, the DGD and its
 *       manifest's SHA-256, the endpoint; its id is derived from them.
 *   <li>{@code --label NAME=DIR}: the user names the candidate of the runs under DIR (plain AIPerf
 *       folders record none).
 *   <li>otherwise "unknown": the runs under one RUN argument (one AIPerf invocation: its {@code
 *       profile_runs/} repetitions, a sweep; one benchplan run directory) are one candidate, and
 *       two RUN arguments are two.
 * </ul>
 *
 * @param id what decides pooling: {@code ledger:<sha12>}, {@code label:NAME} or {@code unknown:<RUN
 *     argument>}
 * @param name how documents and tables name it
 * @param source where the identity came from
 * @param ledgerSha256 the ledger's SHA-256 run.json records, or null
 * @param dgd the DGD's {@code namespace/name} run.json records, or null
 * @param dgdSha256 the DGD manifest's SHA-256 run.json records, or null
 * @param endpoint the endpoint run.json records, or null
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Candidate(
    String id,
    String name,
    String source,
    @JsonProperty("ledger_sha256") @Nullable String ledgerSha256,
    @Nullable String dgd,
    @JsonProperty("dgd_sha256") @Nullable String dgdSha256,
    @Nullable String endpoint) {
  /** The name of a candidate nobody recorded or named. */
  public static final String UNKNOWN = "unknown";

  public Candidate {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(source, "source");
  }

  /** True when run.json recorded it or the user named it; false for "unknown". */
  @JsonIgnore
  public boolean known() {
    return !id.startsWith("unknown:");
  }

  /** The candidate run.json records, else the unknown candidate of the run's own directory. */
  public static Candidate of(RunSource source) {
    RunRecordDocument run = source.runRecord();
    RunRecordDocument.Candidate block = run == null ? null : run.candidate();
    return block != null ? recorded(block) : unknown(source.dir());
  }

  /** run.json's {@code candidate} block (absent from an older run.json: see {@link #unknown}). */
  static Candidate recorded(RunRecordDocument.Candidate block) {
    String ledger = block.ledgerSha256();
    String dgd = block.dgd();
    String dgdSha = block.dgdSha256();
    String endpoint = block.endpoint();
    String key = ledger + "\n" + dgd + "\n" + dgdSha + "\n" + endpoint;
    String id = "ledger:" + Sha256.hex(key.getBytes(StandardCharsets.UTF_8)).substring(0, 12);
    return new Candidate(
        id,
        (dgd.isBlank() ? "ledger" : dgd) + " (ledger " + ledger.substring(0, 12) + ")",
        "run.json /candidate",
        ledger,
        dgd,
        dgdSha,
        endpoint);
  }

  /** The candidate {@code --label NAME=DIR} names. */
  public static Candidate labelled(String name, Path dir) {
    return new Candidate(
        "label:" + name, name, "--label " + name + "=" + dir, null, null, null, null);
  }

  /** A run's recorded candidate given a display name by {@code --label}; the id stays. */
  public Candidate named(String label, Path dir) {
    return new Candidate(
        id,
        label,
        source + ", named by --label " + label + "=" + dir,
        ledgerSha256,
        dgd,
        dgdSha256,
        endpoint);
  }

  /** The unknown candidate of one RUN argument. */
  public static Candidate unknown(Path arg) {
    Path abs = arg.toAbsolutePath().normalize();
    Path file = abs.getFileName();
    return new Candidate(
        "unknown:" + abs,
        UNKNOWN + " (" + (file == null ? abs : file) + ")",
        "unknown: no candidate recorded (plain AIPerf folder or an older run.json) and no --label;"
            + " the runs under one RUN argument are one candidate",
        null,
        null,
        null,
        null);
  }

  /** The candidate a compare side names for its runs of unknown identity. */
  public static Candidate side(String side) {
    return new Candidate(
        "side:" + side,
        side,
        "named by --" + side + ": the runs given there, none of which records a candidate",
        null,
        null,
        null,
        null);
  }
}
