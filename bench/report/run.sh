#!/usr/bin/env bash
# Report render time for a store with N results (default 10,000).
# The store is filled with CONSTRUCTED results: a rendering benchmark input, not measurements of any backend.
# Usage: bench/report/run.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${1:-10000}"
exec bench/java-bench.sh dev.accelbridge.bench.ReportRenderBench "$N"
