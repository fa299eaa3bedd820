#!/usr/bin/env bash
# A simulated pilot of a study, the whole path from the study file to the paired
# comparison of people and a bot (docs/STUDY.md, "Human baselines"): `tresillo
# study new` (3 participants, one in each seat, 30 deals each), `study simulate`
# (the study's simulated participants: `random` plays the human's seat, one
# decision at a time through the study, journaled as a person's would be),
# `study export --baseline rule` (the export, and every game played again by
# `rule` in the participant's seat on the same deal with the same opponents),
# then `scripts/paired.py EXPORT 0 --across EXPORT/baseline 0`. The committed
# output is examples/study-pilot/README.md; CI runs this and checks that the
# simulated participants (random) lose to the baseline (rule).
# Usage: scripts/study-pilot.sh [--bin target/release/tresillo] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/tresillo keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        *) echo "error: unknown argument $1 (usage: scripts/study-pilot.sh [--bin BIN] [--keep DIR])" >&2; exit 2 ;;
    esac
done
d=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$d"' EXIT
"$bin" study new "$d/study" --title pilot --opponents rule,rule --human-seats 0,1,2 --seed 7 \
    --deals 30 --per-participant 30 --participants 3 >/dev/null
"$bin" study simulate "$d/study" --agent random
"$bin" study export "$d/study" --out "$d/export" --baseline rule
out=$(python3 scripts/paired.py "$d/export" 0 --across "$d/export/baseline" 0)
echo "$out"
# The simulated participants play `random`: they lose to `rule` (the interval's
# upper end below 0).
upper=$(echo "$out" | sed -n 's/.*\[.*, *\(-*[0-9.]*\)\]$/\1/p')
python3 -c "import sys; sys.exit(0 if float('$upper') < 0 else 1)" ||
    { echo "error: the simulated participants (random) did not lose to the baseline (rule): $upper" >&2; exit 1; }
test "$(wc -l <"$d/export/deals.csv")" = "$(wc -l <"$d/export/baseline/deals.csv")"
