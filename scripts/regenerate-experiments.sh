#!/usr/bin/env bash
# Regenerates the worked example series committed in experiments/ (plans of a grid and a pilot from
# experiments/inputs/workloads + examples/, both rendered, the grid run through `run` against a mock
# cluster with a synthetic AIPerf tree). Run it when ExperimentsExampleTest fails because plan,
# render, run or the gate now write other bytes, review the diff, and commit it.
# Usage: scripts/regenerate-experiments.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -o -q test -Dtest='KubeRunServiceTest#regenerateExperiments' -Dbenchplan.regenerate=experiments \
  -Dsurefire.failIfNoSpecifiedTests=false
git status --short experiments
