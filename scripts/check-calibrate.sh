#!/bin/sh
# Checks that `tresillo calibrate` matches compute over whole games: calibrates
# pimc and ismcts together to the same CPU milliseconds per decision (card play alone,
# the rule agent bidding), plays them against each other in a 40-deal duplicate
# tournament on one thread, and fails unless each spends within 20% of the
# other's CPU time per decision of its own (compute.csv's cpu_s over its card and
# other decisions: with --bidding rule, surrender, take-over and bola are still the
# agent's, and calibrate counts them too).
#
# A timing property, so a script and not a unit test: run it on a quiet machine.
# Usage: scripts/check-calibrate.sh [MS] [BIN]   (default 2 ms, target/release/tresillo)
set -eu
MS=${1:-2}
BIN=${2:-target/release/tresillo}
if [ ! -x "$BIN" ]; then
    cargo build --release -q -p tresillo-cli
fi
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# Both specs in one calibration: their deals are interleaved, so a machine whose
# load drifts charges them alike.
# They are calibrated on the tournament's own deals (its seed, its 40 deals at every
# seating), as an experiment should be: pimc's CPU time per decision differs from
# deal to deal by about 60% of its mean (sd of the per-deal means), so two samples
# of 40 deals differ by about ±19% (95%) in pimc's cost alone, which no calibration
# on other deals could bring within 20%.
SPECS=$("$BIN" calibrate --spec pimc --spec ismcts --ms "$MS" --bidding rule --seed 5 --n 40 --max-deals 40 |
    tee "$DIR/calibrate.txt" | tail -n 1)
grep '^calibrated:' "$DIR/calibrate.txt"
P=${SPECS%%,*}
I=${SPECS#*,}
"$BIN" tournament --agents "$SPECS,rule" --bidding rule --deals 40 --duplicate --seed 5 --threads 1 \
    --out "$DIR/run" > /dev/null
python3 - "$DIR/run/compute.csv" "$P" "$I" <<'PY'
import csv, sys
rows = {r["slot"]: r for r in csv.DictReader(open(sys.argv[1]))}
ms = {}
for slot, spec in (("0", sys.argv[2]), ("1", sys.argv[3])):
    r = rows[slot]
    n = int(r["card"]) + int(r["other"])
    ms[slot] = 1000 * float(r["cpu_s"]) / n
    print(f"tournament: {spec}: {ms[slot]:.3f} CPU ms per decision ({n} decisions, {r['cpu_s']} CPU s)")
ratio = max(ms.values()) / min(ms.values())
print(f"ratio {ratio:.3f} (at most 1.20 to pass)")
sys.exit(0 if ratio <= 1.2 else 1)
PY
