#!/usr/bin/env bash
# The toolkit's overhead per request of an external bot (docs/PROTOCOL.md), side
# by side in one run: REPEATS times, the same one-thread duplicate tournament
# against `rule`, once with the built-in `random` agent in seat slot 0 and once
# with a trivial compiled bot there (crates/tresillo-bots/examples/
# first_legal_bot.rs: first legal action, its own time next to nothing), in
# alternating order. Each repeat gives (wall with the bot - wall with random) /
# requests the bot answered (counted by the toolkit, its `log` directory's
# `.time` file); the script prints every repeat, then the median and the 90th
# percentile over the repeats. The goal (issue 35): under 20 µs per request.
#
#   bash scripts/bench-bot-overhead.sh [REPEATS] [DEALS]
#
# Defaults: 15 repeats of 200 duplicate deals (1,200 hands; about 15 s of CPU in
# all on a 2-core guest, after the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-15}
deals=${2:-200}
cargo build --release -q -p tresillo-cli
cargo build --release -q -p tresillo-bots --example first_legal_bot
bin=$PWD/target/release/tresillo
bot=$PWD/target/release/examples/first_legal_bot
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Wall seconds of one tournament with AGENT in slot 0.
run() {
    local start end
    start=$(date +%s.%N)
    "$bin" tournament --agents "$1,rule,rule" --deals "$deals" --duplicate --seed 1 --threads 1 --quiet \
        --out "$tmp/run" --force >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

echo "overhead per request: $repeats repeats of $deals duplicate deals ($((deals * 6)) hands), one thread"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
results=()
for r in $(seq 1 "$repeats"); do
    rm -rf "$tmp/log"
    if (( r % 2 )); then
        t_random=$(run random)
        t_bot=$(run "ext:cmd=$bot:log=$tmp/log")
    else
        t_bot=$(run "ext:cmd=$bot:log=$tmp/log")
        t_random=$(run random)
    fi
    requests=$(cat "$tmp"/log/*.time | awk '{ n += $1 } END { print n }')
    us=$(echo "($t_bot - $t_random) * 1000000 / $requests" | bc -l)
    results+=("$us")
    printf 'repeat %2d: random %.3f s, bot %.3f s, %d requests: %.1f µs per request\n' \
        "$r" "$t_random" "$t_bot" "$requests" "$us"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s\n' "${results[@]}" | sort -g | awk '
    { v[NR] = $1 }
    END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        k = int(0.9 * NR + 0.999999); if (k < 1) k = 1; if (k > NR) k = NR
        printf "median %.1f µs per request, 90th percentile %.1f µs (nearest rank, %d repeats)\n", m, v[k], NR
    }'
