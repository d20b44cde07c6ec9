package dev.benchplan.analysis.input;

import org.jspecify.annotations.Nullable;

/**
 * How many GPUs served a run, and where that number came from.
 *
 * @param value the count, or null when unknown
 * @param source e.g. {@code plan /deployment/gpu_total}, {@code --gpus}, {@code AIPerf GPU
 *     telemetry (/telemetry_data)}, or why it is unknown
 */
public record GpuCount(@Nullable Integer value, String source) {}
