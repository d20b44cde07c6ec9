package dev.benchplan.validate;

import dev.benchplan.error.ErrorLocation;
import dev.benchplan.gate.Constraint;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a recipe overlay says beyond its thresholds: AICR's benchmark settings ({@code
 * inference-model}, {@code inference-concurrency-per-gpu}, {@code inference-routing-mode}, {@code
 * inference-model-cache-storage-class}) as written, where each sits, benchplan's own per-GPU floor,
 * the constraint names nobody here knows, and the recipe's Dynamo platform.
 *
 * @param source the overlay path, for messages
 * @param settings setting name to its raw value (as written, trimmed)
 * @param pointers setting name to the JSON pointer of its entry (and {@link #DYNAMO_PLATFORM} to
 *     its componentRefs entry)
 * @param perGpuFloor the {@code inference-throughput-per-gpu} floor (threshold per GPU), or null
 * @param unknown constraint names this benchplan does not know (ignored, with a warning)
 * @param componentRefs whether the overlay lists {@code spec.componentRefs} at all (a bare
 *     validation overlay does not, and then says nothing about Dynamo)
 * @param dynamoPlatform whether {@code componentRefs} lists {@code dynamo-platform}
 * @param dynamoPlatformVersion its {@code version}, or null when it names none
 */
public record RecipeSettings(
    String source,
    Map<String, String> settings,
    Map<String, String> pointers,
    @Nullable Constraint perGpuFloor,
    List<String> unknown,
    boolean componentRefs,
    boolean dynamoPlatform,
    @Nullable String dynamoPlatformVersion) {
  /** The overlay's name for each setting. */
  public static final String MODEL = "inference-model";

  public static final String CONCURRENCY_PER_GPU = "inference-concurrency-per-gpu";
  public static final String ROUTING_MODE = "inference-routing-mode";
  public static final String MODEL_CACHE_STORAGE_CLASS = "inference-model-cache-storage-class";

  /** The componentRefs entry of the Dynamo platform chart. */
  public static final String DYNAMO_PLATFORM = "dynamo-platform";

  public RecipeSettings {
    Objects.requireNonNull(source, "source");
    settings = Map.copyOf(settings);
    pointers = Map.copyOf(pointers);
    unknown = List.copyOf(unknown);
  }

  /** No overlay: nothing set, no platform named. */
  public static RecipeSettings none() {
    return new RecipeSettings("defaults", Map.of(), Map.of(), null, List.of(), false, false, null);
  }

  /** The raw value of a setting, or null. */
  public @Nullable String get(@Nullable String name) {
    return settings.get(name);
  }

  /** Where a setting sits ({@code file: pointer}), or the source when it is not set. */
  public String where(@Nullable String name) {
    String pointer = name == null ? null : pointers.get(name);
    return pointer == null ? source : source + ": " + pointer;
  }

  /** Where a setting's value sits: its entry's {@code /value}, or the file when it is not set. */
  public ErrorLocation location(@Nullable String name) {
    String pointer = name == null ? null : pointers.get(name);
    return pointer == null
        ? ErrorLocation.file(source)
        : ErrorLocation.pointer(source, pointer + "/value");
  }

  /** Where the Dynamo platform's {@code version} sits in componentRefs (or the file). */
  public ErrorLocation platformVersionLocation() {
    String pointer = pointers.get(DYNAMO_PLATFORM);
    return pointer == null
        ? ErrorLocation.file(source)
        : ErrorLocation.pointer(source, pointer + "/version");
  }
}
