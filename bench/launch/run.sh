#!/usr/bin/env bash
# Launch benchmark: time from launch() to the page's first report, per browser x driver (real browsers).
# Usage: bench/launch/run.sh [rounds]   (default 3 rounds)
set -euo pipefail
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.LaunchBench "${1:-3}"
