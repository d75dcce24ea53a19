#!/usr/bin/env bash
# Native runner overhead benchmark: in one run, on the same model and input, the native runner's reported
# p50 (DJL + OnnxRuntime engine, timed around ONNX Runtime's own session.run) against a bare ONNX Runtime Java API loop
# (OrtSession.run), and the ratio. Not a test: speed is measured here, never asserted.
#
#   bench/native/run.sh                                 # two built-in MLPs (tiny, and 256-512x4-10 at batch 16)
#   bench/native/run.sh --model path/model.onnx [--dim 1] [--warmups 50] [--iterations 500] [--rounds 3] [--threads T] [--sampler-ms 5]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
args=()
for a in "$@"; do
  # model paths are resolved against the caller's directory
  if [[ "${prev:-}" == "--model" ]]; then a="$(cd "$OLDPWD" 2>/dev/null && realpath "$a" || echo "$a")"; fi
  args+=("$a"); prev="$a"
done
exec bench/java-bench.sh dev.accelbridge.bench.NativeOverheadBench "${args[@]}"
