/**
 * File reading shared by the streaming scanners: {@link dev.benchplan.io.LineChunkReader} reads a
 * file on a background thread in large chunks of whole lines, hashes every byte (SHA-256) and can
 * do part of the caller's work on the chunks it has not reached yet. Used by {@code trace inspect}
 * (Mooncake traces) and {@code analyze} (AIPerf's per-request records).
 */
package dev.benchplan.io;
