/**
 * {@code benchplan smoke}: one streamed chat completion against an OpenAI-compatible endpoint
 * ({@link dev.benchplan.smoke.SmokeTest}), parsed as server-sent events under a wall-clock {@link
 * dev.benchplan.smoke.Deadline}, and the smoke artifact ({@link dev.benchplan.smoke.SmokeArtifact})
 * that a deployment ledger cites as evidence the endpoint serves its model.
 */
package dev.benchplan.smoke;
