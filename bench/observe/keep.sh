#!/usr/bin/env bash
# Keep-cost benchmark (not a test): an app fetches a model of about N MiB and makes a wasm session of it; the observer
# moves the model to disk. Prints the page's own fetch (reading it once), the session's creation, the keeping, a read of
# the kept file from disk, and the ratios keep/fetch and keep/disk.
# Usage: bench/observe/keep.sh [mib=256] [rounds=5] [downloads|parts]
set -euo pipefail
exec "$(dirname "$0")/../java-bench.sh" dev.accelbridge.bench.ObserveKeepBench "$@"
