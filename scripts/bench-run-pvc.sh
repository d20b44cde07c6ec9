#!/usr/bin/env bash
# Measures `run` end to end on the project's real control plane (issue 12): for AIPerf trees of 1, 10
# and 100 MB written by the Job's own command (kubelet stand-in, real sweep records repeated), the
# seconds from the pod's Succeeded to a verified run directory and the peak RSS of `run` (the packaged
# CLI in a fresh JVM under GNU time). 1 and 10 MB come back through the pod log, 100 MB (past the
# 12 MiB log bound) through collector pods mounting the --artifacts-pvc claim. Prints the load average
# with each figure (the machine is shared). Needs: scripts/kube-test-env.sh up, target/benchplan.jar.
# Usage: scripts/bench-run-pvc.sh [SIZES_MB, comma-separated; default 1,10,100]
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="${1:-1,10,100}"
[ -f target/benchplan.jar ] || mvn -B -ntp -o -q package -DskipTests
eval "$(scripts/kube-test-env.sh env)"
export KUBECONFIG BENCHPLAN_KUBE_TEST_ENV=1
mvn -B -ntp -o -q verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=TransportBenchIT \
  -Dbenchplan.bench.transport=1 -Dbenchplan.bench.sizes="$sizes" >/dev/null
cat target/run-transport-bench.txt
