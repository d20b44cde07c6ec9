#!/usr/bin/env bash
# Benchmark of `benchplan analyze` (issue 13), measured in one run next to `trace inspect`:
#   - generates an AIPerf run of BENCH_REQUESTS (default 100,000) requests in a temp dir: a summary
#     export and profile_export.jsonl shaped like AIPerf's (metadata, metrics with units,
#     inter_chunk_latency arrays of BENCH_ICL values, error), and a Mooncake trace of the same size;
#   - runs `benchplan analyze RUN` and `benchplan trace inspect TRACE` BENCH_REPEAT times each (best
#     kept), wall time and peak RSS via /usr/bin/time -v;
#   - prints a table and checks the goals: analyze within 2x trace inspect, peak RSS under 512 MB.
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

measure() { # name, command...: prints "wall_s rss_mb cpu_s" of the best of $repeat runs (by wall)
  local name="$1"; shift
  local best_wall="" best_rss="" best_cpu=""
  for _ in $(seq "$repeat"); do
    /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || {
      rc=$?; [ "$name" = analyze ] || [ "$rc" -le 1 ] || { log "$name failed ($rc): $(cat "$tmp/$name.err")"; exit 3; }; }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$tmp/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$tmp/time.txt")
    cpu=$(awk -F': ' '/User time|System time/ {s+=$2} END {printf "%.2f", s}' "$tmp/time.txt")
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; best_rss=$rss; best_cpu=$cpu; fi
  done
  echo "$best_wall $best_rss $best_cpu"
}

log "analyze (${repeat}x)"
read -r a_wall a_rss a_cpu < <(measure analyze bin/benchplan analyze "$tmp/run" --exp-root "$tmp/exp" --report-dir "$tmp/out")
log "trace inspect (${repeat}x)"
read -r t_wall t_rss t_cpu < <(measure trace bin/benchplan trace inspect "$tmp/trace.jsonl" --format json)

ratio=$(awk "BEGIN{printf \"%.2f\", $a_wall / $t_wall}")
cpu_ratio=$(awk "BEGIN{printf \"%.2f\", $a_cpu / $t_cpu}")
printf '\n%-32s %10s %10s %10s %12s\n' "command" "input MB" "wall s" "CPU s" "peak RSS MB"
printf '%-32s %10s %10s %10s %12s\n' "analyze (${requests} requests)" "$run_mb" "$a_wall" "$a_cpu" "$a_rss"
printf '%-32s %10s %10s %10s %12s\n' "trace inspect (same size)" "$trace_mb" "$t_wall" "$t_cpu" "$t_rss"
printf 'analyze / trace inspect: wall %sx, CPU %sx (goal <= 2x); analyze peak RSS %s MB (goal < 512 MB); load average %s\n' \
  "$ratio" "$cpu_ratio" "$a_rss" "$(cut -d' ' -f1-3 /proc/loadavg)"
ok=0
awk "BEGIN{exit !($ratio <= 2.0)}" || { log "goal missed: analyze takes ${ratio}x trace inspect"; ok=1; }
[ "$a_rss" -lt 512 ] || { log "goal missed: analyze peak RSS ${a_rss} MB"; ok=1; }
exit $ok
