package dev.benchplan.aiperf.config;

import dev.benchplan.aiperf.version.AiperfVersion;
import dev.benchplan.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * How one AIPerf release is told the settings: the aiperf-config.yaml document (with its header
 * comment) and the arguments after {@code aiperf profile}.
 *
 * @param mode native config or flags
 * @param release the pinned AIPerf release
 * @param document the YAML document of aiperf-config.yaml: the native config itself, or (flags) a
 *     review record of the same settings plus the exact flags
 * @param header comment lines (without {@code #}) written above the document
 * @param profileArgs the arguments after {@code aiperf profile}
 * @param notes what the flags could not express (empty in config mode)
 */
public record AiperfInvocation(
    InvocationMode mode,
    AiperfVersion release,
    ObjectNode document,
    List<String> header,
    List<String> profileArgs,
    List<String> notes) {
  /** The first release that reads the native YAML config ({@code aiperf profile --config}). */
  public static final AiperfVersion NATIVE_CONFIG = AiperfVersion.of(0, 11, 0);

  public AiperfInvocation {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(release, "release");
    Objects.requireNonNull(document, "document");
    header = List.copyOf(header);
    profileArgs = List.copyOf(profileArgs);
    notes = List.copyOf(notes);
    for (String line : header) {
      if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("a header comment line holds a line break");
      }
    }
  }

  /** True when {@code release} reads the native schemaVersion "2.0" config file. */
  public static boolean readsNativeConfig(AiperfVersion release) {
    return release.compareTo(NATIVE_CONFIG) >= 0;
  }

  /**
   * Chooses the mode for {@code release} and renders the settings.
   *
   * @param configPathInPod where aiperf-config.yaml is mounted in the pod
   * @param context comment lines identifying the plan and run, placed in the header
   * @param source names the plan in error messages
   */
  public static AiperfInvocation of(
      AiperfSettings settings,
      AiperfVersion release,
      String configPathInPod,
      List<String> context,
      String source) {
    ObjectNode config = NativeConfig.render(settings);
    List<String> header = new ArrayList<>();
    if (readsNativeConfig(release)) {
      header.add(
          "AIPerf "
              + release
              + " native config (schemaVersion \""
              + NativeConfig.SCHEMA_VERSION
              + "\"), written by benchplan render.");
      header.add("The Job runs: aiperf profile --config " + configPathInPod);
      header.addAll(context);
      return new AiperfInvocation(
          InvocationMode.CONFIG,
          release,
          config,
          header,
          List.of("--config", configPathInPod),
          List.of());
    }
    FlagRendering flags = ProfileFlags.render(settings, release, source);
    header.add(
        "AIPerf "
            + release
            + " reads no native config file (that needs "
            + AiperfInvocation.NATIVE_CONFIG
            + " or later).");
    header.add(
        "The Job passes these settings to `aiperf profile` as command-line flags (see `flags`);");
    header.add("AIPerf never reads this file: it records the settings for review.");
    header.addAll(context);
    ObjectNode review = Json.JSON.createObjectNode();
    review.put("mode", InvocationMode.FLAGS.label());
    review.put("aiperfVersion", release.toString());
    review.set("settings", config);
    var flagArray = review.putArray("flags");
    flags.args().forEach(flagArray::add);
    var noteArray = review.putArray("notes");
    flags.notes().forEach(noteArray::add);
    return new AiperfInvocation(
        InvocationMode.FLAGS, release, review, header, flags.args(), flags.notes());
  }
}
