#!/usr/bin/env bash
# Across hosts benchmark (not a test): the same cases on a Selenium Grid node in another network namespace (another host:
# only a veth pair joins it to this one) and, as the baseline in the same run, on this host's own Chromium. Prints per
# case the status on both sides, the wasm threads, the WebGPU adapter, and the p50 ratio node / here.
# Needs root (ip netns). Usage: bench/grid/run.sh [suites=vision] [backends=wasm,webgpu]
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
SUITES="${1:-vision}"
BACKENDS="${2:-wasm,webgpu}"
[ "$(id -u)" -eq 0 ] || { echo "bench/grid needs root to make a network namespace (ip netns add)"; exit 2; }
[ -f grid-runtime/target/grid-classpath.txt ] || ./mvnw -q -B -ntp -DskipTests -pl grid-runtime package
N=$(( $$ % 200 + 20 )); NS="abb-$$"; H="abbh$$"; I="abbn$$"
HOST_IP="10.213.$N.1"; NODE_IP="10.213.$N.2"
cleanup() { ip netns pids "$NS" 2>/dev/null | xargs -r kill 2>/dev/null || true; ip netns del "$NS" 2>/dev/null || true;
            ip link del "$H" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
ip netns add "$NS"; ip link add "$H" type veth peer name "$I"; ip link set "$I" netns "$NS"
ip addr add "$HOST_IP/30" dev "$H"; ip link set "$H" up
ip netns exec "$NS" ip addr add "$NODE_IP/30" dev "$I"; ip netns exec "$NS" ip link set "$I" up; ip netns exec "$NS" ip link set lo up
cat > "$TMP/grid.toml" <<TOML
[node]
detect-drivers = false
selenium-manager = false
[[node.driver-configuration]]
display-name = "chromium"
stereotype = '{"browserName":"chrome","platformName":"linux","accelbridge:gpu":"software","goog:chromeOptions":{"binary":"/usr/lib/chromium/chromium"}}'
webdriver-executable = "/usr/bin/chromedriver"
max-sessions = 1
TOML
ip netns exec "$NS" java -cp "$(cat grid-runtime/target/grid-classpath.txt)" org.openqa.selenium.grid.Main standalone \
    --config "$TMP/grid.toml" --host "$NODE_IP" --port 4444 >"$TMP/grid.log" 2>&1 &
for _ in $(seq 1 120); do curl -s "http://$NODE_IP:4444/status" | grep -q '"ready": true' && break; sleep 0.5; done
COMMON=(--suites "$SUITES" --backends "$BACKENDS" --browser chromium --json --parallel 1)
./accelbridge run "${COMMON[@]}" --db "$TMP/here.duckdb" --out "$TMP/out-here" >"$TMP/here.json" 2>"$TMP/here.log"
./accelbridge run "${COMMON[@]}" --grid "http://$NODE_IP:4444" --grid-capability accelbridge:gpu=software \
    --bridge-host "$HOST_IP" --db "$TMP/node.duckdb" --out "$TMP/out-node" >"$TMP/node.json" 2>"$TMP/node.log"
python3 - "$TMP/here.json" "$TMP/node.json" <<'PY'
import json, sys
here = {(r["requested"], r["model"]): r for r in json.load(open(sys.argv[1]))}
node = {(r["requested"], r["model"]): r for r in json.load(open(sys.argv[2]))}
print(f'{"case":38s} {"here":10s} {"node":10s} {"threads":>8s} {"p50 here":>10s} {"p50 node":>10s} {"node/here":>9s}  adapter (node)')
for k in sorted(node):
    a, b = here.get(k, {}), node[k]
    pa, pb = a.get("p50Ms"), b.get("p50Ms")
    ratio = f'{pb / pa:9.2f}' if pa and pb else f'{"-":>9s}'
    thr = f'{a.get("threads") or "-"}/{b.get("threads") or "-"}'
    print(f'{k[0] + " " + k[1]:38s} {a.get("status","-"):10s} {b["status"]:10s} {thr:>8s} {pa or 0:10.3f} {pb or 0:10.3f} {ratio}  {b.get("adapter") or ""}')
    if b["status"] not in ("PASSED",):
        print("   node:", (b.get("reason") or "")[:200])
print("host of the node's cases:", {r["host"] for r in node.values()})
PY
