#!/usr/bin/env bash
# Report render time for a store with N results (default 10,000).
# The store is filled with CONSTRUCTED results: a rendering benchmark input, not measurements of any backend.
# Usage: bench/report/run.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${1:-10000}"
mvn -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-report.cp -Dmdep.includeScope=test \
    -pl reports -am -DskipTests >/dev/null
CP="reports/target/test-classes:reports/target/classes:core/target/classes:$(cat reports/target/bench-report.cp)"
exec java -cp "$CP" dev.accelbridge.reports.bench.ReportRenderBench "$N"
