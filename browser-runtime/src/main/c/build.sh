#!/usr/bin/env bash
# Builds the headless-surface layer (headless-surface-layer.c), its implicit-layer manifest and the Vulkan probe
# (vulkan-probe.c) into OUT/dev/accelbridge/browser/launch/vulkan, with build.properties naming each file's sha256,
# which HeadlessSurface verifies at every use. Where no C compiler or no Vulkan headers are here (setup.sh installs
# gcc and libvulkan-dev on Debian/Ubuntu), build.properties says which is missing instead, and the product says so.
# Usage: build.sh OUT   (the build's classes folder; run by browser-runtime's pom at generate-resources)
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1/dev/accelbridge/browser/launch/vulkan"
rm -rf "$out"; mkdir -p "$out"
absent() { printf 'absent=%s\nfix=%s\n' "$1" "$2" > "$out/build.properties"; echo "[vulkan-layer] not built: $1" >&2; exit 0; }
[ "$(uname -s)" = Linux ] || absent "the layer is built for Linux only ($(uname -s) here)" "run on Linux"
command -v cc > /dev/null || absent "no C compiler (cc) where it was built" "install gcc (setup.sh does) and build again"
echo '#include <vulkan/vulkan.h>' | cc -E -x c - > /dev/null 2>&1 \
  || absent "no Vulkan headers (vulkan/vulkan.h) where it was built" "install libvulkan-dev (setup.sh does) and build again"
cc -O2 -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror -o "$out/libaccelbridge_headless_surface.so" \
  "$src/headless-surface-layer.c" -lpthread
cc -O2 -Wall -Wextra -Werror -o "$out/vulkan-probe" "$src/vulkan-probe.c" -ldl
cp "$src/accelbridge_headless_surface.json" "$out/"
sum() { sha256sum "$out/$1" | cut -d' ' -f1; }
{
  echo "arch=$(uname -m)"
  echo "compiler=$(cc --version | head -1 | tr -d '\r')"
  echo "layer=$(sum libaccelbridge_headless_surface.so)"
  echo "manifest=$(sum accelbridge_headless_surface.json)"
  echo "probe=$(sum vulkan-probe)"
} > "$out/build.properties"
