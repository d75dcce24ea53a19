#!/bin/sh
# Launch benchmark: time from launch() to the page's first report, per browser x driver (real browsers).
# Usage: browser-runtime/bench/launch-bench.sh [rounds]   (from anywhere; default 3 rounds)
set -e
cd "$(dirname "$0")/../.."
mvn -q -o test-compile -pl browser-runtime -am
mvn -q -o dependency:build-classpath -pl browser-runtime -Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=test >/dev/null
CP="browser-runtime/target/test-classes:browser-runtime/target/classes:core/target/classes:$(cat browser-runtime/target/bench-cp.txt)"
exec java -cp "$CP" dev.accelbridge.browser.launch.LaunchBench "${1:-3}"
