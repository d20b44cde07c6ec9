# benchplan AIPerf Job program (python3 benchplan-job.py AIPERF_PROFILE_ARGS...), mounted from the Job's
# config ConfigMap beside ship-artifacts.py and the AIPerf config(s). Everything run-specific arrives in
# BENCHPLAN_* environment variables and the arguments; this text is the same for every run. Standard
# library only (the AIPerf image is distroless: no curl, jq, cat or mkdir).
# stdout ends with the summary JSON between marker lines (when AIPerf wrote one at the top of the
# artifact dir), then every file AIPerf wrote as one verified artifact block (ship-artifacts.py, see
# dev.benchplan.artifacts.ArtifactChannel; bounded by BENCHPLAN_ARTIFACT_LOG_MAX_BYTES), and always
#   ==== benchplan:aiperf-exit:<code> ====
# BENCHPLAN_RUN_DIRS (space-separated) makes one Job measure several load points one after another:
# run i's config is BENCHPLAN_CONFIG_DIR/aiperf-config.<dir i>.yaml (one ConfigMap key each), written
# to AIPerf's artifact dir + /<dir i>; each run is framed by
#   ==== benchplan:aiperf-run:begin <dir> <epoch s> ==== and ==== benchplan:aiperf-run:end <dir> <exit> <epoch s> ====
# and the Job's code is the first non-zero.
# Codes besides AIPerf's own: 124 model not listed in time, 65 trace SHA-256 mismatch, 73 artifact
# directory not writable, 127 aiperf missing, 66 AIPerf exited 0 without writing its summary
# (AIPerf 0.11 does that when pyarrow is missing: exit 0 alone proves nothing).
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

SUMMARY = "profile_export_aiperf.json"
EXIT_MODEL_NOT_LISTED = 124
EXIT_TRACE_MISMATCH = 65
EXIT_NO_SUMMARY = 66
EXIT_ARTIFACT_DIR = 73
EXIT_MISSING_TOOL = 127
HERE = os.path.dirname(os.path.abspath(__file__))


def say(text):
    print("benchplan: %s" % text, file=sys.stderr, flush=True)


def line(text):
    sys.stdout.write("==== benchplan:%s ====\n" % text)
    sys.stdout.flush()


def finish(code, artifact_dir, ship=True):
    summary = os.path.join(artifact_dir, SUMMARY)
    if os.path.isfile(summary) and os.path.getsize(summary) > 0:
        with open(summary, "rb") as f:
            data = f.read()
        line("aiperf-summary:begin")
        sys.stdout.buffer.write(data if data.endswith(b"\n") else data + b"\n")
        sys.stdout.buffer.flush()
        line("aiperf-summary:end")
    if ship and os.path.isdir(artifact_dir):
        ship_args = [sys.executable, os.path.join(HERE, "ship-artifacts.py"), artifact_dir]
        limit = os.environ.get("BENCHPLAN_ARTIFACT_LOG_MAX_BYTES", "")
        if limit:
            ship_args.append(limit)
        if subprocess.call(ship_args) != 0:
            say("shipping the artifacts failed")
            line("artifacts:failed")
    line("aiperf-exit:%d" % code)
    sys.exit(code)


def preflight_failed(reason, code, artifact_dir):
    line("preflight-failed:" + reason)
    finish(code, artifact_dir, ship=False)


def trace_matches(path, expected):
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as e:
        say("cannot read trace %s: %s" % (path, e))
        return False
    if digest.hexdigest() != expected:
        say("trace %s has SHA-256 %s, the plan recorded %s" % (path, digest.hexdigest(), expected))
        return False
    say("trace %s matches the plan (SHA-256 %s)" % (path, expected))
    return True


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


def wait_ready():
    # The frontend answers /health (and may list the model) before workers are ready, so wait until
    # /v1/models lists the served model AND one real chat completion answers with non-empty content,
    # all within BENCHPLAN_MODEL_WAIT_SECONDS. Each request may take up to
    # BENCHPLAN_READY_REQUEST_TIMEOUT_SECONDS: a fresh worker's first inference can take ~45 s and is
    # lost when the client disconnects, so a shorter cap would start it over forever.
    base = os.environ["BENCHPLAN_ENDPOINT"]
    url, chat = base + "/v1/models", base + "/v1/chat/completions"
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
        return max(0.5, min(per_request, deadline - time.monotonic()))

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
                say("%s lists %r" % (url, model))
                started = time.monotonic()
            request = urllib.request.Request(chat, data=body, headers={"Content-Type": "application/json"})
            with opener.open(request, timeout=timeout()) as response:
                answer = json.load(response)
            if content(answer) is None:
                raise ValueError("a chat completion without content: %s" % json.dumps(answer)[:200])
            say("%s answered a chat completion for %r in %.1f s" % (chat, model, time.monotonic() - started))
            return True
        except Exception as e:
            seen = "%s: %s after %.1f s" % (type(e).__name__, e, time.monotonic() - started)
        where = chat if listed else url
        if time.monotonic() >= deadline:
            what = "answer a chat completion for" if listed else "list"
            say("%s did not %s %r within %d s (%s)" % (where, what, model, limit, seen))
            return False
        say("waiting for %r at %s (%s)" % (model, where, seen))
        time.sleep(min(poll, max(0.1, deadline - time.monotonic())))


def has_summary(folder):
    for _, _, names in os.walk(folder):
        if SUMMARY in names:
            return True
    return False


def profile(args, folder):
    """Runs aiperf profile ARGS; a 0 exit without a summary under FOLDER becomes EXIT_NO_SUMMARY."""
    say("aiperf profile %s" % " ".join(args))
    sys.stdout.flush()
    code = subprocess.call(["aiperf", "profile"] + args)
    if code == 0 and not has_summary(folder):
        say("aiperf exited 0 but wrote no %s under %s: no result to gate (AIPerf 0.11 does this"
            " when its export dependencies, e.g. pyarrow, are missing from the image)" % (SUMMARY, folder))
        return EXIT_NO_SUMMARY
    return code


def main(args):
    artifact_dir = os.environ["BENCHPLAN_ARTIFACT_DIR"]
    try:
        os.makedirs(artifact_dir, exist_ok=True)
    except OSError as e:
        say("cannot create %s: %s" % (artifact_dir, e))
        preflight_failed("artifact-dir", EXIT_ARTIFACT_DIR, artifact_dir)
    trace = os.environ.get("BENCHPLAN_TRACE_PATH", "")
    if trace and not trace_matches(trace, os.environ.get("BENCHPLAN_TRACE_SHA256", "")):
        preflight_failed("trace-sha256", EXIT_TRACE_MISMATCH, artifact_dir)
    if not wait_ready():
        preflight_failed("model-not-listed", EXIT_MODEL_NOT_LISTED, artifact_dir)
    if shutil.which("aiperf") is None:
        say("aiperf is not on PATH")
        preflight_failed("no-aiperf", EXIT_MISSING_TOOL, artifact_dir)
    dirs = os.environ.get("BENCHPLAN_RUN_DIRS", "").split()
    if not dirs:
        finish(profile(args, artifact_dir), artifact_dir)
    configs = os.environ["BENCHPLAN_CONFIG_DIR"]
    overall = 0
    for d in dirs:
        config = os.path.join(configs, "aiperf-config.%s.yaml" % d)
        line("aiperf-run:begin %s %.6f" % (d, time.time()))
        if os.path.isfile(config):
            code = profile(["--config", config], os.path.join(artifact_dir, d))
        else:
            say("%s is missing: the ConfigMap holds no config for run %s" % (config, d))
            code = EXIT_ARTIFACT_DIR
        line("aiperf-run:end %s %d %.6f" % (d, code, time.time()))
        overall = overall or code
    finish(overall, artifact_dir)


if __name__ == "__main__":
    main(sys.argv[1:])
