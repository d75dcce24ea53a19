#!/usr/bin/env bash
# The GPU kit's dry run, here, with no GPU: make-kit.sh's folders are run by run-kit.sh inside a network namespace
# with no network, a PATH holding the shell's tools, python3 and dpkg-deb but no java, node, xz or browser, and an empty
# home, as on a bare GPU host. Exits 0 only when every wasm, native CPU and native WebGPU (SwiftShader's Vulkan here)
# case PASSED there and WebGPU, asked for the GPU's adapter on a host with none, is UNAVAILABLE with each flag set's
# evidence.
# Needs root, or unprivileged user namespaces, for 'unshare'.
# Usage: bench/gpu/dry-run.sh [KIT=bench/gpu/kit]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kit="${1:-$ROOT/bench/gpu/kit}"
[ -d "$kit/a" ] && [ -d "$kit/b" ] || "$ROOT/bench/gpu/make-kit.sh" "$kit"
folders=("$kit"/[a-f])
work="$(mktemp -d /tmp/accelbridge-kit-dry.XXXXXX)"
trap 'rm -rf "$work"' EXIT
say() { printf '[gpu-dry-run] %s\n' "$*" >&2; }
if [ "$(id -u)" -eq 0 ]; then ns=(unshare -n); else ns=(unshare -rn); fi
mkdir -p "$work/path" "$work/home" "$work/out"
for t in sh bash cat tar gzip sha256sum cut rm mkdir mv cp dirname basename ls id env sed grep head tail wc tee du find \
         sort tr seq sleep timeout uname stat mktemp awk dpkg-deb xargs comm touch; do
  ln -s "$(command -v "$t")" "$work/path/$t"
done
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$work/path/python3" # the interpreter, not a version manager's shim
say "running the kit with no network, no java, node, xz or browser on PATH, an empty home"
set +e
"${ns[@]}" /bin/sh -c 'ip link set lo up 2>/dev/null || /usr/sbin/ip link set lo up; exec "$@"' dry \
  env -i PATH="$work/path" HOME="$work/home" LANG=C.UTF-8 KIT_BUDGET_S="${KIT_BUDGET_S:-3000}" KIT_PARALLEL=1 KIT_WORK="$work/kit" \
  bash "$ROOT/bench/gpu/run-kit.sh" "$work/out" "${folders[@]}"
rc=$?
set -e
say "run-kit exited $rc; OUT: $(ls "$work/out" | tr '\n' ' ')"
for tag in real sweep; do # the real scale and the sweep ran too: their wasm and native CPU cases have a verdict
  python3 - "$work/kit/logs/results-$tag.json" "$tag" <<'PY' || { say "FAIL: the $tag run"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["results"] if isinstance(d, dict) and "results" in d else d
def backend(r): return r.get("requested") or r.get("backend") or ""
mine = [r for r in rows if backend(r) in ("wasm", "cpu")]
bad = [r for r in mine if r.get("status") not in ("PASSED",)]
print("  %s: %d rows, %d wasm/cpu, %d of them not PASSED" % (sys.argv[2], len(rows), len(mine), len(bad)))
for r in bad[:10]:
    print("   ", r.get("case", r.get("caseKey")), backend(r), r.get("status"), str(r.get("reason", ""))[:160])
sys.exit(1 if bad or not mine else 0)
PY
done
python3 - "$work/kit/logs/results-default.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["results"] if isinstance(d, dict) and "results" in d else d
def backend(r): return r.get("requested") or r.get("backend") or ""
# native-webgpu runs single passes: a generation is UNSUPPORTED there, said so
def said_unsupported(r): return r.get("status") == "UNSUPPORTED" and "runs single passes only" in str(r.get("reason", ""))
bad = [r for r in rows if backend(r) in ("wasm", "cpu", "native-webgpu") and r.get("status") != "PASSED"
       and not (backend(r) == "native-webgpu" and said_unsupported(r))]
nat = [r for r in rows if backend(r) == "native-webgpu"]
gpu = [r for r in rows if backend(r) == "webgpu"]
wrong_gpu = [r for r in gpu if r.get("status") != "UNAVAILABLE" or "no hardware WebGPU adapter" not in json.dumps(r)]
print("  %d rows: %d wasm/cpu/native-webgpu not PASSED, %d native-webgpu rows, %d webgpu rows, %d of them not UNAVAILABLE "
      "with the flag sets' evidence" % (len(rows), len(bad), len(nat), len(gpu), len(wrong_gpu)))
for r in (bad + wrong_gpu)[:10]:
    print("   ", r.get("case", r.get("caseKey")), backend(r), r.get("status"), str(r.get("reason", ""))[:160])
sys.exit(1 if bad or wrong_gpu or not rows or not nat else 0)
PY
[ -s "$work/out/matrix.duckdb" ] && [ -s "$work/out/reports.tar.gz" ] && [ -s "$work/out/probe.tsv" ] || { say "FAIL: OUT lacks a file"; exit 1; }
# found when run on a GPU host: every probe said "no answer" (the shell started without its libraries) and nothing here
# noticed; SwiftShader's adapter must answer the probe here
answered=$(awk -F'\t' 'NR>1 && $3 !~ /^no answer/' "$work/out/probe.tsv" | wc -l)
[ "$answered" -gt 0 ] || { say "FAIL: no probe answered (see logs.tar.gz's probe-*.log)"; exit 1; }
say "  $answered probes answered"
say "PASS: the kit ran the suites on wasm and native CPU in an empty root"
