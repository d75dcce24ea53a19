#!/usr/bin/env bash
# Dashboard API latency on a store of N results (default 10,000), against a bare baseline in the same run: building
# the matrix in-process (what report does, bench/report) on the same store. Prints each endpoint's time and its ratio
# to the baseline. The store is filled with CONSTRUCTED results: a benchmark input, not measurements of any backend.
# Usage: bench/dashboard/run.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${1:-10000}"
OUT="$(bench/report/run.sh "$N")"
echo "$OUT"
DB="$(echo "$OUT" | sed -n 's/.*; \(\/.*bench.duckdb\)$/\1/p')"
BASE="$(echo "$OUT" | sed -n 's/.*load+score+history+regressions \([0-9]*\),.*/\1/p' | sort -n | head -1)"
LOG="$(mktemp)"
./accelbridge dashboard --db "$DB" --port 0 --out "$(dirname "$DB")/dash-out" >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do grep -q '^Dashboard: ' "$LOG" && break; sleep 0.5; done
URL="$(sed -n 's/^Dashboard: \(http:\/\/[^/]*\)\/dashboard\/.*/\1/p' "$LOG")"
RUN="$(curl -s "$URL/api/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["runId"])')"
echo "baseline: matrix built in-process in ${BASE} ms (best of 3)"
for path in "/api/runs" "/api/matrix" "/api/cases?run=$RUN" "/api/cases?run=$RUN&backend=wasm&status=PASSED" \
            "/api/compare?by=host&a=bench-a&b=bench-b" "/api/recommendations"; do
  best=""
  for _ in 1 2 3; do
    t="$(curl -s -o /dev/null -w '%{time_total}' "$URL$path")"
    ms="$(python3 -c "print(round($t*1000))")"
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best="$ms"; fi
  done
  python3 -c "print(f'{\"$path\":60s} {$best:6d} ms  ratio to baseline {$best/max($BASE,1):.2f}')"
done
