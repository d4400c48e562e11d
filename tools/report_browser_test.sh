#!/usr/bin/env bash
# File: tools/report_browser_test.sh
# Loads the quickstart's report.html in headless Chromium and checks that a screenshot comes out as
# a non-empty PNG, and that the page logged no console errors. Exit 77 (meson: skipped) when
# chromium is not installed. Usage: report_browser_test.sh PARALLAX_BIN
set -eu
bin=$1
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium not installed: skipping (apt-get install chromium chromium-driver)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" run --out "$work/out" > /dev/null
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$work/profile" --window-size=1200,2000)
timeout 120 "$browser" "${flags[@]}" --screenshot="$work/report.png" "file://$work/out/report.html" \
  > "$work/browser.log" 2>&1 || { cat "$work/browser.log"; exit 1; }
[ -s "$work/report.png" ] || { echo "no screenshot"; cat "$work/browser.log"; exit 1; }
head -c 8 "$work/report.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || { echo "not a PNG"; exit 1; }
# Console errors from the page are logged as CONSOLE(...) lines with --enable-logging=stderr.
timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --dump-dom "file://$work/out/report.html" \
  > "$work/dom.html" 2> "$work/console.log" || { cat "$work/console.log"; exit 1; }
if grep -q "CONSOLE" "$work/console.log"; then grep "CONSOLE" "$work/console.log"; exit 1; fi
grep -q "<svg" "$work/dom.html" || { echo "no <svg> in the rendered DOM"; exit 1; }
echo "ok: $(stat -c %s "$work/report.png") byte screenshot, no console errors"
