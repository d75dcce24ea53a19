#!/usr/bin/env bash
# Builds the headless-surface layer and layer-check.c here and runs the check under Vulkan's loader on Mesa's lavapipe
# (a real driver without VK_EXT_headless_surface), in a minute. Needs a C compiler, Debian's libvulkan1 and
# mesa-vulkan-drivers; the Vulkan headers are taken from Debian's libvulkan-dev as make-kit.sh takes them.
# Usage: bench/gpu/layer-check.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
t="$(mktemp -d /tmp/accelbridge-layer-check.XXXXXX)"
trap 'rm -rf "$t"' EXIT
icd=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
[ -f "$icd" ] || { echo "lavapipe's ICD ($icd) is not here: apt-get install mesa-vulkan-drivers libvulkan1" >&2; exit 2; }
(cd "$t" && apt-get download -q libvulkan-dev > /dev/null 2>&1 && dpkg-deb -x libvulkan-dev_*.deb vkdev)
layer="$t/share/vulkan/implicit_layer.d"
mkdir -p "$layer"
cc -O2 -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror -I"$t/vkdev/usr/include" \
  -o "$layer/libaccelbridge_headless_surface.so" "$ROOT/bench/gpu/headless-surface-layer.c" -lpthread
# the manifest make-kit.sh writes, with the same switch
sed -n "/^cat > \"\$layer\/accelbridge_headless_surface.json\" <<'JSON'$/,/^JSON$/p" "$ROOT/bench/gpu/make-kit.sh" | sed '1d;$d' \
  > "$layer/accelbridge_headless_surface.json"
cc -O1 -g -Wall -Wextra -I"$t/vkdev/usr/include" -o "$t/layer-check" "$ROOT/bench/gpu/layer-check.c" -l:libvulkan.so.1 -lpthread
XDG_DATA_DIRS="$t/share" ACCELBRIDGE_HEADLESS_SURFACE=1 VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd" timeout 300 "$t/layer-check"
