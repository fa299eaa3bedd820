"""The PettingZoo AEC environment passes PettingZoo's own API test."""

import pytest
from conftest import TABLES, need


@pytest.mark.parametrize("rules,players,options", TABLES)
def test_pettingzoo_api_test(rules, players, options):
    need("pettingzoo")
    from pettingzoo.test import api_test
    from tresillo.pettingzoo import env

    api_test(env(rules=rules, players=players, options=options), num_cycles=300, verbose_progress=False)


def test_a_random_policy_episode_pays_every_seat():
    need("pettingzoo")
    from tresillo.pettingzoo import env

    e = env(rules="hombre", players=3)
    e.reset(seed=4)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            action = None
        else:
            assert obs["action_mask"].sum() > 0
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
    assert any(v != 0 for v in total.values())
