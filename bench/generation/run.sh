#!/usr/bin/env bash
# Generation benchmark (not a test): in one run, on the same decoder, prompt and tokens, it compares
#   [1] the harness's decode loop in the page (a generation job) with a bare page that only loops session.run with the
#       KV cache fed back (bare.html?generate=...), on wasm or WebGPU,
#   [2] the harness's native decode loop (NativeGeneration) with a bare ONNX Runtime OrtSession loop in Java,
# and prints TTFT p50 and tokens/s of each with the harness/bare ratios (the goal: <= 1.05).
# Usage: bench/generation/run.sh [backend=wasm|webgpu] [iterations=10] [size=small|large] [newTokens=32] [engine=jsep|webgpu-ep|webgpu-ep-jspi]
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.GenerationBench "$@"
