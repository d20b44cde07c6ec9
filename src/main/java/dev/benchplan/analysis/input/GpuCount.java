package dev.benchplan.analysis.input;

/**
 * How many GPUs served a run, and where that number came from.
 *
 * @param value the count, or null when unknown
 * @param source e.g. {@code plan /deployment/gpu_total}, {@code --gpus}, {@code AIPerf GPU
 *     telemetry (/telemetry_data)}, or why it is unknown
 */
public record GpuCount(Integer value, String source) {}
