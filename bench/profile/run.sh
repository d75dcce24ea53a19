#!/usr/bin/env bash
# Benchmark (not a test): does --profile leave the timed p50 alone, and what does profiling itself cost?
#
#   bench/profile/run.sh [extra accelbridge run options, e.g. --suites vision]
#
# Three real runs of the same cases into one temporary store, in this order: without --profile (A), with --profile (P),
# without again (B). Per backend and lane it prints the geometric mean over the cases of
#   P / A      the timed p50 with profiling on against without (profiling runs on separate iterations and sessions,
#              after the timed loop, so this should sit inside the noise band)
#   noise      B / A, the same measurement twice without profiling: the band P / A is read against
#   overhead   the profiled iterations' own p50 over the timed p50 (what the profiler costs while it is on)
#   ops/wall   the sum of per-op times over the profiled iterations' own p50 (how much of a run the ops account for)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
ARGS=(--backends wasm,webgpu,cpu --browser chromium --no-bisect --no-report --db "$TMP/bench.duckdb" --out "$TMP/out" -n 20 --json)
./accelbridge run "${ARGS[@]}" "$@" > "$TMP/a.json" 2> "$TMP/a.err"
./accelbridge run "${ARGS[@]}" --profile "$@" > "$TMP/p.json" 2> "$TMP/p.err"
./accelbridge run "${ARGS[@]}" "$@" > "$TMP/b.json" 2> "$TMP/b.err"
node - "$TMP/a.json" "$TMP/p.json" "$TMP/b.json" <<'JS'
const fs = require("fs");
const [a, p, b] = process.argv.slice(2).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
const key = (r) => `${r.suite}/${r.model} ${r.precision} b${r.batchSize} ${r.requested} [${r.lane}]`;
const byKey = (rows) => Object.fromEntries(rows.filter((r) => r.p50Ms !== null).map((r) => [key(r), r]));
const A = byKey(a), P = byKey(p), B = byKey(b);
const cols = {};
for (const k of Object.keys(P)) {
  if (!A[k] || !B[k] || !P[k].profile) continue;
  const col = `${P[k].requested} [${P[k].lane}]`;
  const c = (cols[col] ||= { pa: [], ba: [], over: [], ops: [] });
  c.pa.push(P[k].p50Ms / A[k].p50Ms);
  c.ba.push(B[k].p50Ms / A[k].p50Ms);
  c.over.push(P[k].profile.profiledP50Ms / P[k].p50Ms);
  c.ops.push(P[k].profile.totalMs / P[k].profile.profiledP50Ms);
}
const g = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const band = (xs) => Math.max(...xs.map((x) => Math.abs(Math.log(x)))) ;
console.log("backend [lane]                     cases   P/A     noise B/A (max |log|)   profiler overhead   ops/wall");
for (const [col, c] of Object.entries(cols).sort()) {
  console.log(`${col.padEnd(34)} ${String(c.pa.length).padStart(5)}   x${g(c.pa).toFixed(2)}   x${g(c.ba).toFixed(2)} (±${(100 * (Math.exp(band(c.ba)) - 1)).toFixed(0)}%)`
    + `          x${g(c.over).toFixed(2)}              ${g(c.ops).toFixed(2)}`);
}
JS
