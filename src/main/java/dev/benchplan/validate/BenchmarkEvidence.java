package dev.benchplan.validate;

/**
 * Where the benchmark's evidence is kept (all paths under {@code --report-dir}).
 *
 * @param planPath the series plan
 * @param planSha256 its SHA-256
 * @param deployRoot the render output folder
 * @param runDir the run folder with AIPerf artifacts and run.json, or null when the run did not end
 * @param jobName the AIPerf Job's name
 * @param aiperfVersion the pinned AIPerf version
 * @param aiperfResolution how that version was chosen (plan's mechanism)
 */
public record BenchmarkEvidence(
    String planPath, String planSha256, String deployRoot, String runDir, String jobName,
    String aiperfVersion, String aiperfResolution) {}
