/**
 * The verified artifact channel: how every file AIPerf wrote in the pod reaches {@code
 * runs/<run-id>/aiperf/} byte for byte. The encoder is {@code ship-artifacts.py} (run in the AIPerf
 * image after AIPerf exits); {@link dev.benchplan.artifacts.ArtifactChannel} decodes and verifies
 * it; {@link dev.benchplan.artifacts.ArtifactManifest} is the SHA-256 manifest written as {@code
 * artifacts.sha256}.
 */
package dev.benchplan.artifacts;
