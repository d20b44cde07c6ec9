#!/usr/bin/env bash
# Benchmark of `benchplan trace inspect` (issue 2's performance targets), measured in one run:
#   - generates a ~45 MB and a ~450 MB Mooncake-format trace in a temp dir (the real conversation
#     trace from ../shared/data/mooncake repeated, each copy's timestamps and hash ids shifted past
#     the previous copy's, so the trace stays monotonic and every copy adds new unique blocks);
#   - on each: `bin/benchplan trace inspect` (wall time, peak RSS via /usr/bin/time -v),
#     `openssl dgst -sha256`, and a straightforward Python json + hashlib reader when python3 exists;
#   - prints a table with MB/s and ms/MB, and checks the targets: the largest file in under 2 s (the
#     absolute goal; the ratio to OpenSSL is printed beside it), peak RSS <= 512 MB, time per MB
#     flat from 45 MB to 450 MB.
# The generated files are deleted afterwards.
#
# Environment: BENCH_REPEAT (runs per tool and size, best kept; default 3), BENCH_PYTHON=0 to skip
# the Python reader, BENCH_SIZES_MB (default "45 450"), BENCH_TMP (parent of the temp dir),
# BENCH_BASELINE_JAR (another build's benchplan.jar, e.g. the previous commit's, measured in the
# same run as "benchplan (baseline)" so before/after figures share the machine's load; it gets its
# own class-data archive beside it, so copy it to a writable folder first; it runs through this
# checkout's launcher), or BENCH_BASELINE (another checkout's bin/benchplan, with its own
# target/benchplan.jar: the baseline with its own launcher, e.g. `git worktree add /tmp/base
# <commit>` built there).
# The load average is printed before and after: on a shared machine, compare ratios to openssl
# from the same run, not wall times across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

repeat="${BENCH_REPEAT:-3}"
sizes="${BENCH_SIZES_MB:-45 450}"
base="${BENCHPLAN_SHARED_DATA:-$root/../shared/data}/mooncake/conversation_trace.jsonl"

log() { printf '[bench-trace] %s\n' "$*" >&2; }

[ -f "$base" ] || { log "missing $base (the Mooncake conversation trace)"; exit 2; }
command -v openssl >/dev/null || { log "openssl is required"; exit 2; }
if [ ! -x /usr/bin/time ]; then
  log "installing the Debian 'time' package (for /usr/bin/time -v)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
if [ ! -f target/benchplan.jar ]; then
  log "building target/benchplan.jar"
  mvn -q -B -DskipTests package
fi

tmp="$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/bench-trace.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# --- trace generator (Java single-file program: fast, no extra dependency) ---
cat >"$tmp/GenTrace.java" <<'EOF'
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

/** Repeats a Mooncake trace until it reaches a size, shifting timestamps and hash ids per copy. */
public class GenTrace {
  public static void main(String[] args) throws IOException {
    Path base = Paths.get(args[0]);
    Path out = Paths.get(args[1]);
    long target = Long.parseLong(args[2]);
    Pattern num = Pattern.compile("\"(timestamp|input_length|output_length)\"\\s*:\\s*(\\d+)");
    Pattern ids = Pattern.compile("\"hash_ids\"\\s*:\\s*\\[([^\\]]*)\\]");
    List<long[]> rows = new ArrayList<>();
    List<long[]> hashes = new ArrayList<>();
    long maxTs = 0, maxId = 0, baseBytes = Files.size(base);

    for (String line : Files.readAllLines(base, StandardCharsets.UTF_8)) {
      if (line.isBlank()) continue;
      long[] r = new long[3];
      Matcher m = num.matcher(line);
      while (m.find()) {
        int k = m.group(1).equals("timestamp") ? 0 : m.group(1).equals("input_length") ? 1 : 2;
        r[k] = Long.parseLong(m.group(2));
      }
      Matcher h = ids.matcher(line);
      long[] hs = new long[0];
      if (h.find() && !h.group(1).isBlank()) {
        hs = Arrays.stream(h.group(1).split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
      }
      for (long x : hs) maxId = Math.max(maxId, x);
      maxTs = Math.max(maxTs, r[0]);
      rows.add(r);
      hashes.add(hs);
    }
    long copies = 0, written = 0;
    try (Writer w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(out), StandardCharsets.UTF_8), 1 << 20)) {
      StringBuilder sb = new StringBuilder(1 << 16);
      // whole copies while the file is further below the target than one copy's size beyond it
      for (long c = 0; written == 0 || target - written > baseBytes / 2; c++, copies++) {
        long tsShift = c * (maxTs + 1), idShift = c * (maxId + 1);
        for (int i = 0; i < rows.size(); i++) {
          long[] r = rows.get(i);
          sb.setLength(0);
          sb.append("{\"timestamp\": ").append(r[0] + tsShift)
            .append(", \"input_length\": ").append(r[1])
            .append(", \"output_length\": ").append(r[2])
            .append(", \"hash_ids\": [");
          long[] hs = hashes.get(i);
          for (int j = 0; j < hs.length; j++) {
            if (j > 0) sb.append(", ");
            sb.append(hs[j] + idShift);
          }
          sb.append("]}\n");
          w.append(sb);
          written += sb.length(); // ASCII: one byte per char
        }
      }
    }
    System.out.println(copies);
  }
}
EOF

# --- the straightforward Python reader the issue compares with ---
cat >"$tmp/naive_reader.py" <<'EOF'
import hashlib, json, sys
path = sys.argv[1]
digest = hashlib.sha256()
inputs, outputs, blocks, rows = [], [], set(), 0
with open(path, "rb") as f:
    for raw in f:
        digest.update(raw)
        if not raw.strip():
            continue
        row = json.loads(raw)
        rows += 1
        inputs.append(row["input_length"])
        outputs.append(row.get("output_length", 0))
        blocks.update(row.get("hash_ids", ()))
inputs.sort(); outputs.sort()
print(json.dumps({"sha256": digest.hexdigest(), "rows": rows, "unique_blocks": len(blocks),
                  "input_p50": inputs[len(inputs) // 2], "output_p50": outputs[len(outputs) // 2]}))
EOF

now_ns() { date +%s%N; }

# run LABEL OUTFILE CMD...: runs CMD under /usr/bin/time -v; sets run_s (wall seconds, from the
# clock around it) and run_rss_mb (peak RSS); fails the benchmark if CMD fails unexpectedly
run() {
  local label="$1" outfile="$2"; shift 2
  local t0 t1 rc=0
  t0=$(now_ns)
  /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$outfile" 2>"$tmp/stderr.txt" || rc=$?
  t1=$(now_ns)
  if [ "$rc" -ne 0 ]; then
    log "$label failed (exit $rc):"; cat "$tmp/stderr.txt" >&2; exit 1
  fi
  run_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  run_rss_mb=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$tmp/time.txt")
  run_cpu_s=$(awk -F': ' '/User time|System time/ { t += $2 } END { printf "%.2f", t }' "$tmp/time.txt")
}

# best LABEL OUTFILE CMD...: best wall time of $repeat runs (and that run's RSS)
best() {
  local label="$1" outfile="$2"; shift 2
  best_s=""; best_rss=""; best_cpu=""; all_s=""
  for _ in $(seq "$repeat"); do
    run "$label" "$outfile" "$@"
    all_s="$all_s $run_s"
    if [ -z "$best_s" ] || awk -v a="$run_s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s="$run_s"; best_rss="$run_rss_mb"; best_cpu="$run_cpu_s"
    fi
  done
  log "  $label: wall times$all_s s"
}

results="$tmp/results.tsv"
: >"$results"
java_bin="java"; [ -n "${JAVA_HOME:-}" ] && java_bin="$JAVA_HOME/bin/java"

baseline_jar="${BENCH_BASELINE_JAR:-}"
baseline_cmd=()
if [ -n "${BENCH_BASELINE:-}" ]; then
  [ -x "$BENCH_BASELINE" ] || { log "BENCH_BASELINE: not an executable launcher: $BENCH_BASELINE"; exit 2; }
  baseline_cmd=("$BENCH_BASELINE")
elif [ -n "$baseline_jar" ]; then
  [ -f "$baseline_jar" ] || { log "BENCH_BASELINE_JAR: no such file: $baseline_jar"; exit 2; }
  baseline_jar="$(cd "$(dirname "$baseline_jar")" && pwd)/$(basename "$baseline_jar")"
  baseline_cmd=(env BENCHPLAN_JAR="$baseline_jar" bin/benchplan)
fi
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# start-up baseline: the same command on a one-row trace, to separate fixed cost from per-MB cost
head -n 1 "$base" >"$tmp/one-row.jsonl"
best "benchplan (1 row)" "$tmp/report.json" bin/benchplan trace inspect "$tmp/one-row.jsonl" --format json
startup_s="$best_s"
echo -e "0\t$(stat -c %s "$tmp/one-row.jsonl")\tbenchplan trace inspect, 1 row\t$best_s\t$best_rss\t$best_cpu" >>"$results"
if [ "${#baseline_cmd[@]}" -gt 0 ]; then
  best "benchplan (baseline, 1 row)" "$tmp/report-baseline.json" \
    "${baseline_cmd[@]}" trace inspect "$tmp/one-row.jsonl" --format json
  echo -e "0\t$(stat -c %s "$tmp/one-row.jsonl")\tbaseline trace inspect, 1 row\t$best_s\t$best_rss\t$best_cpu" >>"$results"
fi

for mb in $sizes; do
  trace="$tmp/trace-${mb}mb.jsonl"
  log "generating ~${mb} MB trace from $(basename "$base")"
  copies=$("$java_bin" "$tmp/GenTrace.java" "$base" "$trace" $((mb * 1000 * 1000)))
  bytes=$(stat -c %s "$trace")
  rows=$(wc -l <"$trace")
  log "  $bytes bytes, $rows rows ($copies copies); warming the page cache"
  cat "$trace" >/dev/null

  best "benchplan" "$tmp/report.json" bin/benchplan trace inspect "$trace" --format json
  echo -e "$mb\t$bytes\tbenchplan trace inspect\t$best_s\t$best_rss\t$best_cpu" >>"$results"
  bp_sha=$(grep -o '"sha256" : "[0-9a-f]*"' "$tmp/report.json" | grep -o '[0-9a-f]\{64\}')
  if [ "${#baseline_cmd[@]}" -gt 0 ]; then
    best "benchplan (baseline)" "$tmp/report-baseline.json" \
      "${baseline_cmd[@]}" trace inspect "$trace" --format json
    echo -e "$mb\t$bytes\tbaseline trace inspect\t$best_s\t$best_rss\t$best_cpu" >>"$results"
  fi
  bp_rows=$(grep -o '"rows" : [0-9]*' "$tmp/report.json" | head -1 | grep -o '[0-9]*$')

  best "openssl" "$tmp/openssl.txt" openssl dgst -sha256 "$trace"
  echo -e "$mb\t$bytes\topenssl dgst -sha256\t$best_s\t$best_rss\t$best_cpu" >>"$results"
  ssl_sha=$(grep -o '[0-9a-f]\{64\}' "$tmp/openssl.txt")
  [ "$bp_sha" = "$ssl_sha" ] || { log "SHA-256 mismatch: benchplan $bp_sha, openssl $ssl_sha"; exit 1; }
  [ "$bp_rows" = "$rows" ] || { log "row count mismatch: benchplan $bp_rows, wc -l $rows"; exit 1; }

  if command -v python3 >/dev/null && [ "${BENCH_PYTHON:-1}" != "0" ]; then
    run "python" "$tmp/python.json" python3 "$tmp/naive_reader.py" "$trace"
    echo -e "$mb\t$bytes\tpython3 json+hashlib (1 run)\t$run_s\t$run_rss_mb\t$run_cpu_s" >>"$results"
    grep -q "\"sha256\": \"$ssl_sha\"" "$tmp/python.json" || { log "python SHA-256 mismatch"; exit 1; }
  fi
  rm -f "$trace"
done

echo
echo "trace inspect benchmark ($(nproc) cores, load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after; best of $repeat runs; $(date -u +%Y-%m-%dT%H:%M:%SZ))"
awk -F'\t' '
  !header++ { printf "%-8s %-30s %9s %10s %9s %9s %9s\n", "file", "tool", "wall s", "MB/s", "ms/MB", "CPU s", "RSS MB" }
  $1 == 0 { printf "%-8s %-30s %9.3f %10s %9s %9.2f %9d\n", "1 row", $3, $4, "-", "-", $6, $5; next }
  { mb = $2 / 1e6; s = $4
    printf "%-8s %-30s %9.3f %10.1f %9.2f %9.2f %9d\n", sprintf("%.0f MB", mb), $3, s, mb / s, 1000 * s / mb, $6, $5
    if ($3 ~ /^benchplan/) { bp[$1] = s; bpms[$1] = 1000 * s / mb; bprss[$1] = $5; bpmb[$1] = mb }
    if ($3 ~ /^openssl/) { ssl[$1] = s }
    if ($3 ~ /^baseline/) { base[$1] = s }
    sizes[$1] = 1 }
  END {
    n = 0; small = ""; large = ""
    for (k in sizes) { n++; if (small == "" || k + 0 < small + 0) small = k; if (large == "" || k + 0 > large + 0) large = k }
    print ""
    ratio = bp[large] / ssl[large]
    printf "target: %s MB in under 2 s (the absolute goal): %.3f s -> %s (%.2fx openssl)\n", large, bp[large], bp[large] < 2 ? "MET" : "MISSED", ratio
    if (large in base) printf "        baseline on %s MB: %.2fx openssl (same run)\n", large, base[large] / ssl[large]
    maxrss = 0; for (k in bprss) if (bprss[k] > maxrss) maxrss = bprss[k]
    printf "target: peak RSS <= 512 MB: %d MB -> %s\n", maxrss, maxrss <= 512 ? "MET" : "MISSED"
    if (n > 1) {
      flat = bpms[large] / bpms[small]
      printf "target: ms/MB flat from %s to %s MB: %.2f -> %.2f ms/MB (ratio %.2f) -> %s\n", small, large, bpms[small], bpms[large], flat, flat <= 1.25 ? "MET" : "MISSED"
      # the same without the fixed start-up (the 1-row run): the cost of the pass itself
      a = 1000 * (bp[small] - startup) / bpmb[small]; b = 1000 * (bp[large] - startup) / bpmb[large]
      printf "        scan only (minus the %.3f s start-up): %.2f -> %.2f ms/MB (ratio %.2f)\n", startup, a, b, b / a
    }
  }' startup="$startup_s" "$results"
