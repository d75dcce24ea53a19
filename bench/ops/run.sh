#!/usr/bin/env bash
# Op-suite sweep benchmark (not a test): cases per second through the harness's page path against a bare page that
# loops the same single-op models (fetch, create, run once, release) in the same run; prints the ratio (goal >= 0.8).
# Usage: bench/ops/run.sh [backend=wasm|webgpu]
set -euo pipefail
cd "$(dirname "$0")/../.."
OFFLINE=${OFFLINE:--o}
mvn -q $OFFLINE test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test \
    -pl browser-runtime -am >/dev/null
CP="browser-runtime/target/test-classes:browser-runtime/target/classes:$(cat browser-runtime/target/bench.classpath)"
exec java -cp "$CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn dev.accelbridge.browser.bridge.OpsBench "$@"
