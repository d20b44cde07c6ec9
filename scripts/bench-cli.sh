#!/usr/bin/env bash
# Benchmark of the agent path's short calls (issue 15 item 10): `plan` and `render` of the bundled
# static example, `trace inspect` of a one-row trace and `--version`, each BENCH_REPEAT times
# (default 5), interleaved with a baseline build when BENCH_BASELINE=<another checkout's
# bin/benchplan> is set (e.g. `git worktree add /tmp/base <commit>`, built there), so both builds
# share the machine's load. Wall time from the clock around each call, CPU (user + system) and peak
# RSS from /usr/bin/time; prints best and median per command and build, and the load average; with a
# baseline also the paired comparison (each call against the baseline's call next to it: the median
# of the paired differences).
# Every call runs in a fresh temporary folder (plan writes its series plan under --exp-root, render
# its files under --deploy-root); all of it is deleted afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
repeat="${BENCH_REPEAT:-5}"
log() { printf '[bench-cli] %s\n' "$*" >&2; }
if [ ! -x /usr/bin/time ]; then
  log "installing the Debian 'time' package (for /usr/bin/time)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
[ -f target/benchplan.jar ] || { log "building target/benchplan.jar"; mvn -q -B -o -DskipTests package; }
builds=("this:$root/bin/benchplan")
if [ -n "${BENCH_BASELINE:-}" ]; then
  [ -x "$BENCH_BASELINE" ] || { log "BENCH_BASELINE: not an executable launcher: $BENCH_BASELINE"; exit 2; }
  builds+=("baseline:$BENCH_BASELINE")
fi
tmp="$(mktemp -d "${TMPDIR:-/tmp}/bench-cli.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
cp -R examples "$tmp/examples"
printf '{"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [1, 2]}\n' >"$tmp/one.jsonl"
results="$tmp/results.txt"
: >"$results"
export SOURCE_DATE_EPOCH=1796034600

# timed BUILD COMMAND-LABEL OUT ARGS...: one call in $tmp, its figures appended to $results
timed() {
  local build="$1" label="$2" out="$3" t0 t1 rc=0; shift 3
  t0=$(date +%s%N)
  (cd "$tmp" && /usr/bin/time -f "%U %S %M" -o "$tmp/time.txt" "$@" >"$out" 2>"$tmp/err.txt") || rc=$?
  t1=$(date +%s%N)
  [ "$rc" -eq 0 ] || { log "$build $label failed (exit $rc):"; cat "$tmp/err.txt" >&2; exit 1; }
  read -r u s m <"$tmp/time.txt"
  echo "$build $label $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') $((m / 1024))" >>"$results"
}

# the paired comparison of this build with the baseline: paired FILE
source scripts/lib/bench-paired.sh # (the working folder is the project root here)

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
# one untimed call per build first: a launcher records its class-data archive on its first call
for b in "${builds[@]}"; do "${b#*:}" --version >/dev/null; done
for i in $(seq "$repeat"); do
  for b in "${builds[@]}"; do
    name="${b%%:*}"; bp="${b#*:}"
    timed "$name" "--version" /dev/null "$bp" --version
    timed "$name" "trace-inspect-1-row" /dev/null "$bp" trace inspect one.jsonl --format json
    timed "$name" "plan" "$tmp/plan.json" "$bp" plan --workload examples/workload-static.yaml \
      --ledger examples/deployment-ledger.yaml --question "What does the example deliver?" \
      --aiperf-version 0.13.0 --exp-root "exp-$name-$i" --format json
    plan_path="$(sed -n 's/^  "plan_path" : "\(.*\)",$/\1/p' "$tmp/plan.json")"
    plan_sha="$(sed -n 's/^  "sha256" : "\([0-9a-f]*\)",$/\1/p' "$tmp/plan.json")"
    mkdir -p "$tmp/deploy-$name-$i"
    timed "$name" "render" /dev/null "$bp" render --plan "$plan_path" --plan-sha256 "$plan_sha" \
      --deploy-root "deploy-$name-$i"
  done
done
echo
echo "short-call benchmark ($(nproc) cores, load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after; $repeat calls each, interleaved; $(date -u +%Y-%m-%dT%H:%M:%SZ))"
awk '
  { key = $2 "\t" $1; n[key]++; w[key, n[key]] = $3; c[key, n[key]] = $4; r[key, n[key]] = $5; keys[key] = 1 }
  function sort(a, k, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[k, j] < a[k, i]) { t = a[k, i]; a[k, i] = a[k, j]; a[k, j] = t } }
  END {
    printf "%-22s %-9s %9s %9s %9s %9s %8s\n", "command", "build", "best s", "median s", "CPU best", "CPU med", "RSS MB"
    for (key in keys) { m = n[key]; sort(w, key, m); sort(c, key, m); sort(r, key, m)
      split(key, p, "\t")
      printf "%-22s %-9s %9.3f %9.3f %9.2f %9.2f %8d\n", p[1], p[2], w[key, 1], w[key, int((m + 1) / 2)], c[key, 1], c[key, int((m + 1) / 2)], r[key, int((m + 1) / 2)] }
  }' "$results" | { read -r header; echo "$header"; sort; }
if [ -n "${BENCH_BASELINE:-}" ]; then
  echo
  echo "paired with the baseline (this = $root/bin/benchplan, baseline = $BENCH_BASELINE):"
  awk '{ print $2, $1, $3, $4 }' "$results" | paired /dev/stdin
fi
