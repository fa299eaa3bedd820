#!/usr/bin/env python3
"""REINFORCE with NumPy alone: a linear softmax policy over the 416-value
observation, trained against two `rule` opponents through `tresillo.VectorEnv`
(many hands stepped together from Rust), then measured against random play and
against `rule` itself in the learner's seat on the same deals.

    python examples/python/reinforce_vector.py [--envs 256] [--iters 200] [--eval-hands 2000]

Each iteration steps every environment `--horizon` times, gives each decision
the return of its hand (decisions of a hand not finished in the window wait for
the next one), and takes one gradient step on the normalized advantage. Prints
the learner's mean return per hand (tantos) every few iterations, then the
evaluation. A linear policy learns to bid and play better than random, not to
beat `rule`: docs/PYTHON.md has the figures.
"""

import argparse
import os
import time

# One BLAS thread: the policy's products are small, and BLAS's own threads made
# the loop six times slower on a busy 2-core machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import tresillo  # noqa: E402


def policy(W, obs, mask):
    """Action probabilities of the linear softmax policy, legal actions only."""
    logits = obs @ W
    logits[~mask] = -np.inf
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def sample(p, rng):
    """One action per row of `p`."""
    u = rng.random((p.shape[0], 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def evaluate(act, hands, seed, envs=64):
    """The learner's mean return over `hands` hands, `act(obs, mask, env)`
    choosing its actions; the same deals for every policy with the same seed."""
    env = tresillo.VectorEnv(envs, opponents="rule", seed=seed)
    obs, mask = env.reset(seed=seed)
    total, done = 0.0, 0
    counted = np.zeros(envs, int)
    per_env = -(-hands // envs)
    while done < hands:
        obs, rew, term, _, mask = env.step(act(obs, mask, env))
        for i in np.flatnonzero(term):
            if counted[i] < per_env:
                counted[i] += 1
                total += float(rew[i])
                done += 1
    return total / done


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--horizon", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--eval-hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    W = np.zeros((tresillo.OBSERVATION_SIZE, tresillo.NUM_ACTIONS))
    env = tresillo.VectorEnv(a.envs, opponents="rule", seed=a.seed)
    obs, mask = env.reset(seed=a.seed)
    t0, decisions = time.perf_counter(), 0
    # Every environment decides at every step: step s, environment i is one
    # decision. Steps are kept until each of their decisions has its hand's
    # return (`open_`: the decisions still waiting for it).
    steps = []  # (obs, probs, actions, rewards, terminated)
    open_ = np.zeros((0, a.envs), bool)
    recent = []
    for it in range(a.iters):
        for _ in range(a.horizon):
            p = policy(W, obs, mask)
            act = sample(p, rng)
            nobs, rew, term, _, mask = env.step(act)
            steps.append((obs, p, act, rew, term))
            obs = nobs
            decisions += a.envs
            recent.extend(rew[term].tolist())
        open_ = np.concatenate([open_, np.ones((a.horizon, a.envs), bool)])
        # Each decision's return: that of the first end of hand at or after it.
        G = np.full((len(steps), a.envs), np.nan)
        nxt = np.full(a.envs, np.nan)
        for k in range(len(steps) - 1, -1, -1):
            nxt = np.where(steps[k][4], steps[k][3], nxt)
            G[k] = nxt
        use = open_ & ~np.isnan(G)
        X = np.stack([st[0] for st in steps])[use]
        P = np.stack([st[1] for st in steps])[use]
        A = np.stack([st[2] for st in steps])[use]
        g = G[use]
        adv = (g - g.mean()) / (g.std() + 1e-6)
        onehot = np.zeros_like(P)
        onehot[np.arange(len(A)), A] = 1.0
        W += a.lr * X.T @ ((onehot - P) * adv[:, None]) / max(len(A), 1)
        open_ &= np.isnan(G)
        first = int(np.argmax(open_.any(axis=1))) if open_.any() else len(steps)
        steps, open_ = steps[first:], open_[first:]
        if (it + 1) % max(1, a.iters // 10) == 0:
            print(f"iteration {it + 1}: {len(recent)} hands, mean return {np.mean(recent):+.2f}, "
                  f"{decisions / (time.perf_counter() - t0):,.0f} decisions/s")
            recent = []

    greedy_rng = np.random.default_rng(0)
    rule = tresillo.Agent("rule")

    def learned(obs, mask, env):
        return policy(W, obs, mask).argmax(axis=1)

    def uniform(obs, mask, env):
        s = greedy_rng.random(mask.shape)
        s[~mask] = -1
        return s.argmax(axis=1)

    def lowest(obs, mask, env):
        return mask.argmax(axis=1)  # the lowest legal id: passes every bid

    def rule_in_seat(obs, mask, env):
        return np.array([rule.step(env.state(i)) for i in range(env.num_envs)])

    seed = a.seed + 10**6  # deals not trained on
    policies = (("random", uniform), ("the lowest legal id", lowest), ("the trained policy (greedy)", learned),
                ("rule", rule_in_seat))
    for name, act in policies:
        print(f"{name} against two rule: {evaluate(act, a.eval_hands, seed):+.2f} tantos a hand "
              f"({a.eval_hands} hands)")


if __name__ == "__main__":
    main()
