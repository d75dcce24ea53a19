#!/usr/bin/env bash
# Host memory benchmark (not a test): first touch of fresh memory against a second write of the same bytes, in the JVM
# and in a Chromium page, and Chromium's launch to a blank page. A host whose page faults are slow makes every cold
# start slower, the bare baselines too: run it beside any timing compared across hosts or days.
# Usage: bench/host/run.sh [MiB=256] [rounds=3]
set -euo pipefail
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.HostMemoryBench "${1:-256}" "${2:-3}"
