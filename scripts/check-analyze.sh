#!/usr/bin/env bash
# CI step: scripts/analyze.py must recompute summary.csv from deals.csv, field for
# field, for small tournaments: scored by the deal and by sessions, four players
# (penetro, drop-outs; and penetro_all_play in sessions), hombre with contrabola and
# gascarille, lhombre, and a deals.csv cut back to the columns of older versions
# (no players, seat-3, penetro, gascarille columns).
# Makes a virtual environment under the cargo target directory and installs
# scripts/requirements.txt into it. Skipped (exit 0, with a message) where python3
# or its venv module is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v python3 >/dev/null 2>&1; then
    echo "check-analyze: skipped: python3 not found"
    exit 0
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "check-analyze: skipped: python3 has no venv module (Debian: apt-get install python3-venv)"
    exit 0
fi

target=${CARGO_TARGET_DIR:-target}
venv="$target/analyze-venv"
out="$target/analyze-check"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r scripts/requirements.txt

tresillo() { cargo run --release -q -p tresillo-cli -- "$@"; }
tresillo tournament --agents rule,rule:takeover=40,random --deals 2000 --duplicate \
    --out "$out/deal" --force >/dev/null
tresillo tournament --agents random,rule,rule --deals 600 --duplicate --scoring session:4 \
    --out "$out/session" --force >/dev/null
tresillo tournament --players 4 --agents rule,random,rule,random --deals 300 --duplicate \
    --out "$out/four" --force >/dev/null
tresillo tournament --players 4 --rule-option penetro_all_play=true --agents rule,rule,random,random \
    --deals 100 --duplicate --scoring session:4 --out "$out/four-session" --force >/dev/null
tresillo tournament --rules hombre --rule-option contrabola=true --rule-option gascarille=true \
    --agents rule,random,random --deals 500 --duplicate --out "$out/hombre" --force >/dev/null
tresillo tournament --rules lhombre --agents rule,random,rule --deals 500 --duplicate \
    --out "$out/lhombre" --force >/dev/null
# An older deals.csv: the columns from `players` on did not exist.
rm -rf "$out/old" && cp -r "$out/deal" "$out/old"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "players") cut = i - 1 }
    { NF = cut; print }' "$out/deal/deals.csv" >"$out/old/deals.csv"
for run in "$out/deal" "$out/session" "$out/four" "$out/four-session" "$out/hombre" "$out/lhombre" "$out/old"; do
    "$venv/bin/python" scripts/analyze.py "$run" --check
done
