# benchplan AIPerf Job entrypoint (bash -c SCRIPT benchplan-aiperf AIPERF_PROFILE_ARGS...).
# Everything run-specific arrives in BENCHPLAN_* environment variables and the arguments; this
# text is the same for every run. Only bash builtins and python3 are used (the AIPerf image is
# distroless: no curl, jq, cat or mkdir on PATH).
# stdout ends with the summary JSON between marker lines (when AIPerf wrote one at the top of the
# artifact dir), then every file AIPerf wrote as one verified artifact block (ship-artifacts.py, see
# dev.benchplan.artifacts.ArtifactChannel; bounded by BENCHPLAN_ARTIFACT_LOG_MAX_BYTES), and always
#   ==== benchplan:aiperf-exit:<code> ====
# BENCHPLAN_RUN_DIRS (space-separated) makes one Job measure several load points one after another:
# document i of the config file is run i's config, written to AIPerf's artifact dir + /<dir i>;
# each run is framed by ==== benchplan:aiperf-run:begin <dir> <epoch s> ==== and
# ==== benchplan:aiperf-run:end <dir> <exit> <epoch s> ====; the Job's code is the first non-zero.
# Codes when AIPerf did not run: 124 model not listed in time, 65 trace SHA-256 mismatch,
# 73 artifact directory not writable, 127 python3 or aiperf missing.
set -u

say() { echo "benchplan: $*" >&2; }

SHIP_ARTIFACTS_PY='@SHIP_ARTIFACTS_PY@'

finish() {
  local code="$1"
  local ship="${2:-ship}"
  local summary="${BENCHPLAN_ARTIFACT_DIR}/profile_export_aiperf.json"
  if [ -n "${py:-}" ] && [ -s "$summary" ]; then
    echo '==== benchplan:aiperf-summary:begin ===='
    "$py" -c '
import sys
data = open(sys.argv[1], "rb").read()
sys.stdout.buffer.write(data)
if not data.endswith(b"\n"):
    sys.stdout.buffer.write(b"\n")
sys.stdout.flush()
' "$summary"
    echo '==== benchplan:aiperf-summary:end ===='
  fi
  if [ "$ship" = ship ] && [ -n "${py:-}" ] && [ -d "$BENCHPLAN_ARTIFACT_DIR" ]; then
    if ! "$py" -c "$SHIP_ARTIFACTS_PY" "$BENCHPLAN_ARTIFACT_DIR" ${BENCHPLAN_ARTIFACT_LOG_MAX_BYTES:+"$BENCHPLAN_ARTIFACT_LOG_MAX_BYTES"}; then
      say "shipping the artifacts failed"
      echo '==== benchplan:artifacts:failed ===='
    fi
  fi
  echo "==== benchplan:aiperf-exit:${code} ===="
  exit "$code"
}

preflight_failed() {
  echo "==== benchplan:preflight-failed:$1 ===="
  finish "$2" no-ship
}

py="$(command -v python3 || command -v python || true)"
if [ -z "$py" ]; then
  say "no python3 in the image"
  preflight_failed no-python 127
fi

if ! "$py" -c 'import os, sys; os.makedirs(sys.argv[1], exist_ok=True)' "$BENCHPLAN_ARTIFACT_DIR"; then
  say "cannot create ${BENCHPLAN_ARTIFACT_DIR}"
  preflight_failed artifact-dir 73
fi

if [ -n "${BENCHPLAN_TRACE_PATH:-}" ]; then
  if ! "$py" -c '
import hashlib, sys
path, expected = sys.argv[1], sys.argv[2]
digest = hashlib.sha256()
try:
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
except OSError as e:
    print("benchplan: cannot read trace %s: %s" % (path, e), file=sys.stderr)
    sys.exit(1)
if digest.hexdigest() != expected:
    print("benchplan: trace %s has SHA-256 %s, the plan recorded %s" % (path, digest.hexdigest(), expected), file=sys.stderr)
    sys.exit(1)
print("benchplan: trace %s matches the plan (SHA-256 %s)" % (path, expected), file=sys.stderr)
' "$BENCHPLAN_TRACE_PATH" "$BENCHPLAN_TRACE_SHA256"; then
    preflight_failed trace-sha256 65
  fi
fi

# Bounded wait: the frontend answers /health (and may list the model) before workers are ready,
# so wait until /v1/models lists the served model AND one real chat completion answers with
# non-empty content, all within BENCHPLAN_MODEL_WAIT_SECONDS. Each request may take up to
# BENCHPLAN_READY_REQUEST_TIMEOUT_SECONDS (default 120, inside the overall bound): a fresh worker's
# first inference can take ~45 s and is lost when the client disconnects, so a shorter cap would
# start it over forever. (AIPerf's own probe counts any status below 500 as ready: not enough.)
if ! "$py" -c '
import json, os, sys, time, urllib.request
base = os.environ["BENCHPLAN_ENDPOINT"]
url = base + "/v1/models"
chat = base + "/v1/chat/completions"
model = os.environ["BENCHPLAN_MODEL"]
limit = int(os.environ["BENCHPLAN_MODEL_WAIT_SECONDS"])
per_request = float(os.environ.get("BENCHPLAN_READY_REQUEST_TIMEOUT_SECONDS", "120"))
poll = float(os.environ.get("BENCHPLAN_MODEL_POLL_SECONDS", "5"))
deadline = time.monotonic() + limit
# direct, like AIPerf itself: an HTTP proxy from the environment must not answer for the frontend
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
body = json.dumps({"model": model, "messages": [{"role": "user", "content": "Say OK."}],
                   "max_tokens": 4, "stream": False}).encode()
def timeout():
    # the per-request bound, cut only by what is left of the overall one
    return max(0.5, min(per_request, deadline - time.monotonic()))
def content(answer):
    for choice in answer.get("choices") or []:
        message = choice.get("message") or {}
        for key in ("content", "reasoning_content"):
            value = message.get(key)
            if isinstance(value, str) and value.strip():
                return value
        text = choice.get("text")
        if isinstance(text, str) and text.strip():
            return text
    return None
listed = False
while True:
    started = time.monotonic()
    try:
        if not listed:
            with opener.open(url, timeout=timeout()) as response:
                ids = [m.get("id") for m in json.load(response).get("data", [])]
            if model not in ids:
                raise LookupError("listed: %r" % (ids,))
            listed = True
            print("benchplan: %s lists %r" % (url, model), file=sys.stderr)
            started = time.monotonic()
        request = urllib.request.Request(chat, data=body, headers={"Content-Type": "application/json"})
        with opener.open(request, timeout=timeout()) as response:
            answer = json.load(response)
        if content(answer) is None:
            raise ValueError("a chat completion without content: %s" % json.dumps(answer)[:200])
        print("benchplan: %s answered a chat completion for %r in %.1f s" % (chat, model, time.monotonic() - started), file=sys.stderr)
        sys.exit(0)
    except Exception as e:
        seen = "%s: %s after %.1f s" % (type(e).__name__, e, time.monotonic() - started)
    if time.monotonic() >= deadline:
        what = "answer a chat completion for" if listed else "list"
        where = chat if listed else url
        print("benchplan: %s did not %s %r within %d s (%s)" % (where, what, model, limit, seen), file=sys.stderr)
        sys.exit(1)
    print("benchplan: waiting for %r at %s (%s)" % (model, chat if listed else url, seen), file=sys.stderr)
    time.sleep(min(poll, max(0.1, deadline - time.monotonic())))
'; then
  preflight_failed model-not-listed 124
fi

if ! command -v aiperf >/dev/null 2>&1; then
  say "aiperf is not on PATH"
  preflight_failed no-aiperf 127
fi
if [ -z "${BENCHPLAN_RUN_DIRS:-}" ]; then
  say "aiperf profile $*"
  aiperf profile "$@"
  finish "$?"
fi

# several load points: split the config file into one document per run, then run them in order
configs="${BENCHPLAN_ARTIFACT_DIR%/}.configs"
read -r -a dirs <<< "$BENCHPLAN_RUN_DIRS"
if ! "$py" -c '
import os, sys
text, out, n = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2], int(sys.argv[3])
docs, current = [], []
for line in text.splitlines(keepends=True):
    if line.rstrip("\r\n") == "---":
        docs.append("".join(current)); current = []
    else:
        current.append(line)
docs.append("".join(current))
if len(docs) != n:
    print("benchplan: %s holds %d documents, BENCHPLAN_RUN_DIRS names %d runs" % (sys.argv[1], len(docs), n), file=sys.stderr)
    sys.exit(1)
os.makedirs(out, exist_ok=True)
for i, d in enumerate(docs):
    with open(os.path.join(out, "%d.yaml" % i), "w", encoding="utf-8") as f:
        f.write(d)
' "$BENCHPLAN_CONFIG_PATH" "$configs" "${#dirs[@]}"; then
  preflight_failed config-split 73
fi
overall=0
for i in "${!dirs[@]}"; do
  echo "==== benchplan:aiperf-run:begin ${dirs[$i]} ${EPOCHREALTIME:-$SECONDS} ===="
  say "aiperf profile --config ${configs}/${i}.yaml (${dirs[$i]})"
  aiperf profile --config "${configs}/${i}.yaml"
  code=$?
  echo "==== benchplan:aiperf-run:end ${dirs[$i]} ${code} ${EPOCHREALTIME:-$SECONDS} ===="
  if [ "$overall" = 0 ]; then overall=$code; fi
done
finish "$overall"
