#!/usr/bin/env python3
"""What a Python model of the other players costs pimc (`tresillo.Agent(spec,
likelihood=f)`), measured side by side in one run: plain pimc, pimc weighting
its worlds by the Rust rule model (`infer=1`), and pimc weighting them by
Python models (one returning 0, one reading every seat's hand of the world, and
that one again called once per pool with `batched=True`).
Seat 0 is the agent, seats 1 and 2 rule; the same deals for every agent,
alternated over rounds. Prints milliseconds per hand, seat 0's decisions and the
model's calls (a batched model is called once per decision's pool). A weighted
pool is resampled with replacement, so its worlds repeat and the solver answers
repeats from its table: weighting can cost less than it adds.

Usage: scripts/bench-likelihood.py [--hands N] [--rounds R] [--spec SPEC]
(needs the package: pip install ./crates/tresillo-py)
"""
import argparse
import time

import tresillo


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--spec", default="pimc")
    a = ap.parse_args()
    calls = [0]

    def zero(view, world):
        calls[0] += 1
        return 0.0

    def reads(view, world):
        calls[0] += 1
        return -0.01 * sum(len(h) for h in world.hands)

    def batch(view, worlds):
        calls[0] += 1
        return [-0.01 * sum(len(h) for h in w.hands) for w in worlds]

    agents = [
        (a.spec, lambda: tresillo.Agent(a.spec)),
        (f"{a.spec}:infer=1 (Rust rule model)", lambda: tresillo.Agent(f"{a.spec}:infer=1")),
        (f"{a.spec} + Python model returning 0", lambda: tresillo.Agent(a.spec, likelihood=zero)),
        (f"{a.spec} + Python model reading world.hands", lambda: tresillo.Agent(a.spec, likelihood=reads)),
        (f"{a.spec} + the same, batched=True", lambda: tresillo.Agent(a.spec, likelihood=batch, batched=True)),
    ]
    total = {name: [0.0, 0, 0] for name, _ in agents}
    for _ in range(a.rounds):
        for name, make in agents:
            calls[0] = 0
            decisions = 0
            t0 = time.perf_counter()
            for seed in range(a.hands):
                seats = [make(), tresillo.Agent("rule"), tresillo.Agent("rule")]
                s = tresillo.Game().new_initial_state(seed=seed)
                while not s.is_terminal():
                    p = s.current_player()
                    decisions += p == 0
                    s.apply_action(seats[p].step(s))
            t = total[name]
            t[0] += time.perf_counter() - t0
            t[1] += calls[0]
            t[2] += decisions
    for name, (secs, n, decisions) in total.items():
        line = f"{name:48} {1000 * secs / (a.hands * a.rounds):7.2f} ms/hand, {decisions // a.rounds} decisions"
        if n:
            line += f", {n // a.rounds} model calls"
        print(line)


if __name__ == "__main__":
    main()
