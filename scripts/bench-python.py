#!/usr/bin/env python3
"""Random hands per second driven from Python, side by side in one run with
OpenSpiel's C++ oh_hell (3 players, 9 tricks) driven the same way through
pyspiel: one legal_actions() and one apply_action() per decision, chance
included, a choice by Python's random module.

    python scripts/bench-python.py [--hands N] [--rounds R]

Needs the package (pip install ./crates/tresillo-py) and open_spiel. Prints one
line per system and round (the rounds alternate, so a change in the machine's
speed falls on both), then the medians, and the per-call cost of apply_action.
"""

import argparse
import random
import statistics
import time


def run(new_state, hands, rng):
    """Plays `hands` random hands; returns (seconds, decisions)."""
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        s = new_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return time.perf_counter() - start, decisions


def apply_cost(new_state, n, rng):
    """Mean seconds of one apply_action alone (legal actions computed first)."""
    total = 0.0
    calls = 0
    while calls < n:
        s = new_state()
        while not s.is_terminal() and calls < n:
            legal = s.legal_actions()
            a = legal[rng.randrange(len(legal))]
            t = time.perf_counter()
            s.apply_action(a)
            total += time.perf_counter() - t
            calls += 1
    return total / calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    import pyspiel
    import tresillo

    systems = {
        "tresillo (3 players, chance deal)": tresillo.Game(rules="tresillo", players=3).new_initial_state,
        "tresillo lhombre (chance deal)": tresillo.Game(rules="lhombre", players=3).new_initial_state,
        "open_spiel oh_hell C++ (3 players, 9 tricks)": pyspiel.load_game(
            "oh_hell", {"players": 3, "num_tricks_fixed": 9}
        ).new_initial_state,
    }
    results = {k: [] for k in systems}
    per_decision = {}
    for r in range(args.rounds):
        for name, new in systems.items():
            secs, decisions = run(new, args.hands, random.Random(r))
            results[name].append(args.hands / secs)
            per_decision[name] = decisions / args.hands
            print(f"round {r + 1} {name}: {args.hands / secs:,.0f} hands/s ({decisions / secs:,.0f} decisions/s)")
    print()
    for name, v in results.items():
        print(f"median {name}: {statistics.median(v):,.0f} hands/s; {per_decision[name]:.1f} actions per hand")
    for name, new in systems.items():
        print(f"apply_action {name}: {apply_cost(new, 200_000, random.Random(9)) * 1e9:,.0f} ns per call")
    # A tournament with one Python random agent against two `rule`, beside the
    # same tournament with the built-in `random` agent.
    import tempfile

    rng = random.Random(5)

    def py_random(view):
        legal = view.legal_actions()
        return legal[rng.randrange(len(legal))]

    deals = max(args.hands, 100)
    for label, agent in (("built-in random", "random"), ("Python random", py_random)):
        with tempfile.TemporaryDirectory() as d:
            start = time.perf_counter()
            tresillo.tournament(["rule", "rule", agent], deals=deals, out=d + "/run", threads=2)
            secs = time.perf_counter() - start
        print(f"tournament rule,rule,{label}: {deals / secs:,.0f} hands/s ({deals} deals, 2 threads)")


if __name__ == "__main__":
    main()
