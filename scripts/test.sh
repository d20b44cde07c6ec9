#!/usr/bin/env bash
# The project's one test command: installs what the tests need, starts the real test
# environments (Kubernetes control plane, OpenAI-compatible endpoint), runs every test tier
# (unit + file-system + mock-server via surefire; cluster + endpoint tiers via failsafe), and
# stops what it started.
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
    "scripts/$env" down || true
  done
}
trap cleanup EXIT

if [ "${BENCHPLAN_SKIP_CLUSTER:-}" != "1" ] && [ -x scripts/kube-test-env.sh ]; then
  # an environment someone started by hand (scripts/kube-test-env.sh up) is reused and left running
  if scripts/kube-test-env.sh status >/dev/null 2>&1; then
    log "reusing the running Kubernetes test environment"
  else
    log "starting the Kubernetes test environment"
    started+=(kube-test-env.sh)
  fi
  scripts/kube-test-env.sh up
  eval "$(scripts/kube-test-env.sh env)"
  export KUBECONFIG BENCHPLAN_KUBE_TEST_ENV=1
fi
if [ "${BENCHPLAN_SKIP_ENDPOINT:-}" != "1" ] && [ -x scripts/endpoint-test-env.sh ]; then
  log "starting the OpenAI-compatible test endpoint"
  BENCHPLAN_ENDPOINT_URL="$(scripts/endpoint-test-env.sh up | tail -n 1)"
  started+=(endpoint-test-env.sh)
  export BENCHPLAN_ENDPOINT_URL
fi

log "running mvn verify"
mvn -B -ntp verify "$@"
