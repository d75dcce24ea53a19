#!/usr/bin/env bash
# Op-suite sweep benchmark (not a test): cases per second through the harness's page path against a bare page that
# loops the same single-op models (fetch, create, run once, release) in the same run; prints the ratio (goal >= 0.8).
# Usage: bench/ops/run.sh [backend=wasm|webgpu]
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.OpsBench "$@"
