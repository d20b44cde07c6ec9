package dev.benchplan.gate;

import dev.benchplan.aiperf.export.AiperfExport;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What a verdict was computed from; the verdict document's {@code source} as it is ({@link
 * VerdictDocument}).
 *
 * @param path the export file (or the pod log a summary was taken from), as the caller named it:
 *     relative to the folder that holds verdict.json (the run directory; gate's --report-dir) with
 *     '/', so the absolute location of a checkout never reaches a hashed file (issue 14)
 * @param sha256 SHA-256 of the parsed bytes; null when there was nothing to parse
 * @param aiperfVersion {@code aiperf_version} from the export; null when it does not say
 * @param layout the export's layout name; null when there was no export
 * @param schemaVersion the export's {@code schema_version}; null when absent
 * @param wasCancelled the export's {@code was_cancelled}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record VerdictSource(
    String path,
    @Nullable String sha256,
    @Nullable String aiperfVersion,
    @Nullable String layout,
    @Nullable String schemaVersion,
    boolean wasCancelled) {

  public VerdictSource {
    Objects.requireNonNull(path, "path");
  }

  /** The source of a verdict on an export, named as the export is ({@link AiperfExport#named}). */
  public static VerdictSource of(AiperfExport export) {
    return new VerdictSource(
        export.path().normalize().toString().replace('\\', '/'),
        export.sha256(),
        export.aiperfVersion(),
        export.layout().jsonName(),
        export.schemaVersion(),
        export.wasCancelled());
  }

  /** The source of a verdict where no export could be read (e.g. AIPerf failed). */
  public static VerdictSource withoutExport(String path, @Nullable String sha256) {
    return new VerdictSource(path, sha256, null, null, null, false);
  }
}
