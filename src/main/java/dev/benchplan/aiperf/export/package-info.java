/**
 * Reading AIPerf's result artifacts: the summary export {@code profile_export_aiperf.json} in every
 * layout AIPerf has written (0.1.1 {@code records.<tag>}, 0.2+ top-level tags, newer files with
 * {@code schema_version}), metric units and their conversion, and the summary block that
 * benchplan's Job prints between marker lines in the pod log.
 */
package dev.benchplan.aiperf.export;
