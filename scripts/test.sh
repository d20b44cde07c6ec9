#!/usr/bin/env bash
# The project's one test command: installs what the tests need, starts the real test
# environments (Kubernetes control plane, OpenAI-compatible endpoint), runs every test tier
# (unit + file-system + mock-server via surefire; cluster + endpoint tiers via failsafe), then the
# real-engine tier (AIPerf 0.11 itself against llama-server: scripts/aiperf-test-env.sh, built once per
# machine) on a control plane of its own, and stops what it started.
# BENCHPLAN_SKIP_REAL_ENGINE=1 skips the real-engine tier (never in CI: with CI=true a missing
# environment fails its tests).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[test.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

need_pkgs=()
command -v java >/dev/null 2>&1 || need_pkgs+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need_pkgs+=(maven)
command -v python3 >/dev/null 2>&1 || need_pkgs+=(python3)
# the HTML report of analyze/compare is opened in a real headless browser (ReportBrowserTest)
command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log "installing ${need_pkgs[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}"
fi

started=()
cleanup() {
  for env in "${started[@]}"; do
    log "stopping $env"
    eval "$env down" || true
  done
}
trap cleanup EXIT

if [ "${BENCHPLAN_SKIP_CLUSTER:-}" != "1" ] && [ -x scripts/kube-test-env.sh ]; then
  # an environment someone started by hand (scripts/kube-test-env.sh up) is reused and left running
  if scripts/kube-test-env.sh status >/dev/null 2>&1; then
    log "reusing the running Kubernetes test environment"
  else
    log "starting the Kubernetes test environment"
    started+=(scripts/kube-test-env.sh)
  fi
  scripts/kube-test-env.sh up
  eval "$(scripts/kube-test-env.sh env)"
  export KUBECONFIG BENCHPLAN_KUBE_TEST_ENV=1
fi
if [ "${BENCHPLAN_SKIP_ENDPOINT:-}" != "1" ] && [ -x scripts/endpoint-test-env.sh ]; then
  log "starting the OpenAI-compatible test endpoint"
  BENCHPLAN_ENDPOINT_URL="$(scripts/endpoint-test-env.sh up | tail -n 1)"
  started+=(scripts/endpoint-test-env.sh)
  export BENCHPLAN_ENDPOINT_URL
fi

log "running mvn verify"
mvn -B -ntp verify "$@"

# The real-engine tier: its own control plane (its namespaces, DGDs and Jobs never meet the cluster
# tier's) and the AIPerf chroot + llama-server; run by failsafe on what `verify` just built.
if [ "${BENCHPLAN_SKIP_REAL_ENGINE:-}" = "1" ] && [ "${CI:-}" != "true" ]; then
  log "BENCHPLAN_SKIP_REAL_ENGINE=1: the real-engine tier is skipped"
  exit 0
fi
tier_start=$(date +%s)
REAL_KUBE_STATE="${BENCHPLAN_REAL_ENGINE_KUBE_STATE:-/tmp/benchplan-kube-real-engine}"
if BENCHPLAN_KUBE_STATE="$REAL_KUBE_STATE" scripts/kube-test-env.sh status >/dev/null 2>&1; then
  log "reusing the real-engine tier's running control plane ($REAL_KUBE_STATE)"
else
  log "starting the real-engine tier's control plane ($REAL_KUBE_STATE)"
  started+=("BENCHPLAN_KUBE_STATE=$REAL_KUBE_STATE scripts/kube-test-env.sh")
fi
BENCHPLAN_KUBE_STATE="$REAL_KUBE_STATE" scripts/kube-test-env.sh up
if scripts/aiperf-test-env.sh status >/dev/null 2>&1; then
  log "reusing the running real-engine environment"
else
  log "starting the real-engine environment (builds its chroot once per machine)"
  started+=(scripts/aiperf-test-env.sh)
fi
scripts/aiperf-test-env.sh up
(
  eval "$(BENCHPLAN_KUBE_STATE="$REAL_KUBE_STATE" scripts/kube-test-env.sh env)"
  eval "$(scripts/aiperf-test-env.sh env)"
  export KUBECONFIG BENCHPLAN_KUBE_TEST_ENV=1 BENCHPLAN_AIPERF_TEST_ENV=1
  log "running the real-engine tier (RealEngineIT, RealEngineValidateIT)"
  mvn -B -ntp failsafe:integration-test failsafe:verify -Dit.test='RealEngineIT,RealEngineValidateIT' \
    -Dbenchplan.it.excludedGroups=none "$@"
)
log "real-engine tier: $(( $(date +%s) - tier_start )) s"
