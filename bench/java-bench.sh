#!/usr/bin/env bash
# Runs a bench class from a module's test classes (not a test): bench/java-bench.sh MODULE CLASS [args...].
# Compiles the module's tests and writes its test classpath first; OFFLINE=-o (default) keeps Maven offline.
set -euo pipefail
cd "$(dirname "$0")/.."
module="$1"; cls="$2"; shift 2
OFFLINE=${OFFLINE:--o}
mvn -q $OFFLINE test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test \
    -pl "$module" -am >/dev/null
CP="$module/target/test-classes:$module/target/classes:$(cat "$module/target/bench.classpath")"
exec java -cp "$CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn "$cls" "$@"
