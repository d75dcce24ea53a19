#!/usr/bin/env bash
# Runs a benchmark program of the bench module (never a test): bench/java-bench.sh CLASS [args...].
# Compiles it and what it stands on (their tests compiled, not run: the benchmarks share the tests' fixtures), writes its
# classpath first. Maven may fetch what the main job did not (the tests' dependencies); OFFLINE=-o keeps it offline.
set -euo pipefail
cd "$(dirname "$0")/.."
cls="$1"; shift
OFFLINE=${OFFLINE:-}
log="$(mktemp)"
if ! ./mvnw -q -B -ntp $OFFLINE -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath \
    -pl bench -am >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "bench: building the benchmarks failed (the log's end above; all of it in $log)" >&2
  exit 1
fi
rm -f "$log"
# libraries speak only when something is wrong, as in the CLI (tools/src/main/resources/simplelogger.properties)
exec java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -Dorg.slf4j.simpleLogger.log.ai.djl=error "$cls" "$@"
