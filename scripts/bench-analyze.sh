#!/usr/bin/env bash
# Benchmark of `benchplan analyze` (issue 13), measured in one run next to `trace inspect`:
#   - generates an AIPerf run of BENCH_REQUESTS (default 100,000) requests in a temp dir: a summary
#     export and profile_export.jsonl shaped like AIPerf's (metadata, metrics with units,
#     inter_chunk_latency arrays of BENCH_ICL values, error), and a Mooncake trace of the same size;
#   - runs `benchplan analyze RUN` and `benchplan trace inspect TRACE` BENCH_REPEAT times each,
#     interleaved (best by wall time kept), wall time, CPU (user + system) and peak RSS via
#     /usr/bin/time -v;
#   - with BENCH_BASELINE=<another checkout's bin/benchplan> (with its own target/benchplan.jar, e.g.
#     `git worktree add /tmp/base <commit>` built there), runs both commands with it too, in the same
#     interleaved loop, so the two builds are measured under the same load;
#   - prints a table with the load average (and, with a baseline, the paired comparison: each call
#     against the baseline's call next to it, the median of the paired differences) and checks the
#     goals for this build: analyze of 100,000 requests under 1.5 s (best wall), peak RSS under 512 MB.
# The generated files are deleted afterwards. Exit 0 when both goals hold, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

requests="${BENCH_REQUESTS:-100000}"
icl="${BENCH_ICL:-63}"
repeat="${BENCH_REPEAT:-2}"

log() { printf '[bench-analyze] %s\n' "$*" >&2; }

if [ ! -x /usr/bin/time ]; then
  log "installing the Debian 'time' package (for /usr/bin/time -v)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
if [ ! -f target/benchplan.jar ]; then
  log "building target/benchplan.jar"
  mvn -q -B -o -DskipTests package
fi

tmp="$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/bench-analyze.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/GenRun.java" <<'EOF'
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

/** Writes an AIPerf-shaped run (summary + per-request records) and a Mooncake trace of the same size. */
public class GenRun {
  public static void main(String[] a) throws IOException {
    Path dir = Paths.get(a[0]);
    int n = Integer.parseInt(a[1]);
    int icl = Integer.parseInt(a[2]);
    Path trace = Paths.get(a[3]);
    Files.createDirectories(dir);
    SplittableRandom r = new SplittableRandom(42);
    long t0 = 1_762_551_534_000_000_000L;
    double sumOsl = 0;
    long end = t0;
    try (Writer w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(dir.resolve("profile_export.jsonl")),
        StandardCharsets.UTF_8), 1 << 20)) {
      StringBuilder sb = new StringBuilder(4096);
      for (int i = 0; i < n; i++) {
        double ttft = 80 + 40 * r.nextDouble();
        double itl = 9 + 2 * r.nextDouble();
        double lat = ttft + itl * icl;
        long start = t0 + i * 10_000_000L;
        long stop = start + (long) (lat * 1e6);
        end = Math.max(end, stop);
        sumOsl += icl + 1;
        sb.setLength(0);
        sb.append("{\"metadata\": {\"session_num\": ").append(i).append(", \"x_request_id\": \"req-").append(i)
            .append("\", \"request_start_ns\": ").append(start).append(", \"request_end_ns\": ").append(stop)
            .append(", \"benchmark_phase\": \"profiling\", \"was_cancelled\": false}, \"metrics\": {")
            .append("\"time_to_first_token\": {\"value\": ").append(ttft).append(", \"unit\": \"ms\"}, ")
            .append("\"inter_token_latency\": {\"value\": ").append(itl).append(", \"unit\": \"ms\"}, ")
            .append("\"request_latency\": {\"value\": ").append(lat).append(", \"unit\": \"ms\"}, ")
            .append("\"output_sequence_length\": {\"value\": ").append(icl + 1).append(", \"unit\": \"tokens\"}, ")
            .append("\"input_sequence_length\": {\"value\": 1000, \"unit\": \"tokens\"}, ")
            .append("\"output_token_throughput_per_user\": {\"value\": ").append(1000 / itl).append(", \"unit\": \"tokens/sec/user\"}, ")
            .append("\"inter_chunk_latency\": {\"value\": [");
        for (int k = 0; k < icl; k++) {
          sb.append(k == 0 ? "" : ", ").append(itl * (0.9 + 0.2 * r.nextDouble()));
        }
        sb.append("], \"unit\": \"ms\"}}, \"error\": null}\n");
        w.write(sb.toString());
      }
    }
    double secs = (end - t0) / 1e9;
    String summary = "{\"aiperf_version\": \"0.13.0\", \"schema_version\": \"1.0\","
        + " \"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": " + (sumOsl / secs) + "},"
        + " \"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": " + (n / secs) + "},"
        + " \"request_count\": {\"unit\": \"requests\", \"avg\": " + n + "},"
        + " \"input_config\": {\"endpoint\": {\"type\": \"chat\", \"streaming\": true, \"model_names\": [\"bench/model\"]},"
        + " \"loadgen\": {\"concurrency\": 64, \"request_count\": " + n + "}}}";
    Files.writeString(dir.resolve("profile_export_aiperf.json"), summary);
    long target = Files.size(dir.resolve("profile_export.jsonl"));
    long written = 0;
    long id = 0;
    try (Writer w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(trace), StandardCharsets.UTF_8), 1 << 20)) {
      StringBuilder sb = new StringBuilder(4096);
      for (long ts = 0; written < target; ts += 7) {
        int blocks = 1 + (int) (ts % 40);
        sb.setLength(0);
        sb.append("{\"timestamp\": ").append(ts).append(", \"input_length\": ").append(blocks * 512 - 100)
            .append(", \"output_length\": 128, \"hash_ids\": [");
        for (int b = 0; b < blocks; b++) {
          sb.append(b == 0 ? "" : ", ").append(id++);
        }
        sb.append("]}\n");
        w.write(sb.toString());
        written += sb.length();
      }
    }
  }
}
EOF

log "generating a ${requests}-request run and a trace of the same size in $tmp"
java "$tmp/GenRun.java" "$tmp/run" "$requests" "$icl" "$tmp/trace.jsonl"
run_mb=$(( $(stat -c %s "$tmp/run/profile_export.jsonl") / 1048576 ))
trace_mb=$(( $(stat -c %s "$tmp/trace.jsonl") / 1048576 ))

baseline="${BENCH_BASELINE:-}"
case "$baseline" in /* | "") ;; *) baseline="$OLDPWD/$baseline" ;; esac # the caller's folder
if [ -n "$baseline" ] && [ ! -x "$baseline" ]; then
  log "BENCH_BASELINE=$baseline: not an executable launcher"; exit 3
fi
builds=(this); [ -n "$baseline" ] && builds+=(baseline)
launcher() { [ "$1" = baseline ] && echo "$baseline" || echo bin/benchplan; }
# one untimed call per build first: a launcher records its class-data archive on its first call
for b in "${builds[@]}"; do "$(launcher "$b")" --version >/dev/null 2>&1 || true; done

# the paired comparison of this build with the baseline: paired FILE
source scripts/lib/bench-paired.sh # (the working folder is the project root here)

declare -A best_wall best_rss best_cpu
: >"$tmp/calls.txt"
once() { # key, command...: one timed call; keeps the best (by wall) of key
  local key="$1"; shift
  rm -rf "$tmp/exp" "$tmp/out"
  /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$tmp/$key.out" 2>"$tmp/$key.err" || {
    rc=$?; [[ "$key" == analyze* ]] || [ "$rc" -le 1 ] || { log "$key failed ($rc): $(cat "$tmp/$key.err")"; exit 3; }; }
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$tmp/time.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$tmp/time.txt")
  cpu=$(awk -F': ' '/User time|System time/ {s+=$2} END {printf "%.2f", s}' "$tmp/time.txt")
  echo "${key%-*} ${key##*-} $wall $cpu" >>"$tmp/calls.txt"
  if [ -z "${best_wall[$key]:-}" ] || awk "BEGIN{exit !($wall < ${best_wall[$key]})}"; then
    best_wall[$key]=$wall; best_rss[$key]=$rss; best_cpu[$key]=$cpu
  fi
}

log "analyze and trace inspect, ${repeat}x each, interleaved (builds: ${builds[*]})"
for _ in $(seq "$repeat"); do
  for b in "${builds[@]}"; do
    L="$(launcher "$b")"
    once "analyze-$b" "$L" analyze "$tmp/run" --exp-root "$tmp/exp" --report-dir "$tmp/out"
    once "trace-$b" "$L" trace inspect "$tmp/trace.jsonl" --format json
  done
done

load="$(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n%-36s %10s %10s %10s %12s\n' "command" "input MB" "wall s" "CPU s" "peak RSS MB"
for b in "${builds[@]}"; do
  suffix=""; [ "$b" = baseline ] && suffix=" [baseline]"
  printf '%-36s %10s %10s %10s %12s\n' "analyze (${requests} requests)$suffix" "$run_mb" \
    "${best_wall[analyze-$b]}" "${best_cpu[analyze-$b]}" "${best_rss[analyze-$b]}"
  printf '%-36s %10s %10s %10s %12s\n' "trace inspect (same size)$suffix" "$trace_mb" \
    "${best_wall[trace-$b]}" "${best_cpu[trace-$b]}" "${best_rss[trace-$b]}"
done
if [ -n "$baseline" ]; then
  printf '\npaired with the baseline (%s):\n' "$baseline"
  paired "$tmp/calls.txt"
fi
printf 'load average at the end: %s\n' "$load"
a_wall="${best_wall[analyze-this]}"
a_rss="${best_rss[analyze-this]}"
ok=0
[ "$requests" -ne 100000 ] || awk "BEGIN{exit !($a_wall < 1.5)}" ||
  { log "goal missed: analyze of 100,000 requests took ${a_wall} s (goal < 1.5 s)"; ok=1; }
[ "$a_rss" -lt 512 ] || { log "goal missed: analyze peak RSS ${a_rss} MB"; ok=1; }
exit $ok
