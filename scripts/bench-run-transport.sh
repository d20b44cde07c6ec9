#!/usr/bin/env bash
# Measures the artifact channel (issue 12): for trees of 1, 10 and 100 MB (AIPerf-like JSONL records
# plus 10% random binary), the pod-side encoder's time and log size, and the time and peak RSS of
# the Java decoder from a complete pod log to a verified tree (what `run` does after the pod
# completes, without the API round trip). Drives the decoder directly, not the cluster.
# Usage: scripts/bench-run-transport.sh [SIZES_MB...]   (needs: mvn -o package -DskipTests first,
# or target/classes + the test classpath; python3; GNU time for RSS when present)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1 10 100}")
[ "$#" -eq 0 ] && sizes=(1 10 100)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp="target/classes:$(mvn -B -ntp -o -q dependency:build-classpath -Dmdep.outputFile=/dev/stdout)"
python3 -c 'import sys; open(sys.argv[1], "w").write(sys.stdin.read())' "$work/ship.py" \
  < src/main/resources/dev/benchplan/artifacts/ship-artifacts.py
cat > "$work/Decode.java" <<'JAVA'
import dev.benchplan.artifacts.ArtifactChannel;
import java.nio.file.*;
public class Decode {
  public static void main(String[] a) throws Exception {
    long t0 = System.nanoTime();
    try (var r = Files.newBufferedReader(Path.of(a[0]))) {
      var m = ArtifactChannel.decode(r, Path.of(a[1]), a[0]);
      System.out.printf("decoded %d files, %d bytes in %.2f s%n", m.files().size(), m.totalBytes(), (System.nanoTime() - t0) / 1e9);
    }
  }
}
JAVA
javac -cp "$cp" -d "$work" "$work/Decode.java"
printf '%-8s %-12s %-12s %-10s %-10s %-10s\n' size_mb tree_bytes log_bytes encode_s decode_s peak_rss_mb
for mb in "${sizes[@]}"; do
  tree="$work/tree-$mb"
  python3 - "$tree" "$mb" <<'PY'
import json, os, random, sys
root, mb = sys.argv[1], int(sys.argv[2])
random.seed(mb)
os.makedirs(os.path.join(root, "profile_runs/run_0001"), exist_ok=True)
target = mb * 1000 * 1000
with open(os.path.join(root, "profile_runs/run_0001/gpu_telemetry.bin"), "wb") as f:
    f.write(os.urandom(target // 10))
with open(os.path.join(root, "profile_runs/run_0001/profile_export.jsonl"), "w") as f:
    n = 0
    while n < target * 9 // 10:
        rec = json.dumps({"metadata": {"x_request_id": "%032x" % random.getrandbits(128), "turn_index": 0},
                          "metrics": {"time_to_first_token": {"value": random.uniform(10, 90), "unit": "ms"},
                                      "inter_token_latencies": {"value": [random.uniform(4, 9) for _ in range(64)], "unit": "ms"}},
                          "error": None}) + "\n"
        f.write(rec); n += len(rec)
PY
  s=$(date +%s.%N)
  python3 "$work/ship.py" "$tree" > "$work/pod-$mb.log"
  e=$(date +%s.%N)
  tree_bytes=$(du -sb "$tree" | cut -f1)
  log_bytes=$(stat -c %s "$work/pod-$mb.log")
  if command -v /usr/bin/time >/dev/null; then
    /usr/bin/time -f '%e %M' -o "$work/time" java -cp "$work:$cp" Decode "$work/pod-$mb.log" "$work/out-$mb" >/dev/null
    read -r dec rss < "$work/time"
    rss=$((rss / 1024))
  else
    s2=$(date +%s.%N); java -cp "$work:$cp" Decode "$work/pod-$mb.log" "$work/out-$mb" >/dev/null; e2=$(date +%s.%N)
    dec=$(echo "$e2 - $s2" | bc); rss=n/a
  fi
  diff -r "$tree" "$work/out-$mb" >/dev/null || { echo "restored tree differs for $mb MB" >&2; exit 1; }
  printf '%-8s %-12s %-12s %-10.2f %-10s %-10s\n' "$mb" "$tree_bytes" "$log_bytes" "$(echo "$e - $s" | bc)" "$dec" "$rss"
  rm -rf "$tree" "$work/out-$mb" "$work/pod-$mb.log"
done
