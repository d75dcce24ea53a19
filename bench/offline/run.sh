#!/usr/bin/env bash
# The offline bundle, for real (not a test): built here, then installed and run inside a network namespace with no
# network, a PATH holding no java, node or browser, and an empty home; then a copy with one changed byte in one part
# must be refused. Exits 0 only when every case of the vision and text suites PASSED on wasm (the headless shell) and
# native CPU there, and the changed part was refused. Needs root, or unprivileged user namespaces, for 'unshare'.
# Usage: bench/offline/run.sh [part-size=64M]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
part="${1:-64M}"
work="$(mktemp -d /tmp/accelbridge-offline.XXXXXX)"
trap 'rm -rf "$work"' EXIT
say() { printf '[offline] %s\n' "$*" >&2; }
if [ "$(id -u)" -eq 0 ]; then ns=(unshare -n); else ns=(unshare -rn); fi

say "building the bundle (parts of at most $part)"
t0=$(date +%s)
"$ROOT/accelbridge" bundle --out "$work/bundle" --part-size "$part" | tee "$work/bundle.txt"
sha="$(sed -n 's/^MANIFEST.sha256: //p' "$work/bundle.txt")"
say "bundle written in $(( $(date +%s) - t0 )) s: $(du -sh "$work/bundle" | cut -f1), $(ls "$work/bundle/parts" | wc -l) parts"

mkdir -p "$work/path" "$work/home"
# the target's PATH: the tools install.sh says it needs (its needs= line), the shell and what this script's checks call
needs="$(sed -n 's/^needs="\(.*\)"$/\1/p' "$ROOT/tools/src/main/resources/dev/accelbridge/tools/bundle/install.sh")"
[ -n "$needs" ] || { say "FAIL: install.sh names no needs= line"; exit 1; }
for t in sh bash $needs id env grep tail wc; do
  ln -s "$(command -v "$t")" "$work/path/$t"
done
offline() { # runs "$@" in a fresh network namespace (loopback only), with the bare PATH and the empty home
  "${ns[@]}" /bin/sh -c 'ip link set lo up 2>/dev/null || /usr/sbin/ip link set lo up; exec "$@"' offline \
    env -i PATH="$work/path" HOME="$work/home" LANG=C.UTF-8 "$@"
}

say "the target: no network, nothing on PATH but the shell's tools, an empty home"
offline sh -c '
  for b in java node nodejs chromium chromium-browser google-chrome firefox firefox-esr MiniBrowser; do
    if command -v "$b" >/dev/null 2>&1; then echo "PATH holds $b" >&2; exit 1; fi
  done
  if (exec 3<>/dev/tcp/1.1.1.1/443) 2>/dev/null; then echo "the network is reachable" >&2; exit 1; fi
  [ -z "$(ls -A "$HOME")" ] || { echo "home is not empty" >&2; exit 1; }
  echo "no java, node or browser on PATH; no route out; empty home"
' 2>&1 | sed 's/^/  /'

say "installing (every part checked against the manifest, every file against the application's list)"
offline "$work/bundle/install.sh" --expect "$sha" "$work/app"

say "running the vision and text suites on wasm and native CPU there"
t0=$(date +%s)
set +e
offline "$work/app/bin/accelbridge" run --browser chromium-shell --suites vision,text --backends wasm,cpu \
  --db "$work/matrix.duckdb" --out "$work/out" --json > "$work/run.json"
rc=$?
set -e
say "run exited $rc in $(( $(date +%s) - t0 )) s"
python3 - "$work/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["results"] if isinstance(d, dict) and "results" in d else d
bad = [r for r in rows if r.get("status") != "PASSED"]
for r in rows:
    print("  %-30s %-6s %-40s %s" % (r.get("case", r.get("caseKey", "?"))[:30], r.get("requested", r.get("backend", "")),
                                     r.get("lane", "")[:40], r.get("status")))
print("  %d cases, %d not PASSED" % (len(rows), len(bad)))
sys.exit(1 if bad or not rows else 0)
PY
passed=$?
[ "$rc" -eq 0 ] && [ "$passed" -eq 0 ] || { say "FAIL: the offline run did not pass"; exit 1; }

say "a copy with one byte changed in its second part must be refused"
cp -r "$work/bundle" "$work/changed"
second="$(ls "$work/changed/parts" | sed -n 2p)"
python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(4096); b = f.read(1); f.seek(4096); f.write(bytes([b[0] ^ 0xFF]))' "$work/changed/parts/$second"
set +e
offline "$work/changed/install.sh" --expect "$sha" "$work/app-changed" 2> "$work/refused.txt"
refused=$?
set -e
sed 's/^/  /' "$work/refused.txt" >&2
if [ "$refused" -ne 3 ] || [ -e "$work/app-changed" ] || ! grep -q "parts/$second does not match" "$work/refused.txt"; then
  say "FAIL: the changed part was not refused (exit $refused)"
  exit 1
fi
say "PASS: the cases PASSED offline and the changed part was refused"
