#!/usr/bin/env python3
"""Learner decisions per second of `tresillo.VectorEnv` (issue 56's goal: at
least 200,000 on a 2-core machine), the learner choosing uniformly among its
legal actions with NumPy, built-in agents at the other seats; beside it, the
PettingZoo loop (one hand at a time, every seat random) for comparison.

    python scripts/bench-vector.py [--envs N] [--steps S] [--opponents rule random] [--threads T]

Prints one line per opponent: decisions (learner steps) per second, hands per
second and the mean return of the learner; then the PettingZoo loop's decisions
per second (every seat's decisions counted) unless --no-pettingzoo.
"""

import argparse
import time

import numpy as np
import tresillo


def random_actions(mask, rng):
    """A uniformly random legal action per row of `mask`."""
    scores = rng.random(mask.shape, dtype=np.float32)
    scores[~mask] = -1.0
    return scores.argmax(axis=1)


def bench(envs, steps, opponents, threads, seed):
    env = tresillo.VectorEnv(envs, opponents=opponents, seed=seed, threads=threads)
    rng = np.random.default_rng(seed)
    obs, mask = env.reset(seed=seed)
    hands, total = 0, 0.0
    for _ in range(10):  # warm up
        obs, rew, term, trunc, mask = env.step(random_actions(mask, rng), copy=False)
    t0 = time.perf_counter()
    for _ in range(steps):
        obs, rew, term, trunc, mask = env.step(random_actions(mask, rng), copy=False)
        hands += int(term.sum())
        total += float(rew.sum())
    secs = time.perf_counter() - t0
    return envs * steps / secs, hands / secs, total / max(hands, 1)


def pettingzoo_loop(seconds, seed):
    from tresillo.pettingzoo import env as pz_env

    e = pz_env()
    rng = np.random.default_rng(seed)
    decisions, t0 = 0, time.perf_counter()
    e.reset(seed=seed)
    while time.perf_counter() - t0 < seconds:
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                a = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                a = int(legal[rng.integers(len(legal))])
                decisions += 1
            e.step(a)
        e.reset()
    return decisions / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--opponents", nargs="+", default=["rule", "random"])
    ap.add_argument("--threads", type=int, default=None, help="1: step in this thread; default rayon's pool")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-pettingzoo", action="store_true")
    a = ap.parse_args()
    for opp in a.opponents:
        dps, hps, mean = bench(a.envs, a.steps, opp, a.threads, a.seed)
        print(f"VectorEnv({a.envs}) vs {opp}: {dps:,.0f} decisions/s, {hps:,.0f} hands/s, "
              f"learner's mean return {mean:+.2f}")
    if not a.no_pettingzoo:
        print(f"PettingZoo loop: {pettingzoo_loop(3.0, a.seed):,.0f} decisions/s (every seat)")


if __name__ == "__main__":
    main()
