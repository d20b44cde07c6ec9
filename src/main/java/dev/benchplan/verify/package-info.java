/**
 * {@code benchplan verify}: re-hashes and re-derives what a plan file or a run directory claims,
 * offline, and lists every finding with its file and JSON pointer. The entry point is {@link
 * dev.benchplan.verify.VerifyService}; findings are {@link dev.benchplan.verify.Finding}s.
 */
package dev.benchplan.verify;
