#!/usr/bin/env bash
# Benchmark of `benchplan analyze` on the real 3-point sweep (issue 13 item "speed"): two jars, the
# same command, best of N by wall time, with user+system CPU, peak RSS and the load average.
#   BASE_JAR   the jar to compare against (e.g. built at main's HEAD)      (required)
#   NEW_JAR    the jar under test                   (default target/benchplan.jar)
#   BENCH_N    runs per jar                         (default 5)
#   SWEEP      the sweep directory                  (default ../shared/data/aiperf/sweep-qwen3-0.6b)
#   GOLDEN=1   also diff the two jars' outputs (every file but benchmark_audit.json must be equal)
# JVM flags are the launcher's (serial GC, JIT thresholds x10, no perf data); no class-data archive,
# so both jars pay the same start-up. Exit 0 after printing; it never judges.
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${BASE_JAR:?set BASE_JAR to the jar to compare against}"
new="${NEW_JAR:-target/benchplan.jar}"
n="${BENCH_N:-5}"
sweep="${SWEEP:-../shared/data/aiperf/sweep-qwen3-0.6b}"
[ -d "$sweep" ] || { echo "no sweep at $sweep (../shared/data absent): nothing to measure" >&2; exit 0; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
opts=(-XX:+UseSerialGC -XX:CompileThresholdScaling=10 -XX:-UsePerfData ${BENCH_JAVA_OPTS:-})

one() { # jar, out dir -> "wall cpu rss"
  rm -rf "$2" "$2.exp"
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" java "${opts[@]}" -jar "$1" analyze "$sweep" --exp-root "$2.exp" \
    --report-dir "$2" --slo 'time_to_first_token.p99<=60' >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 3; }
  awk '{printf "%s %.2f %d\n", $1, $2 + $3, $4 / 1024}' "$tmp/t"
}

best() { # jar, name
  local bw="" bc="" br="" all=""
  for _ in $(seq "$n"); do
    read -r w c r < <(one "$1" "$tmp/$2")
    all="$all $w"
    if [ -z "$bw" ] || awk "BEGIN{exit !($w < $bw)}"; then bw=$w; bc=$c; br=$r; fi
  done
  echo "$bw $bc $br ($all )"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
read -r bw bc br ball < <(best "$base" base)
read -r nw nc nr nall < <(best "$new" new)
printf '%-6s %8s %8s %8s  %s\n' jar "wall s" "CPU s" "RSS MB" "all walls"
printf '%-6s %8s %8s %8s  %s\n' base "$bw" "$bc" "$br" "$ball"
printf '%-6s %8s %8s %8s  %s\n' new "$nw" "$nc" "$nr" "$nall"
echo "speed-up (best wall): $(awk "BEGIN{printf \"%.2f\", $bw / $nw}")x, CPU: $(awk "BEGIN{printf \"%.2f\", $bc / $nc}")x; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${GOLDEN:-0}" = 1 ]; then
  # same paths for both: the documents record them
  one "$base" "$tmp/out" >/dev/null && mv "$tmp/out" "$tmp/gold-base" && rm -rf "$tmp/out.exp"
  one "$new" "$tmp/out" >/dev/null && mv "$tmp/out" "$tmp/gold-new"
  if diff -r -q -x benchmark_audit.json "$tmp/gold-base" "$tmp/gold-new"; then
    echo "golden: every output but benchmark_audit.json is byte-identical"
  else
    echo "golden: outputs differ (above)"
  fi
fi
