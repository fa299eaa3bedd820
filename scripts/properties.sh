#!/usr/bin/env bash
# Reproduces results/properties/ (docs/PROPERTIES.md): Long et al.'s game-tree
# properties and PIMC's error against the oracle, for tresillo, hombre and lhombre
# at three players and tresillo at four, each on 2,000 deals of seed 2431 played
# by `rule` agents (PIMC with 32 worlds per decision, 64 random playouts per
# deal). Writes NAME.csv (every number) and NAME.txt (the printed table) per rule
# set; the files depend only on the code and these arguments, not on the thread
# count. About 10 CPU-minutes on the shared 2-core machine.
#
#   bash scripts/properties.sh [DEALS]
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-2000}
bin=${TRESILLO:-target/release/tresillo}
[ -x "$bin" ] || cargo build --release -q -p tresillo-cli
out=results/properties
mkdir -p "$out"
run() {
    local name=$1
    shift
    "$bin" properties "$@" --deals "$deals" --seed 2431 --worlds 32 --playouts 64 \
        --out "$out/$name.csv" >"$out/$name.txt"
}
run tresillo --rules tresillo
run hombre --rules hombre
run lhombre --rules lhombre
run four --rules tresillo --players 4
