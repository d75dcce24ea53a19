#!/usr/bin/env bash
# Observe-overhead benchmark (not a test): an app that times its own work (a session made, then run N times), opened bare
# and observed in alternating rounds, on the page's thread and in a module worker; prints the medians of its own
# figures and the ratio observed/bare per part (load, runs, whole).
# Usage: bench/observe/run.sh [runs=200] [rounds=7]
set -euo pipefail
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.ObserveOverheadBench "$@"
