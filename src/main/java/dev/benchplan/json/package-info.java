/**
 * JSON at the project's file edges: the shared Jackson mapper ({@link dev.benchplan.json.Json}),
 * canonical bytes for hashing ({@link dev.benchplan.json.CanonicalJson}), SHA-256 digests ({@link
 * dev.benchplan.json.Sha256}), validation against the schemas in {@code schemas/} ({@link
 * dev.benchplan.json.SchemaValidator}) and all-or-nothing file writes ({@link
 * dev.benchplan.json.AtomicFiles}).
 */
package dev.benchplan.json;
