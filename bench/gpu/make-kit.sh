#!/usr/bin/env bash
# The GPU kit, made here from a built checkout: everything a bare GPU host (no JVM, no browser, no Vulkan loader, no
# network) needs to run Accelbridge, as a few folders (a, b, c, ...) that each travel in one call of at most 64 MiB
# together with this repository. bench/gpu/run-kit.sh runs it there (and here, for the dry run: bench/gpu/dry-run.sh).
#
# What it holds: the offline bundle's application and headless shell, slimmed for one host (x86-64 Linux): a Java
# runtime linked uncompressed (so that xz compresses it), jars stored with other systems' natives and the jars only the
# Selenium and Playwright drivers use left out (the kit runs browsers as plain processes); Debian's Vulkan loader,
# glvnd's EGL dispatch (NVIDIA's drivers are the host's); the probe page and the flag sets it tries.
# Two xz archives (x86 filter) in one tar, split in equal parts, one a folder; every part and the whole listed with
# their sha256 in each folder's KIT.sha256, every inner file in the tar's INNER.sha256. The application carries the
# native WebGPU backend's library (native-runner/webgpu) as the offline bundle does.
# Usage: bench/gpu/make-kit.sh [OUT=bench/gpu/kit]   (OUT/a, OUT/b, ...; the slow shell archive is cached in OUT/.cache)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$ROOT/bench/gpu/kit}"
say() { printf '[make-kit %4ds] %s\n' "$SECONDS" "$*" >&2; }
work="$(mktemp -d /tmp/accelbridge-kit.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/.cache"
rm -rf "$out"/[a-f]

say "the offline bundle"
"$ROOT/accelbridge" bundle --out "$work/bundle" > "$work/bundle.txt"
sha="$(sed -n 's/^MANIFEST.sha256: //p' "$work/bundle.txt")"
"$work/bundle/install.sh" --expect "$sha" "$work/app" > /dev/null
app="$work/app"

say "slimming for x86-64 Linux"
# the modules the application uses on the kit's path (a loopback bridge, browsers as processes): java.se's desktop,
# scripting, RMI, HTTP server and locale data left out, 9 MB of the archive
modules=java.base,java.logging,java.sql,java.naming,java.management,jdk.management,jdk.unsupported,jdk.crypto.ec,jdk.zipfs
modules=$modules,java.net.http,jdk.charsets,java.xml
rm -rf "$app/runtime"
jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=0 \
  --strip-native-debug-symbols=exclude-debuginfo-files --output "$app/runtime"
# left out, as never loaded on the kit's path: Selenium's CDP bindings, class generator, tracing and Guava, Playwright's
# driver scripts (they need Node.js; the kit runs browsers as plain processes), Bouncy Castle (it makes the certificate
# of an exposed bridge; the kit's is on loopback), DJL's tokenizers (they tokenize a model folder's tokenizer.json; the
# kit runs the authored suites) and the JSPI build of onnxruntime-web (no JSPI engine is run)
rm -f "$app"/lib/selenium-devtools-*.jar "$app"/lib/byte-buddy-*.jar "$app"/lib/driver-[0-9]*.jar "$app"/lib/bc*-jdk18on-*.jar \
  "$app"/lib/opentelemetry-*.jar "$app"/lib/guava-*.jar "$app"/lib/failureaccess-*.jar \
  "$app"/lib/selenium-{ie,edge,safari}-driver-*.jar "$app"/lib/tokenizers-*.jar
python3 "$ROOT/bench/gpu/slim.py" "$app/lib" '/ort-wasm-simd-threaded\.jspi\.|/ort\.jspi\.' >&2
# each link becomes what it names (jlink's legal notices are links): the kit's unpacking refuses every link, since a link
# in one archive let the next, unpacked beside it, write outside its folder
find "$app" -type l | while read -r l; do
  t="$(readlink -f "$l")"
  rm -f "$l"
  if [ -d "$t" ]; then cp -r "$t" "$l"; elif [ -f "$t" ]; then cp "$t" "$l"; fi
done
(cd "$app" && find bin lib runtime browser-runtime native-runner cache native bundle.json -type f | LC_ALL=C sort | xargs -d '\n' sha256sum > FILES.sha256)

stage="$work/kit"
mkdir -p "$stage/debs"
say "the application archive"
app_sha="$(sha256sum "$app/FILES.sha256" | cut -c1-16)"
if [ ! -s "$out/.cache/app-$app_sha.tar.xz" ]; then
  rm -f "$out"/.cache/app-*.tar.xz
  (cd "$app" && tar cf - --owner=0 --group=0 --mtime=@0 --sort=name bin lib runtime browser-runtime native-runner bundle.json FILES.sha256) \
    | xz --x86 --lzma2=preset=9e,dict=256MiB -T1 > "$out/.cache/app-$app_sha.tar.xz.tmp"
  mv "$out/.cache/app-$app_sha.tar.xz.tmp" "$out/.cache/app-$app_sha.tar.xz"
fi
cp "$out/.cache/app-$app_sha.tar.xz" "$stage/app.tar.xz"
shell_sha="$(cat "$app"/cache/chromium-shell/*/chromium "$app"/native/* | sha256sum | cut -c1-16)"
cached="$out/.cache/shell-v2-$shell_sha.tar.xz" # v2: links made files (kit-unpack.sh refuses links)
if [ ! -s "$cached" ]; then
  say "the headless shell's archive (minutes: one xz stream with a 256 MiB window, cached as $(basename "$cached"))"
  rm -f "$out"/.cache/shell-*.tar.xz
  (cd "$app" && tar cf - cache native) | xz --x86 --lzma2=preset=9e,dict=256MiB -T1 > "$cached.tmp"
  mv "$cached.tmp" "$cached"
fi
cp "$cached" "$stage/shell.tar.xz"
say "Debian's Vulkan loader and EGL dispatch libraries"
# not vulkaninfo (vulkan-tools, 0.24 MB): it needs Wayland's client library, which the host lacks, so it never answered
# there; run-kit.sh lists each driver set's devices through the loader itself
(cd "$stage/debs" && apt-get download -q libvulkan1 libegl1 libglvnd0 2>/dev/null >&2)
# ONNX Runtime's CUDA provider is 583 MB (onnxruntime_gpu 1.29.0's libonnxruntime_providers_cuda.so), far past a call:
# a stand-in with its exact DT_NEEDED list (read with readelf from that jar) lets the host's loader say, in its own
# words, whether the provider would load there
stub="$work/stub"; mkdir -p "$stub"
cuda_needed="libcublasLt.so.12 libcublas.so.12 libcurand.so.10 libcudart.so.12 libcuda.so.1"
links=()
for so in $cuda_needed; do
  echo 'void accelbridge_stub(void) {}' | cc -x c -shared -fPIC -o "$stub/$so" -Wl,-soname,"$so" -
  links+=("$stub/$so")
done
echo 'int accelbridge_cuda_needs(void) { return 0; }' | cc -shared -fPIC -o "$stage/cuda-provider-needs.so" \
  -Wl,--no-as-needed -x c - -x none "${links[@]}"
say "the headless-surface layer for the probes (the product's, as the build made it into browser-runtime's jar)"
built="$ROOT/browser-runtime/target/classes/dev/accelbridge/browser/launch/vulkan"
grep -q '^layer=' "$built/build.properties" 2>/dev/null || { say "FAIL: the build made no layer ($(cat "$built/build.properties" 2>/dev/null))"; exit 1; }
layer="$stage/layer/share/vulkan/implicit_layer.d"
mkdir -p "$layer"
cp "$built/libaccelbridge_headless_surface.so" "$built/accelbridge_headless_surface.json" "$layer/"
cp "$ROOT/bench/gpu/probe.html" "$ROOT/browser-runtime/src/main/resources/dev/accelbridge/browser/launch/hardware-webgpu.flags" "$stage/"
(cd "$stage" && find . -type f ! -name INNER.sha256 | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' sha256sum > INNER.sha256)

# each folder travels with this repository's tree (tracked files and untracked ones not ignored) in one 64 MiB call,
# counted as a tar stream counts them (found when tried: by file sizes alone the first folder was 0.7 MB over, since each
# of the tree's thousand files takes a 512-byte header and padding)
tree=$(cd "$ROOT" && { git ls-files -z; git ls-files -z --others --exclude-standard; } | tar --null -cf - -T - | wc -c)
cap=$(( 64 * 1024 * 1024 - tree - 256 * 1024 ))
(cd "$stage" && tar cf "$work/kit.tar" --owner=0 --group=0 .)
total=$(stat -c %s "$work/kit.tar")
# as many folders as the kit needs, each one call: a, b, c, ... (equal parts, so each keeps the same room for the tree)
n=$(( (total + cap - 1) / cap ))
[ "$n" -le 6 ] || { say "FAIL: the kit is $total bytes: $n folders of $cap beside this tree of $tree (at most 6)"; exit 1; }
names=(a b c d e f)
part=$(( (total + n - 1) / n ))
listed=()
for i in $(seq 0 $(( n - 1 ))); do
  d="${names[$i]}"; mkdir -p "$out/$d"
  # dd, not tail | head: under pipefail the tail a head leaves unread ends with SIGPIPE, and the script with it
  dd if="$work/kit.tar" of="$out/$d/kit.tar.$(printf '%03d' "$i")" bs=1M iflag=skip_bytes,count_bytes skip=$(( i * part )) \
    count="$part" status=none
  listed+=("$d/kit.tar.$(printf '%03d' "$i")")
done
for i in $(seq 0 $(( n - 1 ))); do
  { (cd "$out" && sha256sum "${listed[@]}"); echo "$(sha256sum < "$work/kit.tar" | cut -d' ' -f1)  kit.tar"; } > "$out/${names[$i]}/KIT.sha256"
done
say "kit: $n folders ($(cd "$out" && du -b "${listed[@]}" | cut -f1 | tr '\n' ' ')bytes; each folder's cap $cap beside a tree of $tree):"
(cd "$stage" && ls -l --block-size=K app.tar.xz shell.tar.xz debs/*.deb | awk '{print "  " $5 "  " $9}') >&2
echo "${listed[@]/#/$out/}" | sed 's|/kit.tar.[0-9]*||g'
