#!/usr/bin/env bash
# Benchmark (not a test): what --parallel does to a run's wall time, and to the timings it reports.
#
#   bench/parallel/run.sh [N] [extra accelbridge run options]      (N: the parallel run's lanes, default 2)
#
# Runs the same browser matrix twice in this invocation, into separate stores: first --parallel 1 (the baseline), then
# --parallel N, both with the same --threads (so each lane's intra-op threads are equal and only the lane count
# differs). Prints wall times, their ratio, and the median in-page p50 of each, whose ratio says how much the lanes
# disturbed each other's measurements (they share the CPU: --parallel is for sweeps, 1 for timings you compare).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
N="${1:-2}"; shift || true
common=(--backends wasm,webgpu --suites text,vision,audio --batch-sizes 1,2 --warmups 2 --iterations 10 --threads 1 --no-bisect --json)
run() {
  local name="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  ./accelbridge run "${common[@]}" --db "$TMP/$name.duckdb" --out "$TMP/$name" "$@" > "$TMP/$name.json" 2> "$TMP/$name.err" || true
  t1=$(date +%s.%N)
  echo "$t0 $t1"
}
read -r a0 a1 < <(run serial --parallel 1 "$@")
read -r b0 b1 < <(run parallel --parallel "$N" "$@")
node - "$TMP/serial.json" "$TMP/parallel.json" "$a0" "$a1" "$b0" "$b1" "$N" "$(nproc)" <<'JS'
const fs = require("fs");
const [sf, pf, a0, a1, b0, b1, n, cores] = process.argv.slice(2);
const load = (f) => JSON.parse(fs.readFileSync(f, "utf8")).filter((r) => r.browser);
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
const s = load(sf), p = load(pf);
const ws = Number(a1) - Number(a0), wp = Number(b1) - Number(b0);
const passed = (rows) => rows.filter((r) => r.status === "PASSED" || r.status === "FELL_BACK").length;
const p50 = (rows) => median(rows.filter((r) => r.p50Ms !== null).map((r) => r.p50Ms));
console.log(`host: ${cores} cores; browser cases: ${s.length} (serial, ${passed(s)} ran) / ${p.length} (parallel, ${passed(p)} ran)`);
console.log(`wall, --parallel 1:  ${ws.toFixed(1)} s`);
console.log(`wall, --parallel ${n}:  ${wp.toFixed(1)} s   ratio ${(wp / ws).toFixed(2)}x  (below 1: faster)`);
console.log(`median in-page p50:  ${p50(s).toFixed(3)} ms serial, ${p50(p).toFixed(3)} ms parallel  (ratio ${(p50(p) / p50(s)).toFixed(2)}x)`);
JS
