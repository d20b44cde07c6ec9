#!/usr/bin/env bash
# Captures the examples of README.md and docs/readme/ (gate, plan, render, trace-inspect, analyze,
# smoke, validate, run) from real runs of the current jar (bin/benchplan; build it first with
# `mvn -B -DskipTests package`), in the form the pages show them: "$ command" (with the file names
# as the page gives them), its stdout and stderr, the exit code.
# Paste the output over the page's examples; nothing is edited by hand.
#   gate: AIPerf's real export and AICR's H100 overlay from ../shared/data (skipped without it)
#   plan: the bundled examples (examples/), copied to OUT/plan-demo and planned from there, with the
#         examples' clock (SOURCE_DATE_EPOCH, as scripts/examples.sh); the Mooncake trace from
#         ../shared/data when present
#   render: render.md's examples: the refusal of a plan past the pod-log bound (the static example,
#         10000 requests); one load point of a grid (text, JSON, its aiperf-config.yaml); the grid for
#         candidate B (another ledger); the Mooncake trace refused as a ConfigMap, then from a PVC; a
#         flags-mode Job (AIPerf 0.6.0, excerpt); the errors (another SHA-256, a bad namespace)
#   trace: trace-inspect.md's examples (the Mooncake trace, a window, JSON; AIPerf's sample trace)
#   analyze: analyze.md's examples: the real sweep analysed (an audit, the Pareto table), compare
#         refusing two load points, generated runs 3 vs 3, the real concurrency-1 run 1 vs 1
#   smoke: smoke.md's examples against a real llama-server (scripts/endpoint-test-env.sh up with its
#          state in OUT/endpoint, stopped again at the end), run from OUT/demo; then plan.md's failed
#          smoke example, run from OUT/plan-demo on a copy of the example ledger in deploy/
#   validate: validate.md's --defaults aicr run on the shared test control plane
#          (scripts/kube-test-env.sh; it stops at node selection, nothing is created)
#   validate-it: not captures: the transcripts and reports ValidateCliIT left in
#          target/validate-cli/, printed for pasting (run it first:
#          eval "$(scripts/kube-test-env.sh env)"; export KUBECONFIG BENCHPLAN_KUBE_TEST_ENV=1;
#          mvn -B -o verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ValidateCliIT)
#   rbac: rbac.md's example: the rules --no-model-cache leaves out of `rbac validate`
#   readme: README.md's examples that need no cluster: the error document, trace inspect, plan
#          (static from OUT/ex-s4/project as scripts/examples.sh plans it; proxy; the Mooncake trace,
#          whole and windowed; the steady-state and engine refusals from OUT/loadgen-examples), gate
#          (AIPerf's real export and its sweep as OUT/ex/sweep; GateDiagnosticsTest's stalled and
#          client-bound runs as OUT/diag-demo, when target/test-classes holds them), and render with
#          the aiperf-config.yaml it wrote (the smoke and validate examples are smoke's and
#          validate's captures)
#   run: run.md's (and README's) examples: the transcript RunClusterIT#cli leaves in
#          target/run-cli-transcript.txt (run it first on the shared test control plane, as for validate)
# Each example the pages show starts with a line "@@capture SECTION:NAME" (the capture function); a
# page shows it as the fenced block after "<!-- capture SECTION:NAME -->". The commands run in a
# fixed layout in the temporary folder OUT (OUT/benchplan holds the examples, OUT/shared links to
# ../shared), OUT is shown as /tmp and the project's folder as nothing (paths in it relative), so a
# capture is the same in every checkout, wherever it sits, and every run.
#   --update SECTION...: writes every capture of those sections into the pages
#   --check SECTION...: exits 1 with a diff when a page's block differs from what the tool prints
#     now (DocsCapturesIT runs it in CI for the sections that need no cluster and no endpoint and
#     whose output does not carry the time: exit-codes plan render readme trace rbac analyze)
# A new command's examples (e.g. a recovery command's): add a case SECTION) below that prints its
# parts with `capture NAME` before each, add SECTION to the usage line, put the markers in its page,
# run --update SECTION; add SECTION to DocsCapturesIT when it needs no cluster.
#   exit-codes: README's exit-code table, from every command's --help "Exit codes:" list
# Usage: scripts/docs-captures.sh gate|plan|render|trace|analyze|smoke|validate|validate-it|rbac|readme|run|exit-codes [OUT]   (OUT: default a fresh temporary folder)
#        scripts/docs-captures.sh --update|--check SECTION...
set -euo pipefail
home="$(cd "$(dirname "$0")/.." && pwd)"
case "${1:-}" in
--update|--check)
  mode="$1"; shift
  [ "$#" -gt 0 ] || { echo "usage: scripts/docs-captures.sh --update|--check SECTION..." >&2; exit 2; }
  work="$(mktemp -d /tmp/benchplan-docs.XXXXXX)"
  trap 'rm -rf "$work"' EXIT
  # the jar copy (below) made once for every section: each copy costs seconds of a 31 MB rewrite
  if [ -f "$home/target/benchplan.jar" ]; then
    python3 "$home/scripts/docs-captures-jar.py" "$home/target/benchplan.jar" "$work/benchplan-docs.jar"
    export BENCHPLAN_DOCS_JAR="$work/benchplan-docs.jar"
  fi
  for section in "$@"; do
    "$0" "$section" "$work/$section" >>"$work/captures.txt"
  done
  python3 "$home/scripts/docs-captures-apply.py" "$mode" "$home" "$work/captures.txt" "$@"
  exit 0
  ;;
esac
what="${1:?usage: scripts/docs-captures.sh gate|plan|render|trace|analyze|smoke|validate|validate-it|rbac|readme|run|exit-codes [OUT]}"
out="$(realpath -m "${2:-$(mktemp -d "${TMPDIR:-/tmp}/benchplan-docs.XXXXXX")}")"
mkdir -p "$out"
# One layout in OUT, whatever the checkout's place: the project's examples in OUT/benchplan (the
# folder the README's commands run from) and ../shared reached as OUT/shared (a link), so a path a
# sample prints is either under OUT (shown as /tmp) or relative between two places in OUT; never the
# checkout's own place, which differs between clones (/work/main, /tmp/ci-check/main, ...)
proj="$out/benchplan"
rm -rf "$proj" && mkdir -p "$proj" && cp -R "$home/examples" "$proj/"
ln -sfn "$(realpath -m "$home/../shared")" "$out/shared"
data="$out/shared/data"
bp="$home/bin/benchplan"
# a copy of the jar whose recorded commit is "docs": plans record the commit they were made with,
# so captures made from any commit show the same plan SHA-256s and ids
if [ -n "${BENCHPLAN_DOCS_JAR:-}" ]; then
  export BENCHPLAN_JAR="$BENCHPLAN_DOCS_JAR"
elif [ -f "$home/target/benchplan.jar" ]; then
  python3 "$home/scripts/docs-captures-jar.py" "$home/target/benchplan.jar" "$out/.benchplan-docs.jar"
  export BENCHPLAN_JAR="$out/.benchplan-docs.jar"
fi
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1796034600}"
# render's run id from that clock and a fixed seed: identical inputs, byte-identical files
export BENCHPLAN_FIXED_RUN_ID="${BENCHPLAN_FIXED_RUN_ID:-docs}"

# capture NAME: the next example the pages show, until the next capture
capture() { printf '@@capture %s:%s\n' "$what" "$1"; }

# show DISPLAY-COMMAND -- ARGS...: prints "$ DISPLAY-COMMAND", runs benchplan ARGS (stderr after
# stdout, networknt's SLF4J lines left out), then the exit code in the page's style ($exitfmt)
show() {
  local display="$1"; shift; [ "$1" = "--" ] && shift
  printf '$ %s\n' "$display"
  local rc=0
  "$bp" "$@" >"$out/.stdout" 2>"$out/.stderr" || rc=$?
  cat "$out/.stdout"
  grep -v '^SLF4J' "$out/.stderr" || true
  printf -- "$exitfmt\n" "$rc"
}

{
case "$what" in
gate)
  [ -f "$data/aiperf/profile_export_aiperf.json" ] || { echo "no ../shared/data: nothing to capture" >&2; exit 0; }
  exitfmt='(exit %s)'
  mkdir -p "$out/gate-demo" && cd "$out/gate-demo"
  cp "$data/aiperf/profile_export_aiperf.json" .
  cp "$data/aicr/pr641/recipes/overlays/h100-eks-ubuntu-inference-dynamo.yaml" .
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("time_to_first_token"); json.dump(d, open(sys.argv[2], "w"), indent=2)' \
    profile_export_aiperf.json nostream.json
  printf 'validation:\n  performance:\n    constraints:\n      - {name: inference-ttft-p99, value: ">= 200"}\n' >seed.yaml
  names=(overlay flags tolerance-0)
  for args in "--constraints h100-eks-ubuntu-inference-dynamo.yaml --report-dir reports" \
      "--min-throughput 50 --max-ttft-p99 35" "--min-throughput 55 --tolerance 0"; do
    capture "${names[0]}"; names=("${names[@]:1}")
    # shellcheck disable=SC2086
    show "benchplan gate --results profile_export_aiperf.json $args" -- gate --results profile_export_aiperf.json $args
    echo
  done
  capture no-ttft
  show "benchplan gate --results nostream.json --max-ttft-p99 200" -- gate --results nostream.json --max-ttft-p99 200
  echo
  capture no-constraints
  show "benchplan gate --results profile_export_aiperf.json" -- gate --results profile_export_aiperf.json
  echo
  capture seed
  show "benchplan gate --results profile_export_aiperf.json --constraints seed.yaml" -- \
    gate --results profile_export_aiperf.json --constraints seed.yaml
  echo
  capture json
  show "benchplan gate --results profile_export_aiperf.json --min-throughput 50 --max-ttft-p99 35 --format json" -- \
    gate --results profile_export_aiperf.json --min-throughput 50 --max-ttft-p99 35 --format json
  echo
  capture ctrf
  cat reports/ctrf-report.json   # the first example's reports
  echo
  capture junit
  cat reports/junit.xml
  ;;
plan)
  exitfmt='[exit %s]'
  rm -rf "$out/plan-demo" && mkdir -p "$out/plan-demo" && cd "$out/plan-demo"
  cp -R "$home/examples" .
  ex=examples
  q='What throughput does vllm-agg sustain within the support SLOs?'
  capture static
  show "benchplan plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question \"$q\" --aiperf-version 0.13.0" -- \
    plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question "$q" --aiperf-version 0.13.0
  printf '$ stat -c "%%A %%s %%n" experiments/inputs/benchmark-plans/*\n'
  stat -c '%A %s %n' experiments/inputs/benchmark-plans/*
  echo
  # parts of that plan, as the page quotes them
  capture parts
  python3 - experiments/inputs/benchmark-plans/support-chat-*.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
print("// %d rules_applied entries, each {rule, decision, reason}" % len(p["rules_applied"]))
print(json.dumps({"experiment": p["experiment"], "samples": p["samples"][-1:],
                  "objectives": p["objectives"]}, indent=2, sort_keys=True))
PY
  echo
  capture series-exists
  show "benchplan plan --workload .../workload-static.yaml --ledger .../deployment-ledger.yaml --question \"$q\" --aiperf-version 0.13.0" -- \
    plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question "$q" --aiperf-version 0.13.0
  echo
  tq='Does vllm-agg keep TTFT p95 under 2 s replaying the agent sessions?'
  capture trace-proxy
  show "benchplan plan --workload .../workload-trace.yaml --ledger .../deployment-ledger.yaml --question \"$tq\" --aiperf-version 0.13.0 --format json" -- \
    plan --workload $ex/workload-trace.yaml --ledger $ex/deployment-ledger.yaml --question "$tq" --aiperf-version 0.13.0 --format json
  pq='Roughly what throughput can the assistant expect?'
  show "benchplan plan --workload .../workload-proxy.yaml --ledger .../deployment-ledger.yaml --question \"$pq\" --aiperf-version 0.13.0" -- \
    plan --workload $ex/workload-proxy.yaml --ledger $ex/deployment-ledger.yaml --question "$pq" --aiperf-version 0.13.0
  echo
  mooncake="$data/mooncake/conversation_trace.jsonl"
  if [ -f "$mooncake" ]; then
    # through a link in the folder: the path the blockers print is the same wherever OUT is
    ln -sfn "$data" shared-data
    mooncake=shared-data/mooncake/conversation_trace.jsonl
    mq='Can vllm-agg replay the Mooncake conversation trace?'
    capture mooncake
    show "benchplan plan --workload .../workload-trace.yaml --ledger .../deployment-ledger.yaml --question \"$mq\" --trace $mooncake --aiperf-version 0.13.0" -- \
      plan --workload $ex/workload-trace.yaml --ledger $ex/deployment-ledger.yaml --question "$mq" --trace "$mooncake" --aiperf-version 0.13.0
    wq='Can vllm-agg replay the first 25 minutes of the Mooncake conversation trace?'
    show "benchplan plan --workload .../workload-trace.yaml --ledger .../deployment-ledger.yaml --question \"$wq\" --trace $mooncake --trace-window 0:1500000 --aiperf-version 0.13.0" -- \
      plan --workload $ex/workload-trace.yaml --ledger $ex/deployment-ledger.yaml --question "$wq" --trace "$mooncake" --trace-window 0:1500000 --aiperf-version 0.13.0
    echo
  fi
  plan="$(ls experiments/inputs/benchmark-plans/support-chat-*.json)"
  rel="experiments/inputs/benchmark-plans/$(basename "$plan")"
  sha="$(sha256sum "$plan" | cut -d' ' -f1)"
  capture reuse
  show "benchplan plan --workload .../workload-static.yaml --ledger .../deployment-ledger.yaml --question \"Is the new router at least as fast?\" --intent comparison --reference baseline-2026-11-30 --reuse-plan $rel --reuse-sha256 $sha --format json" -- \
    plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question "Is the new router at least as fast?" \
    --intent comparison --reference baseline-2026-11-30 --reuse-plan "$rel" --reuse-sha256 "$sha" --format json
  show "benchplan plan ... --reuse-plan $rel --reuse-sha256 $sha --seed 7 --warmup-requests 32" -- \
    plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question "Is the new router at least as fast?" \
    --intent comparison --reference baseline-2026-11-30 --reuse-plan "$rel" --reuse-sha256 "$sha" --seed 7 --warmup-requests 32
  cp "$plan" tampered.json && chmod u+w tampered.json && sed -i 's/"seed" : 100/"seed" : 101/; s/"seed": 100/"seed": 101/' tampered.json
  show "benchplan plan ... --reuse-plan tampered.json --reuse-sha256 $sha" -- \
    plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question "Is the new router at least as fast?" \
    --intent comparison --reference baseline-2026-11-30 --reuse-plan tampered.json --reuse-sha256 "$sha"
  echo
  # the package index: a JSON document on 127.0.0.1 (python3 -m http.server) listing 0.12.0, 0.13.0,
  # 0.13.1 (yanked), 0.14.0.dev2 and 0.14.0rc1
  mkdir -p index/aiperf
  python3 - index/aiperf/json <<'PY'
import json, sys
rel = {v: [{"filename": f"aiperf-{v}-py3-none-any.whl", "yanked": v == "0.13.1"}]
       for v in ["0.12.0", "0.13.0", "0.13.1", "0.14.0.dev2", "0.14.0rc1"]}
json.dump({"info": {"name": "aiperf", "version": "0.13.0"}, "releases": rel}, open(sys.argv[1], "w"))
PY
  # a fixed port: the index URL is recorded in the plan, so another port is another plan and SHA-256
  port="${BENCHPLAN_DOCS_INDEX_PORT:-54415}"
  (cd index && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
  server=$!
  trap 'kill "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/aiperf/json" >/dev/null && break; sleep 0.2; done
  curl -sf "http://127.0.0.1:$port/aiperf/json" >/dev/null || { echo "port $port is taken: set BENCHPLAN_DOCS_INDEX_PORT" >&2; exit 1; }
  capture index
  show "benchplan plan --workload .../workload-static.yaml --ledger .../deployment-ledger.yaml --question \"$q\" --aiperf-index-url http://127.0.0.1:$port/aiperf/json --exp-root idx-exp" -- \
    plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question "$q" \
    --aiperf-index-url "http://127.0.0.1:$port/aiperf/json" --exp-root idx-exp
  kill "$server" 2>/dev/null || true
  capture index-aiperf
  python3 -c 'import glob,json; p=glob.glob("idx-exp/inputs/benchmark-plans/*.json")[0]; print(json.dumps({"aiperf": json.load(open(p))["aiperf"]}, indent=2))'
  echo
  capture offline
  show "benchplan plan --workload .../workload-static.yaml --ledger .../deployment-ledger.yaml --question q --exp-root offline-exp" -- \
    plan --workload $ex/workload-static.yaml --ledger $ex/deployment-ledger.yaml --question q --exp-root offline-exp
  echo
  printf 'profile:\n  name: support-chat\n  type: chatbot\nmodel:\n  source: Qwen/Qwen3-0.6B\n  hf_token: hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\ntraffic:\n  input_tokens: 512\n  output_tokens: "128"\n  concurrency: [16]\n' >bad-workload.yaml
  capture bad-workload
  printf '$ cat bad-workload.yaml\n'; cat bad-workload.yaml
  show "benchplan plan --workload bad-workload.yaml --ledger .../deployment-ledger.yaml --question q --aiperf-version 0.13.0 --format json" -- \
    plan --workload bad-workload.yaml --ledger $ex/deployment-ledger.yaml --question q --aiperf-version 0.13.0 --format json
  ;;
render)
  # the refusal past the pod-log bound: the static example with traffic.request_count 10000
  exitfmt='[exit %s]'
  rm -rf "$out/render-demo" && mkdir -p "$out/render-demo/deploy" && cd "$out/render-demo"
  cp -R "$home/examples" .
  sed -i 's/^  request_count: 1000$/  request_count: 10000/' examples/workload-static.yaml
  "$bp" plan --workload examples/workload-static.yaml --ledger examples/deployment-ledger.yaml \
    --question "What throughput does vllm-agg sustain for 10000 requests?" --aiperf-version 0.13.0 >/dev/null 2>&1
  plan="$(ls experiments/inputs/benchmark-plans/support-chat-*.json)"
  rel="experiments/inputs/benchmark-plans/$(basename "$plan")"
  sha="$(sha256sum "$plan" | cut -d' ' -f1)"
  capture past-bound
  show "benchplan render --plan $rel --plan-sha256 $sha --deploy-root deploy" -- \
    render --plan "$rel" --plan-sha256 "$sha" --deploy-root deploy
  echo
  # one load point of a grid, text and JSON: the static example at concurrency [16, 32]
  sed 's/^  request_count: 10000$/  request_count: 1000/; s/^  concurrency: \[16\]$/  concurrency: [16, 32]/' \
    examples/workload-static.yaml >examples/workload-grid.yaml
  "$bp" plan --workload examples/workload-grid.yaml --ledger examples/deployment-ledger.yaml \
    --question "Which concurrency of 16 and 32 does vllm-agg sustain?" --aiperf-version 0.13.0 >/dev/null 2>&1
  grid="$(python3 -c 'import glob,json; print([p for p in sorted(glob.glob("experiments/inputs/benchmark-plans/*.json")) if json.load(open(p))["experiment"]["concurrency"] == [16, 32]][0])')"
  gsha="$(sha256sum "$grid" | cut -d' ' -f1)"
  mkdir -p deploy-grid
  capture load-point
  show "benchplan render --plan $grid --plan-sha256 $gsha --deploy-root deploy-grid --load-point 32" -- \
    render --plan "$grid" --plan-sha256 "$gsha" --deploy-root deploy-grid --load-point 32
  show "benchplan render … --load-point 32 --format json" -- \
    render --plan "$grid" --plan-sha256 "$gsha" --deploy-root deploy-grid --load-point 32 --format json
  capture load-point-config
  cat deploy-grid/benchmark/aiperf-config.yaml
  echo
  # candidate B (as SkillWalkthroughTest builds it): its DGD vllm-agg-b, the example smoke artifact,
  # its ledger (namespace bench2, Service vllm-agg-b-frontend); the grid plan rendered for it
  mkdir -p candidate-b deploy-b
  sed 's/^  name: vllm-agg$/  name: vllm-agg-b/' examples/dgd.yaml >candidate-b/dgd.yaml
  cp examples/smoke_test_artifact.json candidate-b/
  sed "s/^dgd_name: vllm-agg$/dgd_name: vllm-agg-b/; s/^namespace: bench$/namespace: bench2/;
       s/^  service: vllm-agg-frontend$/  service: vllm-agg-b-frontend/;
       /^applied_dgd:/,/sha256:/ s/sha256: [0-9a-f]*/sha256: $(sha256sum candidate-b/dgd.yaml | cut -d' ' -f1)/" \
    examples/deployment-ledger.yaml >candidate-b/deployment-ledger.yaml
  capture candidate-b
  show "benchplan render --plan \$PLAN --plan-sha256 \$SHA --ledger candidate-b/deployment-ledger.yaml --namespace bench2 --deploy-root deploy-b" -- \
    render --plan "$grid" --plan-sha256 "$gsha" --ledger candidate-b/deployment-ledger.yaml --namespace bench2 --deploy-root deploy-b
  echo
  # a trace over the ConfigMap budget: the Mooncake conversation trace's first 25 minutes, with the
  # error-rate limit raised to what its over-context rows cost (plan refuses it otherwise)
  mooncake="$data/mooncake/conversation_trace.jsonl"
  if [ -f "$mooncake" ]; then
    sed 's/^objectives:$/objectives:\n  error_rate_max: 0.06\n  error_rate_max_rationale: the rows over the served context are expected to fail; the run measures the rest/' \
      examples/workload-trace.yaml >examples/workload-mooncake.yaml
    "$bp" plan --workload examples/workload-mooncake.yaml --ledger examples/deployment-ledger.yaml \
      --question "Can vllm-agg replay the first 25 minutes of the Mooncake conversation trace?" \
      --trace "$mooncake" --trace-window 0:1500000 --aiperf-version 0.13.0 >/dev/null 2>&1
    replay="$(python3 -c 'import glob,json; print([p for p in sorted(glob.glob("experiments/inputs/benchmark-plans/*.json")) if json.load(open(p))["workload"]["source"] == "user_trace"][0])')"
    rsha="$(sha256sum "$replay" | cut -d' ' -f1)"
    mkdir -p deploy-replay
    capture trace
    show "benchplan render --plan $replay --plan-sha256 $rsha --deploy-root deploy-replay" -- \
      render --plan "$replay" --plan-sha256 "$rsha" --deploy-root deploy-replay
    show "benchplan render … --trace-source pvc:traces/mooncake/conversation_trace.jsonl --artifacts pvc:bench-results/replay" -- \
      render --plan "$replay" --plan-sha256 "$rsha" --deploy-root deploy-replay \
      --trace-source pvc:traces/mooncake/conversation_trace.jsonl --artifacts pvc:bench-results/replay
    echo
  fi
  # a flags-mode Job (AIPerf 0.6.0): the bundled static example pinned to 0.6.0, rendered with a
  # job name, namespace and image; the Job's spec as the page quotes it (template labels, the
  # entrypoint script and the middle of the args left out, up to the resources)
  sed 's/^  request_count: 10000$/  request_count: 1000/' examples/workload-static.yaml >examples/workload-060.yaml
  "$bp" plan --workload examples/workload-060.yaml --ledger examples/deployment-ledger.yaml \
    --question "What throughput does vllm-agg sustain within the support SLOs?" --aiperf-version 0.6.0 \
    --exp-root flags-exp >/dev/null 2>&1
  fplan="$(ls flags-exp/inputs/benchmark-plans/*.json)"
  mkdir -p deploy-flags
  "$bp" render --plan "$fplan" --plan-sha256 "$(sha256sum "$fplan" | cut -d' ' -f1)" --deploy-root deploy-flags \
    --job-name qwen3-static-smoke --namespace bench --image registry.local:5000/aiperf:0.6.0 >/dev/null 2>&1
  capture flags-job
  python3 - deploy-flags/benchmark/perf.yaml <<'PY'
import sys
job = open(sys.argv[1]).read().split("\nkind: Job\n", 1)[1].splitlines()
out, skip = [], None
for line in job[job.index("spec:"):]:
    if line.startswith("        securityContext:"):
        break
    if skip == "metadata" and line.startswith("    spec:"):
        skip = None
    if skip == "args" and line == "        - --concurrency":
        skip = None
    if skip:
        continue
    if line == "    metadata:":
        skip = "metadata"
        continue
    out.append(line)
    if len(out) >= 2 and out[-2] == "        - --url":
        out.append("        ...")
        skip = "args"
print("\n".join(out))
PY
  echo
  # errors: another file's SHA-256, a name that is not a DNS-1123 label
  capture errors
  show "benchplan render --plan $grid --plan-sha256 $sha --deploy-root deploy-grid" -- \
    render --plan "$grid" --plan-sha256 "$sha" --deploy-root deploy-grid
  show "benchplan render … --namespace Bench_NS" -- \
    render --plan "$grid" --plan-sha256 "$gsha" --deploy-root deploy-grid --namespace Bench_NS
  ;;
trace)
  # trace-inspect.md: the Mooncake conversation trace (text, a window, JSON) and AIPerf's sample,
  # run from the project folder as the page shows them
  exitfmt='$ echo $?\n%s'
  cd "$proj"
  mooncake=../shared/data/mooncake/conversation_trace.jsonl
  [ -f "$mooncake" ] || { echo "no ../shared/data: nothing to capture" >&2; exit 0; }
  capture whole
  show "bin/benchplan trace inspect $mooncake --max-context 32768" -- trace inspect "$mooncake" --max-context 32768
  echo
  capture window
  show "bin/benchplan trace inspect $mooncake --max-context 40960 --window 0:1500000" -- \
    trace inspect "$mooncake" --max-context 40960 --window 0:1500000
  echo
  capture json
  show "bin/benchplan trace inspect $mooncake --max-context 32768 --format json" -- \
    trace inspect "$mooncake" --max-context 32768 --format json
  echo
  capture production
  show "bin/benchplan trace inspect ../shared/data/aiperf/production_trace.jsonl" -- \
    trace inspect ../shared/data/aiperf/production_trace.jsonl
  ;;
analyze)
  # analyze.md: the real 3-point sweep analysed (its concurrency-1 audit, its Pareto table), compare
  # refusing two load points, generated runs 3 vs 3, and the real concurrency-1 export 1 vs 1
  exitfmt='[exit %s]'
  sweep="$data/aiperf/sweep-qwen3-0.6b"
  [ -d "$sweep" ] || { echo "no ../shared/data: nothing to capture" >&2; exit 0; }
  # from OUT/x, whose ../shared is the layout's link: the command runs as the page shows it
  rm -rf "$out/x" && mkdir -p "$out/x" && cd "$out/x"
  capture sweep
  show "bin/benchplan analyze ../shared/data/aiperf/sweep-qwen3-0.6b --slo 'time_to_first_token.p99<=60' --exp-root exp --report-dir sweep" -- \
    analyze ../shared/data/aiperf/sweep-qwen3-0.6b --slo 'time_to_first_token.p99<=60' --exp-root exp --report-dir sweep
  echo
  capture audit
  printf '$ # sweep/runs/sweep-qwen3-0.6b_concurrency1/benchmark_audit.json: each check, its detail cut at 110 characters\n'
  python3 -c 'import json,sys; [print("%-12s %-24s %s" % (c["status"], c["id"], c["detail"][:110])) for c in json.load(open(sys.argv[1]))["checks"]]' \
    sweep/runs/sweep-qwen3-0.6b_concurrency1/benchmark_audit.json
  echo
  # the page shows the table itself (a markdown table under the marker)
  capture pareto
  sed -n '/^### Pareto frontier/,/^### History/p' sweep/performance_analysis.md | awk '/^[|]/ { t = 1; print; next } t { exit }'
  echo
  capture ineligible
  show "benchplan compare --reference .../sweep-qwen3-0.6b/concurrency1 --candidate .../sweep-qwen3-0.6b/concurrency4" -- \
    compare --reference "$sweep/concurrency1" --candidate "$sweep/concurrency4"
  echo
  # three references: the real concurrency-1 run with its summary's throughput (output tokens and
  # requests) x 1.0/1.012/0.991 and TTFT x 1.0/0.99/1.01; three candidates: the same with throughput
  # x 0.9 and TTFT x 1.3 (the per-request records are the real ones, unchanged)
  python3 - "$sweep/concurrency1" <<'PY'
import json, shutil, sys
f, t = [1.0, 1.012, 0.991], [1.0, 0.99, 1.01]
for side, tp, tt in (("ref", 1.0, 1.0), ("cand", 0.9, 1.3)):
    for i in range(3):
        d = "%s-%d" % (side, i + 1)
        shutil.copytree(sys.argv[1], d)
        p = d + "/profile_export_aiperf.json"
        s = json.load(open(p))
        for metric, k in (("output_token_throughput", tp * f[i]), ("request_throughput", tp * f[i]),
                          ("time_to_first_token", tt * t[i])):
            for stat, v in s[metric].items():
                if isinstance(v, (int, float)) and stat != "unit":
                    s[metric][stat] = v * k
        json.dump(s, open(p, "w"), indent=2)
PY
  capture three-vs-three
  show "benchplan compare --reference ref-1 --reference ref-2 --reference ref-3 --candidate cand-1 --candidate cand-2 --candidate cand-3" -- \
    compare --reference ref-1 --reference ref-2 --reference ref-3 --candidate cand-1 --candidate cand-2 --candidate cand-3
  echo
  cp -R "$sweep/concurrency1" copy-c1
  capture one-vs-one
  show "benchplan compare --reference .../sweep-qwen3-0.6b/concurrency1 --candidate copy-c1" -- \
    compare --reference "$sweep/concurrency1" --candidate copy-c1
  ;;
smoke)
  exitfmt='[exit %s]'
  export BENCHPLAN_ENDPOINT_STATE="$out/endpoint"
  capture up
  printf '$ scripts/endpoint-test-env.sh up\n'
  url="$("$home/scripts/endpoint-test-env.sh" up 2>"$out/.up")"
  trap '"$home/scripts/endpoint-test-env.sh" down >/dev/null 2>&1 || true' EXIT
  cat "$out/.up"; echo "$url"
  echo
  rm -rf "$out/demo" && mkdir -p "$out/demo" && cd "$out/demo"
  capture ok
  show "benchplan smoke --url $url --model tiny-test-model" -- smoke --url "$url" --model tiny-test-model
  echo
  capture artifact
  python3 -c 'import json; print(json.dumps(json.load(open("smoke_test_artifact.json")), indent=2, sort_keys=True))'
  echo
  capture wrong-model
  show "benchplan smoke --url $url --model Qwen/Qwen3-0.6B --out wrong-model.json --format json" -- \
    smoke --url "$url" --model Qwen/Qwen3-0.6B --out wrong-model.json --format json
  echo
  capture down
  show "benchplan smoke --url http://127.0.0.1:9 --model tiny-test-model --out down.json" -- \
    smoke --url http://127.0.0.1:9 --model tiny-test-model --out down.json
  echo
  capture bad-arguments
  show "benchplan smoke --url 127.0.0.1:8000 --model m" -- smoke --url 127.0.0.1:8000 --model m
  show "benchplan smoke --url $url --model m --timeout soon" -- smoke --url "$url" --model m --timeout soon
  unset MY_KEY
  show "benchplan smoke --url $url --model m --api-key-env MY_KEY" -- smoke --url "$url" --model m --api-key-env MY_KEY
  echo
  # plan.md: a failed smoke test (the served model is not the ledger's) recorded in a copy of the
  # example ledger stops planning
  mkdir -p "$out/plan-demo" && cd "$out/plan-demo"
  [ -d examples ] || cp -R "$home/examples" .
  rm -rf deploy smoke-exp && mkdir deploy
  cp examples/dgd.yaml deploy/
  capture plan-failed
  show "benchplan smoke --url $url --model Qwen/Qwen3-0.6B --out deploy/smoke_test_artifact.json" -- \
    smoke --url "$url" --model Qwen/Qwen3-0.6B --out deploy/smoke_test_artifact.json
  sha="$(sha256sum deploy/smoke_test_artifact.json | cut -d' ' -f1)"
  sed "s/^  sha256: c59c9c58.*$/  sha256: $sha/" \
    examples/deployment-ledger.yaml >deploy/deployment-ledger.yaml
  show "benchplan plan --workload .../workload-static.yaml --ledger deploy/deployment-ledger.yaml --question q --aiperf-version 0.13.0 --exp-root smoke-exp" -- \
    plan --workload examples/workload-static.yaml --ledger deploy/deployment-ledger.yaml --question q --aiperf-version 0.13.0 --exp-root smoke-exp
  ;;
validate)
  exitfmt='--- exit %s ---'
  eval "$("$home/scripts/kube-test-env.sh" env)"; export KUBECONFIG
  rm -rf "$out/aicr-cap" && mkdir -p "$out/aicr-cap"
  capture aicr-defaults
  show "benchplan validate --defaults aicr --namespace aicr-readme --node-selector benchplan.dev/validate-it=none --aiperf-version 0.4.0 --report-dir $out/aicr-cap/r" -- \
    validate --defaults aicr --namespace aicr-readme --node-selector benchplan.dev/validate-it=none --aiperf-version 0.4.0 --report-dir "$out/aicr-cap/r"
  ;;
validate-it)
  # not captures (no markers): ValidateCliIT's transcripts and reports, printed for pasting into
  # validate.md and README (their namespaces and temporary folders are the IT's own)
  t="$home/target/validate-cli"
  [ -f "$t/auto-deploy.txt" ] || { echo "no $t/auto-deploy.txt: run ValidateCliIT first" >&2; exit 1; }
  for name in auto-deploy ambiguous discovered-fail skip no-aiperf-version; do
    printf '=== %s\n' "$name"; grep -v '^SLF4J' "$t/$name.txt"; echo
  done
  printf '=== auto-deploy/ctrf-report.json\n'; cat "$t/auto-deploy/ctrf-report.json"; echo
  printf '=== auto-deploy/verdict.json (excerpt)\n'
  python3 - "$t/auto-deploy/verdict.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keep = ["verdict", "exit_code", "reason", "failed_step", "run_id", "target", "deployment", "benchmark",
        "constraints", "measured", "cleanup"]
print(json.dumps({k: d[k] for k in keep if k in d}, indent=2))
print("// left out: " + ", ".join(k for k in d if k not in keep))
PY
  echo
  printf '=== discovered-fail/junit.xml\n'; cat "$t/discovered-fail/junit.xml"
  ;;
rbac)
  # rbac.md: what --no-model-cache leaves out of validate's rules (the tables are checked by a test)
  capture model-cache
  printf '%s\n' "\$ diff <(benchplan rbac validate) <(benchplan rbac validate --no-model-cache) | grep '^<   # '"
  diff <("$bp" rbac validate) <("$bp" rbac validate --no-model-cache) | grep '^<   # ' || true
  ;;
readme)
  exitfmt='[exit %s]'
  cd "$proj"
  capture error-document
  show "benchplan gate --results export.json --min-throughput 1e999 --format json" -- \
    gate --results export.json --min-throughput 1e999 --format json
  capture trace-example
  show "bin/benchplan trace inspect examples/traces/example_trace.jsonl" -- trace inspect examples/traces/example_trace.jsonl
  capture trace-production
  show "bin/benchplan trace inspect ../shared/data/aiperf/production_trace.jsonl" -- \
    trace inspect ../shared/data/aiperf/production_trace.jsonl
  echo
  rm -rf "$out/ex-s4" && mkdir -p "$out/ex-s4/project" && cp -R "$home/examples" "$out/ex-s4/project/"
  q='What output throughput and TTFT does vllm-agg deliver for the static example workload?'
  capture plan-static
  printf '$ cd %s   # a copy of examples/, as scripts/examples.sh plans it\n' "$out/ex-s4/project"
  (cd "$out/ex-s4/project" && show "benchplan plan --workload examples/workload-static.yaml --ledger examples/deployment-ledger.yaml --question \"$q\" --aiperf-version 0.13.0 --exp-root experiments --format json" -- \
    plan --workload examples/workload-static.yaml --ledger examples/deployment-ledger.yaml --question "$q" --aiperf-version 0.13.0 --exp-root experiments --format json)
  echo
  rm -rf "$out/pl" "$out/pl2"
  capture plan-proxy
  show "bin/benchplan plan --workload examples/workload-proxy.yaml --ledger examples/deployment-ledger.yaml --question \"Which throughput does vllm-agg reach on a long-context chat shape?\" --aiperf-version 0.13.0 --exp-root $out/pl/experiments" -- \
    plan --workload examples/workload-proxy.yaml --ledger examples/deployment-ledger.yaml --question "Which throughput does vllm-agg reach on a long-context chat shape?" --aiperf-version 0.13.0 --exp-root "$out/pl/experiments"
  mooncake=../shared/data/mooncake/conversation_trace.jsonl
  if [ -f "$mooncake" ]; then
    capture plan-trace
    show "bin/benchplan plan --workload examples/workload-trace.yaml --ledger examples/deployment-ledger.yaml --question \"Replay the whole conversation trace\" --trace $mooncake --aiperf-version 0.13.0 --exp-root $out/pl2" -- \
      plan --workload examples/workload-trace.yaml --ledger examples/deployment-ledger.yaml --question "Replay the whole conversation trace" --trace "$mooncake" --aiperf-version 0.13.0 --exp-root "$out/pl2"
    capture plan-trace-window
    show "bin/benchplan plan ... the same ... --question \"Replay the first 25 minutes of the conversation trace\" --trace-window 0:1500000" -- \
      plan --workload examples/workload-trace.yaml --ledger examples/deployment-ledger.yaml --question "Replay the first 25 minutes of the conversation trace" --trace "$mooncake" --trace-window 0:1500000 --aiperf-version 0.13.0 --exp-root "$out/pl2"
  fi
  echo
  rm -rf "$out/loadgen-examples" "$out/lg-x1" && mkdir -p "$out/loadgen-examples/project" && cp -R "$home/examples" "$out/loadgen-examples/project/"
  lg="$out/loadgen-examples/project/examples"
  sed 's/^  concurrency: \[16\]$/  concurrency: [2048]/' "$lg/workload-static.yaml" >"$lg/workload-2048.yaml"
  sed 's/^  concurrency: \[16\]$/  concurrency: [4096]/; s/^  request_count: 1000$/  request_count: 40960/' "$lg/workload-static.yaml" >"$lg/workload-4096.yaml"
  capture steady-state
  (cd "$out/loadgen-examples/project" && show "bin/benchplan plan --workload examples/workload-2048.yaml --ledger examples/deployment-ledger.yaml --question \"Does vllm-agg hold 2048 in flight?\" --aiperf-version 0.13.0 --exp-root $out/lg-x1" -- \
    plan --workload examples/workload-2048.yaml --ledger examples/deployment-ledger.yaml --question "Does vllm-agg hold 2048 in flight?" --aiperf-version 0.13.0 --exp-root "$out/lg-x1"
  capture engine
  show "bin/benchplan plan --workload examples/workload-4096.yaml ... --engine job" -- \
    plan --workload examples/workload-4096.yaml --ledger examples/deployment-ledger.yaml --question "Does vllm-agg hold 4096 in flight?" --aiperf-version 0.13.0 --exp-root "$out/lg-x1" --engine job)
  echo
  # gate on AIPerf's real export, and on its real sweep laid out as concurrency_{1,2,4}/
  if [ -d "$data/aiperf/sweep-qwen3-0.6b" ]; then
    rm -rf "$out/ex" && mkdir -p "$out/ex/sweep"
    for c in 1 2 4; do cp -R "$data/aiperf/sweep-qwen3-0.6b/concurrency$c" "$out/ex/sweep/concurrency_$c"; done
    capture gate-real
    show "bin/benchplan gate --results ../shared/data/aiperf/profile_export_aiperf.json --min-throughput 5000 --max-ttft-p99 200 --report-dir $out/ex/gate" -- \
      gate --results ../shared/data/aiperf/profile_export_aiperf.json --min-throughput 5000 --max-ttft-p99 200 --report-dir "$out/ex/gate"
    capture gate-sweep
    show "bin/benchplan gate --results $out/ex/sweep --max-ttft-p99 50 --tolerance 0" -- \
      gate --results "$out/ex/sweep" --max-ttft-p99 50 --tolerance 0
    echo
  fi
  # gate's findings on generated runs whose answer is known: GateDiagnosticsTest's two runs (one
  # worker in eight stalled; 64 claimed and 40 in flight), written by the test classes (run
  # `mvn -o test-compile` first; skipped without them)
  if [ -d "$home/target/test-classes/dev/benchplan/diagnostics" ]; then
    rm -rf "$out/diag-demo" && mkdir -p "$out/diag-demo"
    cat >"$out/diag-demo/DiagDemo.java" <<'JAVA'
import dev.benchplan.diagnostics.RunWriter;
import dev.benchplan.diagnostics.SimulatedRun;
import java.nio.file.Path;

public class DiagDemo {
  public static void main(String[] a) throws Exception {
    Path out = Path.of(a[0]);
    RunWriter.write(out.resolve("stalled"), SimulatedRun.closedLoop(17, 64, 1000, 8,
        (w, r) -> w == 3 ? 20_000 + 20_000 * r.nextDouble() : 300 * (0.8 + 0.4 * r.nextDouble())), 64);
    RunWriter.write(out.resolve("client-bound"),
        SimulatedRun.closedLoop(7, 40, 1000, 8, (w, r) -> 300 * (0.8 + 0.4 * r.nextDouble())), 64);
  }
}
JAVA
    java -cp "$home/target/benchplan.jar:$home/target/test-classes" "$out/diag-demo/DiagDemo.java" "$out/diag-demo"
    capture gate-stalled
    show "bin/benchplan gate --results $out/diag-demo/stalled --min-throughput 1000 --max-ttft-p99 2000" -- \
      gate --results "$out/diag-demo/stalled" --min-throughput 1000 --max-ttft-p99 2000
    echo
    capture gate-client-bound
    show "bin/benchplan gate --results $out/diag-demo/client-bound --min-throughput 1000" -- \
      gate --results "$out/diag-demo/client-bound" --min-throughput 1000
    echo
  fi
  plan="$(ls "$out"/ex-s4/project/experiments/inputs/benchmark-plans/support-chat-*.json)"
  mkdir -p "$out/ex-s4/deploy-static"
  capture render
  show "benchplan render --plan $plan --plan-sha256 $(sha256sum "$plan" | cut -d' ' -f1) --deploy-root $out/ex-s4/deploy-static" -- \
    render --plan "$plan" --plan-sha256 "$(sha256sum "$plan" | cut -d' ' -f1)" --deploy-root "$out/ex-s4/deploy-static"
  echo
  capture render-config
  cat "$out/ex-s4/deploy-static/benchmark/aiperf-config.yaml"
  ;;
exit-codes)
  capture table
  printf '| command | exit codes (its `--help` lists them) |\n|---|---|\n'
  for c in "trace inspect" smoke plan render run gate validate analyze compare verify "rbac run" "rbac validate"; do
    # shellcheck disable=SC2086
    "$bp" $c --help | python3 "$home/scripts/docs-captures-exit-codes.py" "$c"
  done
  ;;
run)
  t="$home/target/run-cli-transcript.txt"
  [ -f "$t" ] || { echo "no $t: run RunClusterIT#cli first" >&2; exit 1; }
  # the transcript's commands in order, then run.json after "===" (keys sorted, as the page shows it)
  python3 "$home/scripts/docs-captures-run.py" "$what" <"$t"
  ;;
*) echo "usage: scripts/docs-captures.sh gate|plan|render|trace|analyze|smoke|validate|validate-it|rbac|readme|run|exit-codes [OUT]" >&2; exit 2 ;;
esac
} | perl -pe 'BEGIN { ($p, $o, $h) = (shift, shift, shift) } s/\Q$p\E\///g; s/\Q$o\E/\/tmp/g; s/\Q$h\E\///g' \
  "$proj" "$out" "$home"
