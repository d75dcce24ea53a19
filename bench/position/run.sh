#!/usr/bin/env bash
# Does a case's figure depend on where it falls in its lane? The same 89 MB BERT-style model written N times under N
# names and run one after the other in one fresh Chromium lane, per variant of the engine's flags and the lane's
# warm-up; prints each position's p50 with its interval, first inference and steady flag, and the spread.
# Usage: bench/position/run.sh [positions=3] [variants=default,background-tier-up]
# Variants: default (Accelbridge's flags: synchronous wasm tier-up), background-tier-up (the browser's default), no-liftoff,
# no-dynamic-tiering, low-budget, lane-warmup[-N], js:V8-FLAGS [backend=wasm] [warmupSeconds=0.5]
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.PositionBench "$@"
