#!/usr/bin/env bash
# The main job on the bundled examples: builds benchplan (if needed), then
#   1. trace inspect  on the example trace,
#   2. plan           the static and the trace example workloads against the example ledger,
#   3. render         each plan into aiperf-config.yaml + perf.yaml + render-manifest.json,
#   4. verify         each plan (inputs re-hashed, re-derived offline) and each DEPLOY_ROOT
#                     (re-rendered byte for byte),
#   5. gate           a real AIPerf export (from ../shared/data, when present; skipped otherwise,
#                     so a fresh clone runs every other step) on the default constraints
#                     (>= 5000 tok/s, TTFT p99 <= 200 ms, 10% tolerance),
#   6. analyze, compare and verify of both outputs on the real sweep (../shared/data; skipped
#                     with a message when absent).
# examples/ is copied to OUT/project and planned from there with relative paths, so the plans are
# location-independent: the same SOURCE_DATE_EPOCH gives the same plan bytes in any folder.
# Everything is written under OUT (default: a fresh temporary folder), never into the repository.
# Usage: scripts/examples.sh [OUT]
set -euo pipefail
home="$(cd "$(dirname "$0")/.." && pwd)"
cd "$home"
out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/benchplan-examples.XXXXXX")}"
mkdir -p "$out"
bp=("$home/bin/benchplan")
# the examples' clock: the bundled smoke artifact is dated 2026-11-30, and plan refuses one older than
# 72 h (SMOKE_STALE); a fixed clock also makes the example plans byte-identical on every run
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1796034600}"

if [ ! -f target/benchplan.jar ] || [ -n "$(find src schemas pom.xml -newer target/benchplan.jar -print -quit)" ]; then
  echo "+ mvn -q -B -Dstyle.color=never -DskipTests package" >&2
  mvn -q -B -Dstyle.color=never -DskipTests package
fi

step() { printf '\n+ %s\n' "$*" >&2; "$@"; }

step "${bp[@]}" trace inspect examples/traces/example_trace.jsonl

mkdir -p "$out/project"
cp -R examples "$out/project/"
cd "$out/project"

for kind in static trace; do
  json="$(step "${bp[@]}" plan --workload "examples/workload-$kind.yaml" \
    --ledger examples/deployment-ledger.yaml \
    --question "What output throughput and TTFT does vllm-agg deliver for the $kind example workload?" \
    --aiperf-version 0.13.0 --exp-root experiments --format json)"
  echo "$json"
  plan_path="$(printf '%s' "$json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["plan_path"])')"
  plan_sha="$(printf '%s' "$json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sha256"])')"
  mkdir -p "$out/deploy-$kind"
  step "${bp[@]}" render --plan "$plan_path" --plan-sha256 "$plan_sha" --deploy-root "$out/deploy-$kind"
  step "${bp[@]}" verify "$plan_path" --sha256 "$plan_sha"
  step "${bp[@]}" verify "$out/deploy-$kind"
done
cd "$home"

export_file="$home/../shared/data/aiperf/profile_export_aiperf.json"
if [ -f "$export_file" ]; then
  # a real AIPerf run at concurrency 1: the default gate fails it (exit 1), as it should
  step "${bp[@]}" gate --results "$export_file" --min-throughput 5000 --max-ttft-p99 200 \
    --report-dir "$out/gate" || echo "(gate exit code $?)" >&2
else
  echo "skipped gate: $export_file is absent" >&2
fi

sweep="$home/../shared/data/aiperf/sweep-qwen3-0.6b"
if [ -d "$sweep" ]; then
  # the real 3-point sweep: analyze it (audit, summary, Pareto, series history), compare it with a
  # copy of itself (1 vs 1 per point, no noise floor: inconclusive, a pilot is necessary), and
  # verify both output folders (inputs re-hashed, documents recomputed)
  step "${bp[@]}" analyze "$sweep" --exp-root "$out/project/experiments" --report-dir "$out/analysis"
  step "${bp[@]}" verify "$out/analysis"
  cp -R "$sweep" "$out/sweep-copy"
  step "${bp[@]}" compare --reference "$sweep" --candidate "$out/sweep-copy" --report-dir "$out/comparison" \
    || echo "(compare exit code $?)" >&2
  step "${bp[@]}" verify "$out/comparison"
else
  echo "skipped analyze, compare and their verify: $sweep is absent" >&2
fi
printf '\nall outputs are under %s\n' "$out" >&2
