#!/usr/bin/env bash
# The cost of an external bot's decision (docs/PROTOCOL.md), side by side in one
# run: a trivial compiled bot (crates/tresillo-bots/examples/first_legal_bot.rs,
# its own time next to nothing) and the Python example bot, each through
# `tresillo bot-check` (the round trip per decision, median and p90, beside the
# bot's own wait for the answer) and through a one-thread duplicate
# tournament against `rule` (hands per second), beside the same tournament with
# the built-in `random` agent in the bot's seat.
#
#   bash scripts/bench-bots.sh [HANDS]
set -euo pipefail
cd "$(dirname "$0")/.."
hands=${1:-1000}
cargo build --release -q -p tresillo-cli
cargo build --release -q -p tresillo-bots --example first_legal_bot
bin=target/release/tresillo
rust_bot=$PWD/target/release/examples/first_legal_bot
py_bot=$PWD/bots/random_bot.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for bot in "$rust_bot" "$py_bot"; do
    echo "== bot-check $(basename "$bot") --hands $hands"
    "$bin" bot-check "$bot" --hands "$hands" | head -4
done
deals=$((hands / 6))
for agent in random "ext:cmd=$rust_bot" "ext:cmd=$py_bot"; do
    start=$(date +%s.%N)
    "$bin" tournament --agents "$agent,rule,rule" --deals "$deals" --duplicate --threads 1 --out "$tmp/run" --force >/dev/null
    end=$(date +%s.%N)
    echo "tournament ${agent##*/},rule,rule: $deals duplicate deals ($((deals * 6)) hands) in $(echo "$end - $start" | bc) s"
done
