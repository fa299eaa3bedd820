#!/usr/bin/env bash
# Draws report pages in a real browser (headless Chromium) and checks them:
# every chart's text laid out without two labels overlapping, and a screenshot
# of each page for a person to look at.
#
# Usage: scripts/check-report-screenshots.sh [--bin PATH] [OUT_DIR]
#
# The pages are made by `tresillo report` from committed results: a league
# (results/league: ranking, head-to-head, rating differences, compute), a
# tournament with pairs.csv and compute.csv (results/infer-vs-pimc-play), and a
# tuning run (results/tune-rule). OUT_DIR (default: a temporary directory)
# receives page-N.html, page-N.png and the check's report. Exits 0 when every
# page passes, 1 when a page has overlapping labels (each named), 2 on a usage
# error; skips (exit 0, one line saying so) when no Chromium is installed
# (Debian: apt-get install chromium).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/tresillo"
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) [ $# -ge 2 ] || { echo "error: --bin takes a path" >&2; exit 2; }; bin=$2; shift 2 ;;
        -*) echo "error: unknown option $1 (usage: $0 [--bin PATH] [OUT_DIR])" >&2; exit 2 ;;
        *) out=$1; shift ;;
    esac
done

browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "check-report-screenshots: skipped (no chromium; apt-get install chromium)"
    exit 0
fi
if [ ! -x "$bin" ]; then
    (cd "$root" && cargo build --release -q -p tresillo-cli)
fi
temp=""
if [ -z "$out" ]; then
    out=$(mktemp -d)
    temp=$out
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
profile=$(mktemp -d)
trap 'rm -rf "$profile" $temp' EXIT

# (No backslash in it: awk -v would read it as an escape.)
# The check runs in the page: every pair of <text> boxes within one chart
# that overlap by more than 2 pixels both ways is named in #overlap-check.
read -r -d '' check <<'JS' || true
<script>
window.addEventListener('load', function () {
  var bad = [];
  document.querySelectorAll('svg').forEach(function (svg, k) {
    var boxes = [];
    svg.querySelectorAll('text').forEach(function (t) {
      var s = t.textContent.trim();
      if (s) { boxes.push([s, t.getBoundingClientRect()]); }
    });
    for (var i = 0; i < boxes.length; i++) {
      for (var j = i + 1; j < boxes.length; j++) {
        var a = boxes[i][1], b = boxes[j][1];
        var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 2 && h > 2) { bad.push('chart ' + (k + 1) + ': "' + boxes[i][0] + '" overlaps "' + boxes[j][0] + '"'); }
      }
    }
  });
  var p = document.createElement('pre');
  p.id = 'overlap-check';
  p.textContent = bad.length ? bad.join(' | ') : 'no overlapping labels';
  document.body.appendChild(p);
});
</script>
JS

flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --no-first-run --user-data-dir="$profile" --hide-scrollbars)
pages=("results/league" "results/infer-vs-pimc-play" "results/tune-rule")
failed=0
for k in "${!pages[@]}"; do
    n=$((k + 1))
    dir="$root/${pages[$k]}"
    "$bin" report "$dir" --out "$out/page-$n.html" >/dev/null
    # A copy with the check before </body>.
    awk -v js="$check" '{ if ($0 ~ /<\/body>/) print js; print }' "$out/page-$n.html" > "$out/page-$n.check.html"
    "$browser" "${flags[@]}" --virtual-time-budget=5000 --dump-dom "file://$out/page-$n.check.html" \
        2>/dev/null > "$out/page-$n.dom.html"
    result=$(sed -n '/<pre id="overlap-check">/,/<\/pre>/p' "$out/page-$n.dom.html" | sed 's/<[^>]*>//g')
    if [ -z "$result" ]; then
        echo "page $n (${pages[$k]}): the browser did not run the check"
        failed=1
    elif [ "$result" != "no overlapping labels" ]; then
        echo "page $n (${pages[$k]}): overlapping labels:"
        echo "$result" | sed 's/ | /\n/g' | sed 's/^/  /'
        failed=1
    else
        echo "page $n (${pages[$k]}): no overlapping labels"
    fi
    "$browser" "${flags[@]}" --window-size=1400,9000 --screenshot="$out/page-$n.png" \
        "file://$out/page-$n.html" >/dev/null 2>&1 || true
done
if [ -n "$temp" ]; then echo "screenshots: give OUT_DIR to keep them"; else echo "screenshots in $out"; fi
exit $failed
