#!/usr/bin/env bash
# Accelbridge set-up: installs what is missing on a Debian/Ubuntu machine, builds, then runs a job.
#
#   ./setup.sh run [accelbridge run options]   set up, then run the default matrix (the main job)
#   ./setup.sh test                            set up, then build, run every test, install, and build and test the
#                                              JUnit 5 example project (examples/junit5) against what was installed
#   ./setup.sh build                           set up and build only
#
# What it installs when missing (apt, as root or through sudo): a JDK 17+, Node.js + npm, Chromium and
# ChromeDriver (when no Chrome/Chromium is found), Firefox ESR and Mesa's Vulkan drivers (a second browser engine
# in the default matrix: Gecko's WebGPU runs on lavapipe), WebKitGTK's WebDriver and Xvfb (the third engine, Safari's:
# its MiniBrowser has no headless mode, so it runs on a virtual display), pciutils (OSHI lists GPUs through lspci), gcc and
# libvulkan-dev (the headless-surface Vulkan layer a headless Chromium needs on NVIDIA's driver is built with them), unzip
# and curl (the Maven wrapper). npm packages come from the lockfiles (npm ci, driven by Maven); Maven dependencies
# from Maven Central through ./mvnw.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

mode="${1:-build}"
[ $# -gt 0 ] && shift

log() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@";
  elif command -v sudo >/dev/null 2>&1; then sudo "$@";
  else log "need root to run: $*  (install sudo or run as root)"; return 1; fi
}

have() { command -v "$1" >/dev/null 2>&1; }

java_ok() {
  have javac || return 1
  local v
  v=$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')
  [ "${v:-0}" -ge 17 ] 2>/dev/null
}

browser_found() {
  for b in chromium chromium-browser google-chrome google-chrome-stable; do have "$b" && return 0; done
  [ -x /usr/lib/chromium/chromium ]
}

need=()
java_ok || need+=(openjdk-17-jdk-headless)
have node || need+=(nodejs)
have npm || need+=(npm)
browser_found || need+=(chromium)
have chromedriver || [ -x /usr/lib/chromium/chromedriver ] || need+=(chromium-driver)
have firefox-esr || have firefox || need+=(firefox-esr)
dpkg -s mesa-vulkan-drivers >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
# the headless-surface Vulkan layer and its probe are built into browser-runtime's jar with these
have cc || need+=(gcc libc6-dev)
dpkg -s libvulkan-dev >/dev/null 2>&1 || need+=(libvulkan-dev)
have WebKitWebDriver || need+=(webkit2gtk-driver)
have Xvfb || need+=(xvfb)
have lspci || need+=(pciutils)
have unzip || need+=(unzip)
have curl || have wget || need+=(curl)

if [ ${#need[@]} -gt 0 ]; then
  log "installing missing packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${need[@]}"
else
  log "system packages present (JDK, Node.js, Chromium, ChromeDriver, Firefox ESR, Mesa Vulkan, Vulkan headers, gcc, WebKitGTK driver, Xvfb, lspci)"
fi

# Browsers are never downloaded by a tool: Playwright uses the system Chromium by path.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

mvn_flags=(-B -ntp)
[ -n "${CI:-}" ] && mvn_flags+=(-Dstyle.color=never)

# ./accelbridge rebuilds when sources are newer than this stamp; a build here makes it current, so the
# project is built once, not twice.
stamp() { touch tools/target/.accelbridge-built; }

case "$mode" in
  build)
    ./mvnw "${mvn_flags[@]}" -DskipTests package
    stamp
    ;;
  run)
    ./mvnw "${mvn_flags[@]}" -q -DskipTests package
    stamp
    exec ./accelbridge run "$@"
    ;;
  test)
    # install, not verify: the example project (examples/junit5) depends on the installed artifacts, as a user's would
    ./mvnw "${mvn_flags[@]}" install "$@"
    stamp
    log "the JUnit 5 example project (examples/junit5), against the installed artifacts"
    ./mvnw "${mvn_flags[@]}" -f examples/junit5/pom.xml verify
    ;;
  *)
    log "unknown mode '$mode': use run, test or build"; exit 2 ;;
esac
