#!/usr/bin/env bash
# Conformance-run benchmark (not a test): the op suite written out as a folder of single-node model folders with shipped
# test data (ONNX's test-data layout, outputs from native ONNX Runtime), run by the real CLI with --warmups 0 -n 1 against
# a bare page loop over the same folders in the same run; prints both walls and the ratio (goal < 1.2).
# Usage: bench/conformance/run.sh [backend=wasm|webgpu] [rounds=3]
cd "$(dirname "$0")/../.." && ./accelbridge --version >/dev/null
exec bench/java-bench.sh dev.accelbridge.bench.ConformanceBench "$@"
