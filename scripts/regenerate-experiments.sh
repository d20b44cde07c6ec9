#!/usr/bin/env bash
# Regenerates the worked example series committed in experiments/ on the project's real test control
# plane (scripts/kube-test-env.sh: etcd, kube-apiserver and kube-controller-manager v1.20.2; the Java
# kubelet stand-in executes each Job's own container command): plans of a grid and a pilot from
# experiments/inputs/workloads + examples/, both rendered, both run by `run`, and `analyze` of the two
# runs with its report under experiments/analysis/. The AIPerf trees are synthetic: the stand-in aiperf
# generates them from a seeded made-up latency model and says so (aiperf/SYNTHETIC.txt, which `run`
# records in run.json's artifacts.synthetic). See RegenerateExperimentsIT.
# Run it when ExperimentsExampleTest fails because plan, render, run, the gate or analyze now write
# other bytes, review the diff, and commit it. CI never runs it: it only verifies the committed files.
# Usage: scripts/regenerate-experiments.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! scripts/kube-test-env.sh status >/dev/null 2>&1; then
  echo "+ scripts/kube-test-env.sh up (the test control plane is not running)" >&2
  scripts/kube-test-env.sh up
fi
eval "$(scripts/kube-test-env.sh env)"
export KUBECONFIG BENCHPLAN_KUBE_TEST_ENV=1
mvn -B -ntp -o verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test='RegenerateExperimentsIT' -Dbenchplan.regenerate=experiments -Dspotless.check.skip=true
# the analysis documents are canonical JSON; the report names no scratch folder
du -sh experiments
git status --short experiments
