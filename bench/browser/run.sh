#!/usr/bin/env bash
# Browser bridge benchmark (not a test): in one run it measures
#   [1] cold start -> first result against a bare baseline in the same run, alternating rounds (plain Playwright Chromium on a bare
#       page creating the same session), printed as "cold-start ratio: X.XX (accelbridge A ms, bare B ms)",
#   [2] the harness's in-page p50 vs a bare page that only loops session.run on the same model and inputs,
#   [3] the WebSocket round trip of a ping job.
# Usage: bench/browser/run.sh [backend=wasm|webgpu] [iterations=100] [family=vision|text|audio] [engine=jsep|webgpu-ep|webgpu-ep-jspi] [rounds=10]
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.BrowserBench "$@"
