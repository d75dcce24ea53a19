#!/usr/bin/env bash
# Benchmark (not a test): how far `accelbridge fit` is from what it then measures.
#
#   bench/fit/run.sh [SMALL=LARGE ...]      default: convnet-small=convnet-large bert-mini=bert-base
#
# For each pair: runs SMALL (suite size small) and LARGE (size large) on WebGPU in Chromium on both onnxruntime-web
# engines (two timed runs, no warm-up: memory, not time, is what is read), then per engine asks `fit` for LARGE from
# SMALL's measured ledger (a prediction) and for LARGE from its own (the measurement), and prints predicted / measured
# for the peak GPU bytes and the largest buffer. The goal is within 25 % (0.75 to 1.25).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(convnet-small=convnet-large bert-mini=bert-base)
family() { ./accelbridge suites --json --size "$2" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const m=JSON.parse(s).find(x=>x.name===process.argv[1]);process.stdout.write(m?m.family:"")})' "$1"; }
common=(--backends webgpu --browser chromium --engines jsep,webgpu-ep --warmups 0 --iterations 2 --min-duration 0 --warmup-duration 0
        --quiet --db "$TMP/fit.duckdb")
printf '%-30s %-10s %14s %14s %8s %14s %14s %8s\n' pair engine "peak pred" "peak meas" ratio "largest pred" "largest meas" ratio
for p in "${pairs[@]}"; do
  small="${p%%=*}"; large="${p#*=}"
  fam=$(family "$small" small)   # a pair is one family at two sizes (listing the large suite would generate all of it)
  ./accelbridge run --suites "$fam" --size small "${common[@]}" --out "$TMP/s" >/dev/null 2>&1 || true
  ./accelbridge run --suites "$fam" --size large "${common[@]}" --out "$TMP/l" >/dev/null 2>&1 || true
  for engine in jsep webgpu-ep; do
    pred=$(./accelbridge fit --json --model "$large" --size large --from "$small" --engine "$engine" --db "$TMP/fit.duckdb" 2>/dev/null || true)
    meas=$(./accelbridge fit --json --model "$large" --size large --engine "$engine" --db "$TMP/fit.duckdb" 2>/dev/null || true)
    node -e '
      const [p, m, pair, engine] = process.argv.slice(1);
      if (!p || !m) { console.log(`${pair.padEnd(30)} ${engine.padEnd(10)} no ledger (the case did not run)`); process.exit(0); }
      const P = JSON.parse(p), M = JSON.parse(m), mib = (b) => (b / 1048576).toFixed(1) + " MiB";
      const r1 = P.peakBytes / M.peakBytes, r2 = P.largestBufferBytes / M.largestBufferBytes;
      console.log(`${pair.padEnd(30)} ${engine.padEnd(10)} ${mib(P.peakBytes).padStart(14)} ${mib(M.peakBytes).padStart(14)} ${r1.toFixed(3).padStart(8)}`
        + ` ${mib(P.largestBufferBytes).padStart(14)} ${mib(M.largestBufferBytes).padStart(14)} ${r2.toFixed(3).padStart(8)}`);
    ' "$pred" "$meas" "$small → $large" "$engine"
  done
done
