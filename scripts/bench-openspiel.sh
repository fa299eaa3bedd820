#!/usr/bin/env bash
# ISMCTS iterations per second, OpenSpiel's C++ ISMCTSBot against ours, in one run.
#
# OpenSpiel (open-spiel 2.0.2 from PyPI, installed into a virtualenv under
# target/): pyspiel.ISMCTSBot with random rollouts (one per simulation), exploration
# 0.7, 10,000 simulations, max-visit final choice, one thread, at the first card of
# `oh_hell` with 4 suits of 10 cards, 3 players and 9 tricks (40 cards, 27 in play:
# the closest game it has to Tresillo). Ours: `tresillo bench ismcts` with 10,000
# iterations at the first card of Tresillo hands.
#
# The host is shared and its speed varies from minute to minute, so the two are
# measured alternately, ROUNDS times (default 3), and each side's best round is
# compared. The last line is "openspiel X it/s, tresillo Y it/s, ratio Zx".
#
# Usage: scripts/bench-openspiel.sh   (from anywhere in the repository)
set -euo pipefail

cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
ROUNDS="${ROUNDS:-3}"
VENV="${OPENSPIEL_VENV:-target/openspiel-venv}"   # any venv with open-spiel will do (CI passes its own)
TARGET_DIR="${CARGO_TARGET_DIR:-target}"

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import pyspiel' 2>/dev/null; then
    echo "installing open-spiel 2.0.2 into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet open-spiel==2.0.2
fi
cargo build --quiet --release -p tresillo-cli
TRESILLO="$TARGET_DIR/release/tresillo"

openspiel_rate() {
    "$VENV/bin/python" - <<'EOF'
import random, time
import pyspiel

game = pyspiel.load_game(
    "oh_hell", {"num_suits": 4, "num_cards_per_suit": 10, "players": 3, "num_tricks_fixed": 9}
)
SIMS = 10_000
total_sims, total_time = 0, 0.0
for seed in range(3):
    rng = random.Random(seed)
    state = game.new_initial_state()
    # Deal and trump at random, then bid (the first legal bid) until play begins.
    while state.is_chance_node() or "Phase: Play" not in str(state):
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(state.legal_actions()[0])
    bot = pyspiel.ISMCTSBot(
        seed,
        pyspiel.RandomRolloutEvaluator(1, seed),
        0.7,
        SIMS,
        -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,
        False,
    )
    t = time.perf_counter()
    bot.step(state)
    total_time += time.perf_counter() - t
    total_sims += SIMS
print(f"{total_sims / total_time:.0f}")
EOF
}

tresillo_rate() {
    "$TRESILLO" bench ismcts --iters 10000 --n 300000 | sed -n 's/^10000 iterations: \([0-9]*\) it\/s.*/\1/p'
}

best_os=0
best_us=0
for r in $(seq 1 "$ROUNDS"); do
    os=$(openspiel_rate)
    us=$(tresillo_rate)
    echo "round $r: openspiel $os it/s, tresillo $us it/s"
    [ "$os" -gt "$best_os" ] && best_os=$os
    [ "$us" -gt "$best_us" ] && best_us=$us
done
ratio=$(python3 -c "print(f'{$best_us / $best_os:.1f}')")
echo "openspiel ISMCTSBot (oh_hell 40 cards, 3 players, 9 tricks) at 10,000 simulations vs tresillo ismcts at 10,000 iterations, one thread, best of $ROUNDS rounds:"
echo "openspiel $best_os it/s, tresillo $best_us it/s, ratio ${ratio}x"
