package dev.benchplan.validate;

import dev.benchplan.json.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity of one validate run: its run ID ({@code YYYYMMDDTHHMMSSZ-<8 hex>}) and the names and
 * labels derived from it. Everything validate creates carries {@link #labels()}, which is how
 * cleanup recognises its own objects and never touches anything else.
 *
 * @param runId the run ID
 */
public record ValidateRun(String runId) {
  /** Prefix of every namespace validate creates. */
  public static final String NAMESPACE_PREFIX = "benchplan-validate-";

  /** The name of the default DGD. */
  public static final String DGD_NAME = "benchplan-validate";

  /** Label: which tool manages the object. */
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  /** Label: the component of benchplan that created it. */
  public static final String COMPONENT = "app.kubernetes.io/component";

  /** Label: the validate run that created it. */
  public static final String RUN_LABEL = "benchplan.dev/validate-run";

  private static final Pattern RUN_ID = Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]{8}");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final SecureRandom RANDOM = new SecureRandom();

  public ValidateRun {
    Objects.requireNonNull(runId, "runId");
    if (!RUN_ID.matcher(runId).matches()) {
      throw new IllegalArgumentException(
          "run ID must look like 20260101T000000Z-0a1b2c3d, got " + runId);
    }
  }

  /** A new run ID from the clock and 32 random bits. */
  public static ValidateRun start(Instant now) {
    byte[] b = new byte[4];
    RANDOM.nextBytes(b);
    return new ValidateRun(STAMP.format(now) + "-" + HexFormat.of().formatHex(b));
  }

  /** {@code benchplan-validate-<first 8 hex of sha256(run ID)>}. */
  public String namespace() {
    return NAMESPACE_PREFIX + Sha256.hex(runId.getBytes(StandardCharsets.UTF_8)).substring(0, 8);
  }

  /** The labels on everything this run creates. */
  public Map<String, String> labels() {
    return Map.of(MANAGED_BY, "benchplan", COMPONENT, "validate", RUN_LABEL, runId);
  }
}
