/**
 * Which AIPerf a series uses (agent-docs/rules/benchmarking/tool-version.md): an operator pin, the
 * pin of a reference recipe being reproduced, or the latest stable release listed by the package
 * index's JSON API ({@link dev.benchplan.aiperf.version.AiperfVersionResolver}), with PEP 440
 * ordering ({@link dev.benchplan.aiperf.version.AiperfVersion}). Never a version from memory.
 */
package dev.benchplan.aiperf.version;
