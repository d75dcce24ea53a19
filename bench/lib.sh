# Sourced by the bench scripts: ROOT (the checkout), TMP (removed on exit), the working directory at ROOT, and the
# project built before anything is measured.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT"
./accelbridge --version >/dev/null   # build first, outside the measurement
