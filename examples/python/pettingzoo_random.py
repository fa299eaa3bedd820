"""A random policy over the PettingZoo environment: one hand per episode, the
legal actions from the action mask, the rewards at the end of each hand.

    python examples/python/pettingzoo_random.py [--episodes N] [--rules hombre]
"""

import argparse

from tresillo.pettingzoo import env


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--rules", default="tresillo")
    ap.add_argument("--players", type=int, default=3)
    args = ap.parse_args()
    e = env(rules=args.rules, players=args.players)
    totals = {a: 0.0 for a in e.possible_agents}
    for episode in range(args.episodes):
        e.reset(seed=episode)
        for agent in e.agent_iter():
            obs, reward, termination, truncation, _ = e.last()
            totals[agent] += reward
            action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
            e.step(action)
    for agent, total in totals.items():
        print(f"{agent}: {total / args.episodes:+.3f} per hand over {args.episodes} hands")


if __name__ == "__main__":
    main()
