#!/usr/bin/env bash
# Benchmark (not a test): the default matrix's wall time against the sum of its measured compute times.
#
#   bench/matrix/run.sh [extra accelbridge run options]
#
# Runs `./accelbridge run --json` into a temporary store and reports:
#   wall      the whole invocation (JVM start, model generation, browser launches, probes, transfers, reports)
#   compute   sum over cases of load + first inference + timed iterations (mean × iterations), each measured
#             where inference happens (inside the page around session.run, around the native call)
#   inference the same, the warm-ups (warmupMs: measured as a whole where they ran) and a generation's teacher-forced
#             pass (decoding.teacherMs); since --warmup-duration the warm-ups are a large, deliberate part of a run, so
#             the harness's own overhead is wall - inference. A fallback judged on its lane's measurement of the same
#             work (figuresOf) ran nothing of its own and is counted once, in the cell that measured it
#   overhead  wall - compute, and compute's share of the wall time
# Warm-up iterations are run but not timed individually, so they count as overhead here.
# Then the run's own account of its wall time (the lines `run` prints at its end and keeps in the run ledger):
# JVM start, model preparation, probes, browser launches, session creation, first inference, timed compute,
# warm-ups, teacher-forced passes, transfers, store writes, reports. The goal is wall <= 1.15 x all inference here.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
start=$(date +%s.%N)
./accelbridge run --json --db "$TMP/bench.duckdb" --out "$TMP/out" "$@" > "$TMP/results.json" 2> "$TMP/stderr.txt" || true
end=$(date +%s.%N)
node - "$TMP/results.json" "$start" "$end" <<'JS'
const fs = require("fs");
const [file, start, end] = process.argv.slice(2);
const rows = JSON.parse(fs.readFileSync(file, "utf8"));
const wallMs = (Number(end) - Number(start)) * 1000;
let compute = 0, browser = 0, native = 0, executed = 0, warm = 0;
const byStatus = {};
for (const r of rows) {
  byStatus[r.status] = (byStatus[r.status] || 0) + 1;
  if (r.p50Ms === null || r.figuresOf) continue;
  executed++;
  const c = (r.loadMs || 0) + (r.firstMs || 0) + (r.meanMs || 0) * (r.iterations || 0);
  compute += c;
  warm += (r.warmupMs || 0) + ((r.decoding && r.decoding.teacherMs) || 0);
  if (r.browser) browser += c; else native += c;
}
const f = (x) => (x / 1000).toFixed(2) + " s";
console.log(`cases: ${rows.length} (${executed} executed) ${JSON.stringify(byStatus)}`);
console.log(`wall time:            ${f(wallMs)}`);
console.log(`sum of compute:       ${f(compute)}  (in-page ${f(browser)}, native ${f(native)})`);
console.log(`harness overhead:     ${f(wallMs - compute)}  (compute is ${(100 * compute / wallMs).toFixed(1)} % of wall; wall / compute ${(wallMs / compute).toFixed(2)}x)`);
console.log(`with warm-ups:        ${f(compute + warm)} of inference (warm-ups, teacher-forced passes); overhead ${f(wallMs - compute - warm)}; wall / inference ${(wallMs / (compute + warm)).toFixed(2)}x (goal <= 1.15x)`);
JS
echo
sed -n '/^where the /,$p' "$TMP/stderr.txt"
