#!/bin/sh
# Accelbridge from an offline bundle: its own Java runtime, headless shell and caches. From the host it takes only the
# C library (and libstdc++ for ONNX Runtime and DuckDB); the shell's other libraries come with it (native/).
set -eu
app=$(cd "$(dirname "$0")/.." && pwd)
export ACCELBRIDGE_CACHE_DIR="$app/cache"
export LD_LIBRARY_PATH="$app/native${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# browsers run as processes: Playwright's driver runs on Node.js, which the bundle does not carry
export ACCELBRIDGE_DRIVER="${ACCELBRIDGE_DRIVER:-process}"
# Java takes its home from the password file, not HOME: the run's store, models and native caches go where HOME says
home="${HOME:-$app/home}"
exec "$app/runtime/bin/java" -XX:TieredStopAtLevel=1 ${ACCELBRIDGE_JAVA_OPTS:-} -Duser.home="$home" -Daccelbridge.home="$app" \
  -cp "$app/lib/*" dev.accelbridge.tools.cli.Main "$@"
