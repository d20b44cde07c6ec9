#!/usr/bin/env bash
# How long `benchplan run` and `benchplan validate` take to refuse when no cluster is configured
# (KUBECONFIG names a missing file, no in-cluster service account): exit 2 from the file check in
# KubeConnection, before any client, connect timeout or retry. NoClusterTest and KubeConnectionTest
# assert that mechanism; the time lives here, not in a timed unit test (issue 11).
#   BENCH_N  runs per command (default 5); prints best and all walls and the load average; exit 0.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${BENCH_N:-5}"
bp="$PWD/bin/benchplan"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1796034600}" # the examples' clock (scripts/examples.sh)
cp -R examples "$tmp/"
json="$(cd "$tmp" && "$bp" plan --workload examples/workload-static.yaml --ledger examples/deployment-ledger.yaml \
  --question "bench-no-cluster" --aiperf-version 0.13.0 --exp-root experiments --format json 2>/dev/null)"
plan="$(printf '%s' "$json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["plan_path"])')"
sha="$(printf '%s' "$json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sha256"])')"
mkdir -p "$tmp/deploy"
(cd "$tmp" && "$bp" render --plan "$plan" --plan-sha256 "$sha" --deploy-root "$tmp/deploy" >/dev/null)

measure() { # name, command... -> best wall and all walls; each run must exit 2
  local best="" all=""
  for _ in $(seq "$n"); do
    local rc=0
    /usr/bin/time -f "%e" -o "$tmp/t" env -u KUBERNETES_SERVICE_HOST -u KUBERNETES_MASTER \
      KUBECONFIG="$tmp/no-such-kubeconfig" "${@:2}" >/dev/null 2>"$tmp/err" || rc=$?
    [ "$rc" = 2 ] || { echo "$1: exit $rc, expected 2" >&2; cat "$tmp/err" >&2; exit 3; }
    local w; w="$(tail -1 "$tmp/t")"
    all="$all $w"
    if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then best=$w; fi
  done
  printf '%-9s best %6s s  (all:%s )\n' "$1" "$best" "$all"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
measure run "$bp" run --deploy-root "$tmp/deploy"
measure validate "$bp" validate --dgd bench/vllm-agg --report-dir "$tmp/report"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
