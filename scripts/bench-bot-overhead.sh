#!/usr/bin/env bash
# The toolkit's overhead per request of an external bot (docs/PROTOCOL.md), side
# by side in one run: REPEATS times, the same one-thread duplicate tournament
# against `rule`, with the built-in `random` agent in seat slot 0 and with a
# trivial compiled bot there (crates/tresillo-bots/examples/first_legal_bot.rs:
# first legal action), in rotating order. The bot runs in two ways: `lean` reads
# only the type, id and legal ids of each request (its own time next to nothing),
# `tree` parses each whole request into a serde_json::Value first, as the bot of
# the earlier measurements did, and `awake` is the lean bot waiting for its next
# request awake for up to 50 µs before it sleeps in `read` (its `--awake`, as the
# toolkit waits for a fast bot's answer: docs/PROTOCOL.md). Each repeat gives, per request the bot answered
# (the toolkit's count, its `log` directory's `.time` file):
#   wall  (wall with the bot - wall with random) / requests: the issue's figure;
#   cpu   the same for the CPU time (user + system) of the toolkit and its bot;
#   bot   the bot's own CPU time (it reports it at exit, from /proc/self/stat);
#   kit   cpu - bot: the toolkit's own CPU time per request (its side of the
#         pipes, the request's encoding, the answer's reading and checking).
# CPU times have a resolution of 10 ms per run (about 0.5 µs per request here).
# The script prints every repeat, then the median and 90th percentile of each.
# With BASE="PATH ..." (other builds of the tresillo binary, e.g. older commits'),
# each build plays the lean bot too, in the same rotation (rows `base1`, ...).
# The goal (issue 35): under 20 µs per request (wall).
#
#   bash scripts/bench-bot-overhead.sh [REPEATS] [DEALS]
#
# Defaults: 15 repeats of 200 duplicate deals (1,200 hands; about 30 s of CPU in
# all on a 2-core guest, after the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-15}
deals=${2:-200}
cargo build --release -q -p tresillo-cli
cargo build --release -q -p tresillo-bots --example first_legal_bot
bin=$PWD/target/release/tresillo
bot=$PWD/target/release/examples/first_legal_bot
read -r -a bases <<<"${BASE:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One tournament with AGENT in slot 0 by build BIN: prints "wall cpu" in seconds.
run() {
    local bin=$1 agent=$2 start end
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$bin" tournament --agents "$agent,rule,rule" --deals "$deals" \
        --duplicate --seed 1 --threads 1 --out "$tmp/run" --force >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$(echo "$end - $start" | bc -l) $(awk '{ print $1 + $2 }' "$tmp/time")"
}

# The figures of one bot run against the random run: "wall cpu bot kit" in µs per request.
figures() {
    local r_wall=$1 r_cpu=$2 b_wall=$3 b_cpu=$4 log=$5 requests bot_ms
    requests=$(cat "$log"/*.time | awk '{ n += $1 } END { print n }')
    bot_ms=$(cat "$log"/*.log | awk '/^first-legal:/ { n += $(NF - 3) } END { print n + 0 }')
    awk -v rw="$r_wall" -v rc="$r_cpu" -v bw="$b_wall" -v bc="$b_cpu" -v n="$requests" -v bm="$bot_ms" 'BEGIN {
        cpu = (bc - rc) * 1e6 / n; own = bm * 1e3 / n
        printf "%.1f %.1f %.1f %.1f %d\n", (bw - rw) * 1e6 / n, cpu, own, cpu - own, n }'
}

ways=(lean awake tree)
for i in "${!bases[@]}"; do ways+=("base$((i + 1))"); done
echo "overhead per request: $repeats repeats of $deals duplicate deals ($((deals * 6)) hands), one thread"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$repeats"); do
    # The order rotates, so that a drifting load charges every way alike.
    order=(random "${ways[@]}")
    shift_by=$(( (r - 1) % ${#order[@]} ))
    order=("${order[@]:shift_by}" "${order[@]:0:shift_by}")
    declare -A wall=() cpu=()
    for way in "${order[@]}"; do
        rm -rf "$tmp/log-$way"
        case $way in
            random) read -r w c < <(run "$bin" random) ;;
            lean) read -r w c < <(run "$bin" "ext:cmd=$bot:log=$tmp/log-$way") ;;
            awake) read -r w c < <(run "$bin" "ext:cmd=$bot --awake:log=$tmp/log-$way") ;;
            tree) read -r w c < <(run "$bin" "ext:cmd=$bot --tree:log=$tmp/log-$way") ;;
            base*) read -r w c < <(run "${bases[${way#base} - 1]}" "ext:cmd=$bot:log=$tmp/log-$way") ;;
        esac
        wall[$way]=$w
        cpu[$way]=$c
    done
    for way in "${ways[@]}"; do
        read -r fw fc fb fk n < <(figures "${wall[random]}" "${cpu[random]}" "${wall[$way]}" "${cpu[$way]}" "$tmp/log-$way")
        echo "$way $fw $fc $fb $fk" >>"$tmp/all"
        printf 'repeat %2d %-5s: wall %.3f s (random %.3f s), %d requests: wall %5.1f, cpu %5.1f, bot %5.1f, kit %5.1f µs per request\n' \
            "$r" "$way" "${wall[$way]}" "${wall[random]}" "$n" "$fw" "$fc" "$fb" "$fk"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for way in "${ways[@]}"; do
    for col in 2 3 4 5; do
        awk -v w="$way" -v c="$col" '$1 == w { print $c }' "$tmp/all" | sort -g | awk -v w="$way" -v c="$col" '
            { v[NR] = $1 }
            END {
                split("- wall cpu bot kit", name, " ")
                m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                k = int(0.9 * NR + 0.999999); if (k < 1) k = 1; if (k > NR) k = NR
                printf "%-5s %-4s: median %5.1f µs per request, 90th percentile %5.1f µs (nearest rank, %d repeats)\n", w, name[c], m, v[k], NR
            }'
    done
done
