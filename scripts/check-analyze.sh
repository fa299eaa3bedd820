#!/usr/bin/env bash
# CI step: scripts/analyze.py must recompute summary.csv from deals.csv, field for
# field, for a small tournament scored by the deal and one scored by sessions.
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
for run in "$out/deal" "$out/session"; do
    "$venv/bin/python" scripts/analyze.py "$run" --check
done
