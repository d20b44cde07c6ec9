#!/usr/bin/env bash
# Records the application class-data sharing archive beside the jar (target/benchplan.jsa), to run
# after `mvn package` (the build step; see docs/readme/analyze.md): the classes a `trace inspect`, an
# `analyze` with its report, and a `plan` + `render` of the bundled example load, pre-parsed and
# pre-verified, so that bin/benchplan starts from them. A static archive (class list from training
# runs, then -Xshare:dump): unlike the dynamic one, Java 17 stores picocli's pre-Java-6 class files
# in it. The JVM uses it only with this jar at this path, unchanged, and the same JVM; anything
# else (a copied or moved checkout, another JVM) makes it skip the archive in silence.
#
#   scripts/cds-archive.sh [JAR]     # default: target/benchplan.jar; exit 0 even when no archive
#                                    # could be written (start-up is then slower, nothing else)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$(cd "$(dirname "${1:-$root/target/benchplan.jar}")" && pwd -P)/$(basename "${1:-target/benchplan.jar}")"
java_bin="java"
[ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && java_bin="$JAVA_HOME/bin/java"
jsa="${jar%.jar}.jsa"
rm -f "$jsa"
train="$(mktemp -d "${TMPDIR:-/tmp}/benchplan-cds.XXXXXX")"
trap 'rm -rf "$train"' EXIT

# trained LIST ARGS...: one call of the jar in the training folder, its loaded classes into LIST
# trained LIST ARGS...: one call of benchplan recording the classes it loads; a call that fails
# loaded only part of its command's classes (render refused a missing DEPLOY_ROOT for months, and
# render's classes were never in the archive): say so, keep the archive of the others
trained() {
  local list="$1" rc=0; shift
  (cd "$train" && SOURCE_DATE_EPOCH=1796034600 "$java_bin" -XX:+UseSerialGC -Xlog:disable \
    -XX:DumpLoadedClassList="$list" -jar "$jar" "$@" 2>"$train/err.txt") || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "[cds-archive] training call '$1' exited $rc; its classes are only partly archived:" >&2
    head -3 "$train/err.txt" >&2
  fi
}

printf '{"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [1, 2]}\n' >"$train/t.jsonl"
trained "$train/1.classes" trace inspect "$train/t.jsonl" --format json >/dev/null
# analyze of a small AIPerf-shaped run (200 records; summary and report with its plots)
mkdir -p "$train/run"
awk 'BEGIN {
  for (i = 0; i < 200; i++) {
    ttft = 80 + (i * 37 % 41); itl = 9 + (i * 13 % 7) / 3; lat = ttft + 8 * itl
    s = i * 1000000; e = s + int(lat * 1000000) # ns after second 1762551534, as text: awk counts in doubles
    printf "{\"metadata\": {\"session_num\": %d, \"x_request_id\": \"req-%d\", \"request_start_ns\": 1762551534%09d, \"request_end_ns\": 1762551534%09d, \"benchmark_phase\": \"profiling\", \"was_cancelled\": false}, \"metrics\": {\"time_to_first_token\": {\"value\": %g, \"unit\": \"ms\"}, \"inter_token_latency\": {\"value\": %g, \"unit\": \"ms\"}, \"request_latency\": {\"value\": %g, \"unit\": \"ms\"}, \"output_sequence_length\": {\"value\": 9, \"unit\": \"tokens\"}, \"input_sequence_length\": {\"value\": 100, \"unit\": \"tokens\"}, \"output_token_throughput_per_user\": {\"value\": %g, \"unit\": \"tokens/sec/user\"}, \"inter_chunk_latency\": {\"value\": [%g, %g, %g, %g, %g, %g, %g, %g], \"unit\": \"ms\"}}, \"error\": null}\n", i, i, s, e, ttft, itl, lat, 1000 / itl, itl, itl, itl, itl, itl, itl, itl, itl
  } }' >"$train/run/profile_export.jsonl"
printf '%s\n' '{"aiperf_version": "0.13.0", "schema_version": "1.0", "output_token_throughput": {"unit": "tokens/sec", "avg": 900}, "request_throughput": {"unit": "requests/sec", "avg": 100}, "request_count": {"unit": "requests", "avg": 200}, "input_config": {"endpoint": {"type": "chat", "streaming": true, "model_names": ["train/model"]}, "loadgen": {"concurrency": 1, "request_count": 200}}}' \
  >"$train/run/profile_export_aiperf.json"
trained "$train/4.classes" analyze "$train/run" --exp-root "$train/exp-a" --report-dir "$train/report" >/dev/null
# plan and render of the bundled static example
cp -R "$root/examples" "$train/"
planned="$(trained "$train/2.classes" plan --workload examples/workload-static.yaml \
  --ledger examples/deployment-ledger.yaml --question "What does the example deliver?" \
  --aiperf-version 0.13.0 --exp-root "$train/exp" --format json)"
plan_path="$(printf '%s' "$planned" | sed -n 's/^  "plan_path" : "\(.*\)",$/\1/p')"
plan_sha="$(printf '%s' "$planned" | sed -n 's/^  "sha256" : "\([0-9a-f]*\)",$/\1/p')"
if [ -n "$plan_path" ] && [ -n "$plan_sha" ]; then
  mkdir -p "$train/deploy" # render writes into an existing DEPLOY_ROOT only
  trained "$train/3.classes" render --plan "$plan_path" --plan-sha256 "$plan_sha" \
    --deploy-root "$train/deploy" >/dev/null
fi

cat "$train"/*.classes 2>/dev/null | awk '!seen[$0]++' >"$train/all.classes"
if [ -s "$train/all.classes" ]; then
  "$java_bin" -Xshare:dump -XX:SharedClassListFile="$train/all.classes" \
    -XX:SharedArchiveFile="$jsa.tmp" -Xlog:disable -cp "$jar" >/dev/null 2>&1 || true
fi
if [ -s "$jsa.tmp" ]; then
  mv -f "$jsa.tmp" "$jsa"
  echo "[cds-archive] wrote $jsa ($(wc -l <"$train/all.classes") classes)" >&2
else
  rm -f "$jsa.tmp"
  echo "[cds-archive] no archive written; bin/benchplan starts without one" >&2
fi
