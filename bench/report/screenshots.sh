#!/usr/bin/env bash
# Screenshots of a real report in real Chromium (Debian's headless Chromium, offline), to look at before calling a
# report change done: folded and with every section open (report.html#all), at 1280, 1400 and 1920 px.
# Usage: bench/report/screenshots.sh [REPORT_HTML (default accelbridge-out/report.html)] [OUT_DIR (default accelbridge-out/screenshots)]
# The dashboard's views are shot by its tests (tools/target/dashboard-screenshots), the report's layout fixtures
# by the reports' tests (reports/target/screenshots).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPORT="$(realpath "${1:-accelbridge-out/report.html}")"
OUT="${2:-accelbridge-out/screenshots}"
CHROMIUM="${CHROMIUM:-/usr/lib/chromium/chromium}"
[ -f "$REPORT" ] || { echo "no report at $REPORT: run ./accelbridge run first, or give its path" >&2; exit 2; }
mkdir -p "$OUT"
for width in 1280 1400 1920; do
  for view in folded all; do
    hash=""; [ "$view" = all ] && hash="#all"
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-background-networking \
      --virtual-time-budget=3000 --window-size="$width,6000" --screenshot="$OUT/report-$view-$width.png" \
      "file://$REPORT$hash" >/dev/null 2>&1
    echo "$OUT/report-$view-$width.png"
  done
done
