package dev.benchplan.analysis.report;

import org.jspecify.annotations.Nullable;

/**
 * A file as the analysis documents name it: {@code {"path": ..., "sha256": ...}}.
 *
 * @param path the path as read, or null when none is recorded
 * @param sha256 its SHA-256, or null when it could not be read
 */
public record FileDoc(@Nullable String path, @Nullable String sha256) {}
