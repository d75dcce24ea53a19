#!/usr/bin/env bash
# Runs a benchmark program of the bench module (never a test): bench/java-bench.sh CLASS [args...].
# Compiles it and what it stands on, writes its classpath first; OFFLINE=-o (default) keeps Maven offline.
set -euo pipefail
cd "$(dirname "$0")/.."
cls="$1"; shift
OFFLINE=${OFFLINE:--o}
./mvnw -q -B -ntp $OFFLINE test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -pl bench -am >/dev/null
exec java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn "$cls" "$@"
