#!/usr/bin/env bash
# Runs the GPU kit (bench/gpu/make-kit.sh) on a bare host, within about seven minutes, and writes every result into OUT
# as at most eight files: run.log, host.txt (the GPU, its driver, the CUDA libraries found), probe.tsv (what WebGPU and
# WebGL got under each Vulkan driver set and flag set), matrix.duckdb (the store), reports.tar.gz (report.html/.md,
# matrix.json, junit.xml) and logs.tar.gz (each probe's browser log, the runs' logs).
#   1. the parts and their whole are checked against KIT.sha256; each archive is listed before it is unpacked (plain
#      files and folders only, no setuid bits, nothing outside its folder) into a folder of its own; the inner files
#      against INNER.sha256, the application against its FILES.sha256, each folder holding nothing they do not name;
#      nothing is run before that, and nothing the kit did not make is deleted (KIT_WORK must be new, empty or the kit's);
#   2. the host: nvidia-smi, the Vulkan and EGL driver files, the CUDA libraries PyTorch's packages carry;
#   3. WebGPU: the headless shell opens probe.html under each Vulkan driver set (NVIDIA's alone; NVIDIA's beside
#      SwiftShader's, whose VK_EXT_headless_surface ANGLE's headless display needs; NVIDIA's alone under the kit's layer
#      that offers that extension, bench/gpu/headless-surface-layer.c) with each flag set of
#      hardware-webgpu.flags; the first that gives an adapter that is neither a fallback nor a software one wins;
#   4. the suites under the winning driver set with --webgpu-adapter hardware (the lane finds the winning flag set
#      itself, and the product gives its browsers its own headless-surface layer where the driver lacks the extension, as
#      'accelbridge detect' says): first the real scale (--size real) on WebGPU (both engines), native WebGPU, wasm,
#      native CPU and CUDA; then the width sweep (--sweep: where WebGPU pays off); then the small suites; then fp16 and
#      q4f16 on WebGPU where the adapter has shader-f16, each in the time left.
# Usage: bench/gpu/run-kit.sh OUT KIT_FOLDER...   (the folders as make-kit wrote them: a, b, ... in order)
# Env: KIT_BUDGET_S (default 420: the real scale authors 1.6 GB of models there first): the seconds the run may take;
# KIT_WORK (default /tmp/accelbridge-kit); KIT_PARALLEL (default 3): browser lanes at once.
set -uo pipefail
out="$1"; shift
mkdir -p "$out"
budget="${KIT_BUDGET_S:-420}"
w="${KIT_WORK:-/tmp/accelbridge-kit}"
logs="$w/logs"
# shellcheck source=bench/gpu/kit-unpack.sh
source "$(dirname "${BASH_SOURCE[0]}")/kit-unpack.sh"
kit_work "$w"; mkdir -p "$logs"
exec > >(tee -a "$out/run.log") 2>&1
say() { printf '[gpu-kit %4ds] %s\n' "$SECONDS" "$*"; }
left() { echo $(( budget - SECONDS )); }
finish() {
  [ -d "$w/reports" ] && tar czf "$out/reports.tar.gz" -C "$w" reports
  tar czf "$out/logs.tar.gz" -C "$w" logs
  say "done; OUT holds: $(cd "$out" && ls | tr '\n' ' ')"
}
trap finish EXIT

say "1. checking the kit's parts"
parts=()
for d in "$@"; do for p in "$d"/kit.tar.*; do [ -e "$p" ] && parts+=("$p"); done; done
manifest="$(ls "$1"/KIT.sha256 2>/dev/null || ls "${!#}"/KIT.sha256)"
want=$(grep -c ' [a-f]/kit.tar' "$manifest")
if [ "${#parts[@]}" -ne "$want" ]; then
  say "FAIL: ${#parts[@]} of the kit's $want parts are here (${parts[*]}); every folder must travel to the same machine"
  exit 3
fi
for p in "${parts[@]}"; do
  expect=$(grep " $(basename "$(dirname "$p")")/$(basename "$p")\$" "$manifest" | cut -d' ' -f1)
  got=$(sha256sum < "$p" | cut -d' ' -f1)
  [ "$expect" = "$got" ] || { say "FAIL: $p does not match KIT.sha256"; exit 3; }
done
# the whole, as KIT.sha256 lists it, then each archive listed before it is unpacked into a folder of its own, and each
# folder holding exactly the files its list names (bench/gpu/kit-unpack.sh; tried alone by kit-unpack-check.sh)
mkdir -p "$w/parts" "$w/sys" "$w/home"
cat "${parts[@]}" > "$w/parts/kit.tar"
whole=$(grep '  kit\.tar$' "$manifest" | cut -d' ' -f1)
[ -n "$whole" ] && [ "$(sha256sum < "$w/parts/kit.tar" | cut -d' ' -f1)" = "$whole" ] || kit_refuse "the kit's parts together do not match KIT.sha256's kit.tar"
kit_untar "$w/parts/kit.tar" "$w/kit"
kit_listed "$w/kit" INNER.sha256
unxz() { if command -v xz > /dev/null; then xz -dc "$1"; else python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi; }
unxz "$w/kit/app.tar.xz" > "$w/parts/app.tar" && kit_untar "$w/parts/app.tar" "$w/app"
unxz "$w/kit/shell.tar.xz" > "$w/parts/shell.tar" && kit_untar "$w/parts/shell.tar" "$w/shell"
for d in "$w"/shell/*; do
  [ -e "$w/app/$(basename "$d")" ] && kit_refuse "the shell's archive holds $(basename "$d"), which the application's has too"
  mv "$d" "$w/app/"
done
kit_listed "$w/app" FILES.sha256
rm -rf "$w/parts" "$w/shell"
for deb in "$w"/kit/debs/*.deb; do dpkg-deb -x "$deb" "$w/sys"; done
say "unpacked and checked: $(du -sh "$w/app" | cut -f1) application, $(ls "$w"/kit/debs | wc -l) Debian packages"

say "2. the host"
export LD_LIBRARY_PATH="$w/sys/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do [ -d "$d" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d"; done
nv_icd=""; for f in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
                    /etc/vulkan/icd.d/nvidia_icd.json; do [ -f "$f" ] && { nv_icd="$f"; break; }; done
nv_egl=""; for f in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
  [ -f "$f" ] && { nv_egl="$f"; break; }; done
shell="$(ls "$w"/app/cache/chromium-shell/*/chromium)"
ss_icd="$(dirname "$shell")/vk_swiftshader_icd.json"
{
  echo "uname: $(uname -srm)"
  echo "nvidia-smi:"; nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv 2>&1 | sed 's/^/  /'
  echo "NVIDIA Vulkan ICD: ${nv_icd:-none found}"; [ -n "$nv_icd" ] && sed 's/^/  /' "$nv_icd"
  echo "NVIDIA EGL vendor file: ${nv_egl:-none found}"
  echo "driver libraries: $(ls /usr/local/nvidia/lib64 2>/dev/null | grep -E 'GLX_nvidia|EGL_nvidia|libcuda.so' | tr '\n' ' ')"
  echo "CUDA libraries on this host (sonames a CUDA build of ONNX Runtime would need):"
  find /usr /opt /lib /lib64 -xdev \( -name 'libcudart.so*' -o -name 'libcublas.so*' -o -name 'libcublasLt.so*' -o -name 'libcudnn.so*' \
       -o -name 'libcufft.so*' -o -name 'libcurand.so*' \) 2>/dev/null | grep -v "^$w" | sort | head -20 | sed 's/^/  /'
  echo "python's onnxruntime: $(python3 -c 'import onnxruntime as o; print(o.__version__, o.get_available_providers())' 2>&1 | tail -1)"
  echo "would ONNX Runtime 1.29's CUDA provider load? (a stand-in with its DT_NEEDED list, loaded as the JVM would):"
  cudadirs=$(find /usr /opt /lib /lib64 -xdev \( -name 'libcublas.so*' -o -name 'libcudart.so*' -o -name 'libcurand.so*' \) 2>/dev/null \
             | grep -v "^$w" | xargs -r -n1 dirname | sort -u | tr '\n' ':')
  echo "  with the host's loader path: $(python3 -c 'import ctypes,sys; ctypes.CDLL(sys.argv[1]); print("loads")' \
        "$w/kit/cuda-provider-needs.so" 2>&1 | tail -1)"
  echo "  with the CUDA libraries found added ($cudadirs): $(LD_LIBRARY_PATH="$cudadirs:$LD_LIBRARY_PATH" python3 -c \
        'import ctypes,sys; ctypes.CDLL(sys.argv[1]); print("loads")' "$w/kit/cuda-provider-needs.so" 2>&1 | tail -1)"
} > "$out/host.txt" 2>&1
sed 's/^/  /' "$out/host.txt"

say "3. WebGPU: each Vulkan driver set with each flag set"
export __EGL_VENDOR_LIBRARY_FILENAMES="${nv_egl}"
[ -n "$nv_egl" ] || unset __EGL_VENDOR_LIBRARY_FILENAMES
declare -A drivers=() layered=()
order=()
if [ -n "$nv_icd" ]; then
  drivers[nvidia]="$nv_icd"; order+=(nvidia)
  drivers[nvidia+swiftshader]="$nv_icd:$ss_icd"; order+=(nvidia+swiftshader)
  # NVIDIA's driver alone under the kit's layer, which offers the VK_EXT_headless_surface ANGLE's headless display asks
  # for; last, so that the further variants below are tried under it
  drivers[nvidia+headless-layer]="$nv_icd"; layered[nvidia+headless-layer]=1; order+=(nvidia+headless-layer)
else
  drivers[swiftshader]="$ss_icd"; order+=(swiftshader)
fi
# the layer is implicit and off unless ACCELBRIDGE_HEADLESS_SURFACE=1: the loader finds it through XDG_DATA_DIRS
layer_env() { # driver-set-name: the environment its processes get, as words for env
  if [ -n "${layered[$1]:-}" ]; then
    echo "XDG_DATA_DIRS=$w/kit/layer/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share} ACCELBRIDGE_HEADLESS_SURFACE=1"
  fi
}
# the shell finds its own libraries (NSS, NSPR, ...) where the bundle's launcher puts them for it
shell_libs="$w/app/native:$LD_LIBRARY_PATH"
# the physical devices each driver set gives, through the carried loader (vulkaninfo would need Wayland's client library)
for d in "${order[@]}"; do
  # shellcheck disable=SC2046
  say "  Vulkan devices ($d): $(env $(layer_env "$d") VK_DRIVER_FILES="${drivers[$d]}" timeout 20 python3 - <<'PY' 2>&1 | tail -1
import ctypes as C
vk = C.CDLL("libvulkan.so.1")
class AppInfo(C.Structure): _fields_ = [("sType", C.c_int), ("pNext", C.c_void_p), ("app", C.c_char_p), ("appv", C.c_uint32),
                                        ("eng", C.c_char_p), ("engv", C.c_uint32), ("api", C.c_uint32)]
class InstInfo(C.Structure): _fields_ = [("sType", C.c_int), ("pNext", C.c_void_p), ("flags", C.c_uint32), ("app", C.POINTER(AppInfo)),
                                         ("nl", C.c_uint32), ("l", C.c_void_p), ("ne", C.c_uint32), ("e", C.c_void_p)]
app = AppInfo(0, None, b"probe", 1, b"probe", 1, (1 << 22) | (3 << 12))
inst = C.c_void_p()
r = vk.vkCreateInstance(C.byref(InstInfo(1, None, 0, C.pointer(app), 0, None, 0, None)), None, C.byref(inst))
if r != 0: raise SystemExit("vkCreateInstance: %d" % r)
n = C.c_uint32()
vk.vkEnumeratePhysicalDevices(inst, C.byref(n), None)
devs = (C.c_void_p * n.value)()
vk.vkEnumeratePhysicalDevices(inst, C.byref(n), devs)
names = []
for dv in devs:
    props = (C.c_ubyte * 1024)()
    vk.vkGetPhysicalDeviceProperties(C.c_void_p(dv), props)
    raw = bytes(props)
    names.append("%s (vendor 0x%04x, type %d)" % (raw[20:276].split(b"\0")[0].decode(), int.from_bytes(raw[8:12], "little"),
                                                  int.from_bytes(raw[16:20], "little")))
print("; ".join(names) or "none")
PY
)"
done
# read once, as ChromiumFlags reads it (each line stripped; '#' lines and blank ones skipped); the table reads this list
sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$w/kit/hardware-webgpu.flags" | grep -v -e '^#' -e '^$' > "$logs/flag-sets.txt"
mapfile -t sets < "$logs/flag-sets.txt"
probe() { # driver-set-name index flags...
  local d="$1" i="$2"; shift 2
  local log="$logs/probe-$d-$i.log" prof; prof="$(mktemp -d)"
  # shellcheck disable=SC2046
  env $(layer_env "$d") LD_LIBRARY_PATH="$shell_libs" VK_DRIVER_FILES="${drivers[$d]}" timeout 25 "$shell" --headless --no-sandbox --enable-unsafe-webgpu --enable-logging=stderr \
    --v=0 --user-data-dir="$prof" "$@" "file://$w/kit/probe.html" > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do grep -q 'ACCELBRIDGE-PROBE' "$log" 2>/dev/null && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  rm -rf "$prof"
}
pids=() # waited for by id: a bare 'wait' would wait for the log's tee too
for d in "${order[@]}"; do
  for i in "${!sets[@]}"; do
    # shellcheck disable=SC2086
    probe "$d" "$i" ${sets[$i]} &
    pids+=($!)
    if [ "${#pids[@]}" -ge 6 ]; then wait "${pids[@]}"; pids=(); fi
  done
done
[ "${#pids[@]}" -eq 0 ] || wait "${pids[@]}"
# further variants (an environment beside the flags), under the last driver set, into probe-extra.tsv
extra="$(dirname "$0")/extra-probe.sets"
if [ -f "$extra" ]; then
  d="${order[-1]}"; i=0; pids=()
  while IFS='|' read -r envs flags; do
    envs="$(echo "$envs" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')"
    [ -n "$envs$flags" ] || continue
    echo "x$i: $envs|$flags" >> "$logs/extra-sets.txt"
    # shellcheck disable=SC2086
    (if [ -n "$envs" ]; then export "$envs"; fi; probe "$d" "x$i" $flags) &
    pids+=($!); i=$((i + 1))
  done < <(grep -v '^#' "$extra")
  [ "${#pids[@]}" -eq 0 ] || wait "${pids[@]}"
  for f in "$logs"/probe-"$d"-x*.log; do
    say "  extra $(basename "$f" .log): $(grep -o 'ACCELBRIDGE-PROBE.*' "$f" | cut -c1-230 || true) $(grep -m1 -E ':ERROR:|:FATAL:' "$f" | grep -v zygote | cut -c1-200)"
  done
fi
python3 - "$logs" "${order[@]}" > "$out/probe.tsv" <<'PY'
import json, os, re, sys
logs, order = sys.argv[1], sys.argv[2:]
sets = open(os.path.join(logs, "flag-sets.txt")).read().splitlines()
print("\t".join(["drivers", "set", "webgpu", "fallback", "shader-f16", "high-performance", "webgl", "first error", "flags"]))
for d in order:
    for i, s in enumerate(sets):
        text = open(os.path.join(logs, "probe-%s-%d.log" % (d, i)), errors="replace").read()
        m = re.search(r'ACCELBRIDGE-PROBE (\{.*\})', text)
        # the browser's first error before its answer (what follows is its end, which the probe brings about)
        before = text.split('ACCELBRIDGE-PROBE', 1)[0].splitlines()
        err = next((l.split('] ', 1)[-1][:160] for l in before if (':ERROR:' in l or ':FATAL:' in l) and 'zygote' not in l),
                   before[0][:160] if before and not m else "")  # a shell that never started says so on its first line
        if not m:
            print("\t".join([d, str(i), "no answer", "", "", "", "", err, s])); continue
        p = json.loads(m.group(1))
        def name(g):
            if g is None: return "?"
            if g.get("error"): return "error: " + g["error"][:80]
            if not g.get("adapter"): return "null adapter"
            return "%s %s %s" % (g.get("vendor"), g.get("architecture"), g.get("description") or g.get("device") or "")
        g, hp, gl = p.get("webgpu") or {}, p.get("webgpuHighPerformance") or {}, p.get("webgl") or {}
        print("\t".join([d, str(i), name(g), str(g.get("isFallbackAdapter")), str("shader-f16" in (g.get("features") or [])),
                         name(hp), str(gl.get("renderer") or gl.get("error")), err, s]))
PY
awk -F'\t' '{printf "  %-20s %-3s %-40s %-8s %-6s %-40s %s\n", $1, $2, substr($3,1,40), $4, $5, substr($7,1,40), substr($8,1,80)}' "$out/probe.tsv"
# an adapter, not a fallback (or one that does not say), not a software rasterizer by name
hw='NR>1 && $3 !~ /^(no answer|null adapter|error)/ && $4!="True" && tolower($3) !~ /swiftshader|llvmpipe|lavapipe|software/'
winner=$(awk -F'\t' "$hw {print \$1; exit}" "$out/probe.tsv")
f16=$(awk -F'\t' -v d="$winner" "$hw && \$1==d {print \$5; exit}" "$out/probe.tsv")
if [ -n "$winner" ]; then
  say "  hardware WebGPU under the driver set '$winner' (shader-f16: $f16)"
  export VK_DRIVER_FILES="${drivers[$winner]}"
  # the layer is not exported: the product decides for each browser it launches whether it needs its own layer
  # (HeadlessSurfaces), and 'accelbridge detect' below says what it decided
else
  say "  no flag set under any driver set gave a hardware adapter: WebGPU is UNAVAILABLE with each lane's evidence"
  export VK_DRIVER_FILES="${drivers[${order[-1]}]}"
fi

export HOME="$w/home"
timeout 60 "$w/app/bin/accelbridge" detect > "$logs/detect.txt" 2>&1
say "  the product's headless-surface layer: $(grep -A1 -m1 '^headless-surface layer' "$logs/detect.txt" | tail -1 | cut -c1-240)"
say "4. the suites: the real scale, the width sweep, the small suites, on WebGPU (both engines), native WebGPU, wasm, native CPU and CUDA ($(left) s left)"
run_for() { # tag, seconds, then run's arguments: results as JSON in logs/results-TAG.json, progress in logs/run-TAG.log
  local tag="$1" s="$2"; shift 2
  [ "$s" -gt 20 ] || { say "  skipped (only $s s left): $*"; return 0; }
  timeout -k 10 "$s" "$w/app/bin/accelbridge" run --db "$out/matrix.duckdb" --no-report --json "$@" \
    > "$logs/results-$tag.json" 2> >(tee "$logs/run-$tag.log" | grep --line-buffered -vE 'timed [0-9]+ runs|[0-9]+ warm-ups? \(' >&2)
  say "  $tag run exited $? ($(left) s left)"
}
# WebGPU and CUDA each its own verdict, not a fallback's (--chain of one); a session may take two minutes to load
# (the real scale's cases get five minutes each: a 0.5 B decoder's ten generations on wasm take two on two cores)
common=(--browser chromium-shell --webgpu-adapter hardware --chain webgpu --chain cuda --chain native-webgpu
        --load-timeout 120 --no-bisect)
# the kit's main work: the real scale (BERT-base, ViT-B/16, a 0.5 B decoder in int4) on WebGPU (both engines), native
# WebGPU (ONNX Runtime's WebGPU EP natively, each browser WebGPU cell's twin), wasm, native CPU and CUDA, each case placed
# under the device's roof by the reports; five timed runs each, for the five minutes
run_for real $(( $(left) - 170 )) "${common[@]}" --timeout 300 --size real --suites text,vision,text-generation \
  --backends webgpu,native-webgpu,wasm,cpu,cuda --engines jsep,webgpu-ep --iterations 5 --parallel "${KIT_PARALLEL:-3}"
# where WebGPU pays off: the width sweep on WebGPU against wasm and native CPU
run_for sweep $(( $(left) - 110 )) "${common[@]}" --timeout 300 --sweep --backends webgpu,wasm,cpu --engines jsep,webgpu-ep \
  --parallel "${KIT_PARALLEL:-3}"
# the small suites: the engines' own overheads, as measured before
run_for default $(( $(left) - 60 )) "${common[@]}" --timeout 60 --backends wasm,webgpu,cpu,cuda,native-webgpu --engines jsep,webgpu-ep \
  --parallel "${KIT_PARALLEL:-3}"
if [ "$f16" = "True" ]; then
  run_for f16 $(( $(left) - 40 )) "${common[@]}" --timeout 60 --backends webgpu,cpu --engines jsep,webgpu-ep --suites vision,text \
    --precision fp16,q4f16
else
  say "  fp16 and q4f16 on WebGPU not run: no hardware adapter with shader-f16"
fi
timeout 60 "$w/app/bin/accelbridge" report --db "$out/matrix.duckdb" --out "$w/reports" > "$logs/report.log" 2>&1
say "  reports written (exit $?)"
