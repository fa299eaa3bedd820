"""OpenSpiel's own ISMCTS bot (Python, on the game registered by
tresillo.openspiel) against the toolkit's pimc agent: whole hands, the bot in
each seat in turn, results in tantos.

    python examples/python/openspiel_ismcts_vs_pimc.py [--hands N] [--simulations S]
"""

import argparse

import numpy as np
import pyspiel
import tresillo
import tresillo.openspiel  # noqa: F401 - registers python_tresillo
from open_spiel.python.algorithms import ismcts, mcts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=16)
    args = ap.parse_args()
    game = pyspiel.load_game("python_tresillo", {"rules": "tresillo"})
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.simulations, random_state=rng)
    pimc = tresillo.Agent(f"pimc:worlds={args.worlds}", seed=1)
    total = 0.0
    for hand in range(args.hands):
        seat = hand % 3
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(pimc.step(state.inner))
        result = state.returns()[seat]
        total += result
        print(f"hand {hand + 1}: ISMCTS in seat {seat}: {result:+.0f} tantos")
    print(f"ISMCTS: {total / args.hands:+.2f} tantos per hand against two pimc ({args.hands} hands; not a strength claim)")


if __name__ == "__main__":
    main()
