#!/usr/bin/env bash
# A simulated pilot of a study of two conditions, the whole path from the study
# file to the paired comparison of people and a bot per condition (docs/STUDY.md,
# "Human baselines"): the study file examples/study-pilot/study.toml (conditions
# `rule` and `mixed` assigned by permuted blocks, a practice deal, questions),
# six participants added with `study add-participant` (each one's condition
# written by the assignment), `study simulate` (the study's simulated
# participants: `random` plays the human's seat, one decision at a time through
# the study, journaled as a person's would be; it answers no question), `study
# export --baseline rule` (the export, per condition too, and every game played
# again by `rule` in the participant's seat on the same deal with the same
# opponents), then `scripts/paired.py` per condition. The committed output is
# examples/study-pilot/README.md; CI runs this and checks that the simulated
# participants (random) lose to the baseline (rule) in each condition.
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
mkdir -p "$d/study"
cp examples/study-pilot/study.toml "$d/study/study.toml"
for i in 1 2 3 4 5 6; do
    "$bin" study add-participant "$d/study" --id "p$i" >/dev/null
done
echo "assigned: $(sed -n 's/^condition = "\(.*\)"/\1/p' "$d/study/study.toml" | tr '\n' ' ')"
"$bin" study simulate "$d/study" --agent random
"$bin" study export "$d/study" --out "$d/export" --baseline rule
test "$(wc -l <"$d/export/deals.csv")" = "$(wc -l <"$d/export/baseline/deals.csv")"
for c in rule mixed; do
    echo "condition $c:"
    out=$(python3 scripts/paired.py "$d/export/conditions/$c" 0 --across "$d/export/conditions/$c/baseline" 0)
    echo "$out"
    # The simulated participants play `random`: they lose to `rule` (the
    # interval's upper end below 0).
    upper=$(echo "$out" | sed -n 's/.*\[.*, *\(-*[0-9.]*\)\]$/\1/p')
    python3 -c "import sys; sys.exit(0 if float('$upper') < 0 else 1)" ||
        { echo "error: condition $c: the simulated participants (random) did not lose to the baseline (rule): $upper" >&2; exit 1; }
    test "$(wc -l <"$d/export/conditions/$c/deals.csv")" = 91
done
