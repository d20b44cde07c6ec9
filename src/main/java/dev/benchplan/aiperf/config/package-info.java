/**
 * AIPerf configuration rendering: one version-independent {@link
 * dev.benchplan.aiperf.config.AiperfSettings} turned into either AIPerf's native YAML config
 * (schemaVersion "2.0", AIPerf 0.11.0 and later) or the {@code aiperf profile} flags of an older
 * release, using a per-version flag table.
 */
package dev.benchplan.aiperf.config;
