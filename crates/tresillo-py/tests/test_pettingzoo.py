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


@pytest.mark.parametrize("rules,players,options", TABLES[:4])
def test_pettingzoo_render_test(rules, players, options, capsys):
    need("pettingzoo")
    from pettingzoo.test import render_test
    from tresillo.pettingzoo import env

    render_test(lambda render_mode=None: env(rules=rules, players=players, options=options, render_mode=render_mode))
    assert "deal" in capsys.readouterr().out  # the human mode printed the hand


def test_pettingzoo_state_is_every_seats_observation():
    need("pettingzoo")
    import numpy as np
    import tresillo
    from tresillo.pettingzoo import env

    e = env(rules="tresillo", players=4)
    e.reset(seed=2)
    s = e.state()
    assert s.shape == e.unwrapped.state_space.shape == (4 * tresillo.OBSERVATION_SIZE,)
    assert e.unwrapped.state_space.contains(s)
    first = np.asarray(e.unwrapped.hand.observation_tensor(0), np.float32)
    assert np.array_equal(s[: tresillo.OBSERVATION_SIZE], first)


def test_an_unknown_render_mode_is_refused():
    need("pettingzoo")
    from tresillo.pettingzoo import env

    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")
