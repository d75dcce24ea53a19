#!/usr/bin/env bash
# Benchmark (not a test): the default matrix at --precision fp32,fp16,int8 --batch-sizes 1,4.
#
#   bench/precision/run.sh [extra accelbridge run options, e.g. --browser chromium]
#
# Prints, from one real run into a temporary store:
#   wall vs compute   the whole invocation against the sum of its measured compute (load + first inference + timed
#                     iterations, each timed where inference happens: in the page around session.run, around the
#                     native call); the goal is wall <= 1.5 x compute
#   batch 4 vs 1      per backend and lane, the per-item throughput at batch 4 over batch 1 (items/s = batch x calls/s),
#                     geometric mean over models and precisions that executed on the requested backend at both sizes
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
start=$(date +%s.%N)
./accelbridge run --json --precision fp32,fp16,int8 --batch-sizes 1,4 --db "$TMP/bench.duckdb" --out "$TMP/out" "$@" \
  > "$TMP/results.json" 2> "$TMP/stderr.txt" || true
end=$(date +%s.%N)
node - "$TMP/results.json" "$start" "$end" <<'JS'
const fs = require("fs");
const [file, start, end] = process.argv.slice(2);
const rows = JSON.parse(fs.readFileSync(file, "utf8"));
const wallMs = (Number(end) - Number(start)) * 1000;
let compute = 0;
const byStatus = {};
const items = {}; // backend [lane] -> model|precision -> batch -> items/s
for (const r of rows) {
  byStatus[r.status] = (byStatus[r.status] || 0) + 1;
  if (r.p50Ms === null) continue;
  compute += (r.loadMs || 0) + (r.firstMs || 0) + (r.meanMs || 0) * (r.iterations || 0);
  if (r.actual !== r.requested || r.itemsPerSec === null) continue;
  const col = `${r.requested} [${r.lane}]`;
  const key = `${r.suite}/${r.model} ${r.precision}`;
  ((items[col] ||= {})[key] ||= {})[r.batchSize] = r.itemsPerSec;
}
const f = (x) => (x / 1000).toFixed(2) + " s";
console.log(`cases: ${rows.length} ${JSON.stringify(byStatus)}`);
console.log(`wall time:        ${f(wallMs)}`);
console.log(`sum of compute:   ${f(compute)}`);
console.log(`wall / compute:   ${(wallMs / compute).toFixed(2)} x   (goal <= 1.5 x)`);
console.log(`per-item throughput, batch 4 over batch 1 (geometric mean; >1: batching pays):`);
for (const [col, models] of Object.entries(items).sort()) {
  const ratios = Object.values(models).filter(b => b[1] && b[4]).map(b => b[4] / b[1]);
  if (!ratios.length) continue;
  const g = Math.exp(ratios.reduce((a, x) => a + Math.log(x), 0) / ratios.length);
  console.log(`  ${col.padEnd(34)} x${g.toFixed(2)}  over ${ratios.length} model/precision pairs`);
}
JS
