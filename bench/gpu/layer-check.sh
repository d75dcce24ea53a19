#!/usr/bin/env bash
# Builds the headless-surface layer and layer-check.c here and runs the check under Vulkan's loader on Mesa's lavapipe
# (a real driver without VK_EXT_headless_surface), in a minute. Needs a C compiler, Debian's libvulkan1 and
# mesa-vulkan-drivers and libvulkan-dev (setup.sh installs them). The test suite runs the same check
# (HeadlessSurfaceLayerCheckTest); this script is the check alone, by hand.
# Usage: bench/gpu/layer-check.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
t="$(mktemp -d /tmp/accelbridge-layer-check.XXXXXX)"
trap 'rm -rf "$t"' EXIT
icd=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
[ -f "$icd" ] || { echo "lavapipe's ICD ($icd) is not here: apt-get install mesa-vulkan-drivers libvulkan1" >&2; exit 2; }
layer="$t/share/vulkan/implicit_layer.d"
mkdir -p "$layer"
src="$ROOT/browser-runtime/src/main/c"
cc -O2 -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror -o "$layer/libaccelbridge_headless_surface.so" \
  "$src/headless-surface-layer.c" -lpthread
cp "$src/accelbridge_headless_surface.json" "$layer/"
cc -O1 -g -Wall -Wextra -o "$t/layer-check" "$ROOT/browser-runtime/src/test/c/layer-check.c" -l:libvulkan.so.1 -lpthread
XDG_DATA_DIRS="$t/share" ACCELBRIDGE_HEADLESS_SURFACE=1 VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd" timeout 300 "$t/layer-check"
