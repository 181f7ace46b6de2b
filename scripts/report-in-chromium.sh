#!/usr/bin/env bash
# The report page (`denizen tables report`) in a real browser: headless Chromium opens it
# with the `#selftest` fragment, on which the page's own script sorts the species table
# by cost, filters it, checks the rows, the fragment and the charts' layout, and writes
# "selftest: pass" (or "fail" and what it saw) into the page. The check reads that from
# the page's DOM as Chromium dumps it, and fails on any line the page logged to its
# console (an error in the script among them). Without Chromium it fails: it never
# passes by skipping.
#
#   scripts/report-in-chromium.sh                       # the check (CI runs it)
#   scripts/report-in-chromium.sh --screenshot FILE.png # also a screenshot, for docs/gallery
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || true)
if [ -z "$browser" ]; then
    echo "chromium is not installed, so the report's browser check cannot run" \
        "(Debian: apt-get install chromium)" >&2
    exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
data=crates/denizen_tables/data
starter="$data/starter.tables.ron $data/starter_mod.tables.ron"
# shellcheck disable=SC2086
cargo run -q -p denizen_cli -- tables report $starter guide/balancing/hulks_early.tables.ron \
    --against $starter --checks guide/balancing/starter.checks.ron --depths 1-12 \
    -o "$dir/report.html"
# Root (as in a CI container) needs --no-sandbox.
chrome() {
    "$browser" --headless --no-sandbox --disable-gpu --no-first-run --enable-logging=stderr \
        --v=0 --virtual-time-budget=5000 --window-size=1280,2000 "$@"
}
chrome --dump-dom "file://$dir/report.html#selftest" >"$dir/dom.html" 2>"$dir/browser.log"
verdict=$(grep -o '<pre id="selftest">selftest: [^<]*' "$dir/dom.html" | sed 's/^<pre id="selftest">//' || true)
echo "${verdict:-the page wrote no self-test result}"
case "$verdict" in
    "selftest: pass"*) ;;
    *) echo "the report's self-test did not pass in Chromium" >&2
       cat "$dir/browser.log" >&2
       exit 1 ;;
esac
if grep ':CONSOLE' "$dir/browser.log"; then
    echo "the report logged the lines above to the browser's console" >&2
    exit 1
fi
if [ "${1:-}" = "--screenshot" ]; then
    chrome --hide-scrollbars --screenshot="$dir/shot.png" "file://$dir/report.html" \
        2>>"$dir/browser.log"
    cp "$dir/shot.png" "$2"
    echo "wrote $2"
fi
