#!/usr/bin/env bash
# Self-play improvement of the card-location model (issue 51, item 5): generation
# g's agent is pimc weighting its worlds by model g, bidding by the value network;
# its own play (every seat) is the data of model g+1; each new generation plays
# the previous one on duplicate deals and the paired difference is printed.
# Generation 0 is the model trained on rule's play (models/locations-rule).
#
# Usage: scripts/learn-loop.sh [--bin PATH] [--out DIR] [--gens N] [--deals N] [--eval-deals N] [--seed S]
# Defaults: target/release/tresillo, out/learn-loop, 2 generations, 3,000 deals of
# data each, 300 duplicate deals to compare (about 15 minutes a generation on 2
# cores). Seeds: data seed S + g, comparison seed S + 100 + g.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/tresillo out=out/learn-loop gens=2 deals=3000 eval=300 seed=700
while [ $# -gt 0 ]; do
    case $1 in
        --bin) bin=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --gens) gens=$2; shift 2 ;;
        --deals) deals=$2; shift 2 ;;
        --eval-deals) eval=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        *) echo "error: unknown argument $1 (see the header of $0)"; exit 2 ;;
    esac
done
mkdir -p "$out"
cp models/locations-rule.safetensors "$out/gen0.safetensors"
bid=models/value-bids-rule.safetensors
agent() { echo "pimc:worlds=16:loc=$out/gen$1.safetensors:loc_pow=40:infer_pool=32:bid=$bid"; }
for g in $(seq 1 "$gens"); do
    prev=$((g - 1))
    a=$(agent $prev)
    "$bin" train --kind locations --agents "$a,$a,$a" --deals "$deals" --seed $((seed + g)) \
        --out "$out/gen$g.safetensors" --force --quiet | sed "s/^/gen$g: /"
    "$bin" tournament --agents "$(agent $g),$(agent $prev),$(agent $prev)" --deals "$eval" \
        --seed $((seed + 100 + g)) --duplicate --out "$out/vs$g" --force >/dev/null
    echo "gen$g minus gen$prev, tantos per deal: $(python3 scripts/paired.py "$out/vs$g" 0 1 | sed -n 2p)"
done
