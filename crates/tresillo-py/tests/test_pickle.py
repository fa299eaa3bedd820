"""Pickling and deep copies (issue 56, defect 4): `tresillo.Game`, `tresillo.Agent`
(its spec and seed), states (the game and the history) and the OpenSpiel game
and states survive `pickle` and `copy.deepcopy`, and a spawn Pool sends them to
its workers."""

import copy
import importlib
import multiprocessing
import pickle

import tresillo
from conftest import need


def _play(args):
    """A worker: plays `state` out with `agent`; the returns and the game's repr."""
    game, agent, state = args
    while not state.is_terminal():
        state.apply_action(agent.step(state))
    return repr(game), agent.spec, agent.seed, state.returns()


def _play_openspiel(args):
    game, state = args
    fresh = game.new_initial_state()  # raised AttributeError "no attribute 'inner'"
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    return str(game), fresh.current_player(), state.returns()


def test_game_agent_and_state_pickle_and_deepcopy():
    game = tresillo.Game("hombre", options={"contrabola": True, "gascarille": True})
    agent = tresillo.Agent("pimc:worlds=4", seed=11)
    state = game.new_initial_state(seed=5)
    for _ in range(3):
        state.apply_action(agent.step(state))
    for copied in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert repr(copied) == repr(game)
        assert copied.new_initial_state(seed=5).deal() == game.new_initial_state(seed=5).deal()
    for copied in (pickle.loads(pickle.dumps(agent)), copy.deepcopy(agent)):
        assert (copied.spec, copied.seed) == (agent.spec, agent.seed)
    # Equal agents (spec and seed) decide alike.
    a, b = tresillo.Agent("random", seed=3), pickle.loads(pickle.dumps(tresillo.Agent("random", seed=3)))
    s = game.new_initial_state(seed=9)
    assert [a.step(s) for _ in range(5)] == [b.step(s) for _ in range(5)]
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert copied.history() == state.history() and str(copied) == str(state)


def test_a_spawn_pool_plays_pickled_games_agents_and_states():
    game = tresillo.Game("tresillo", players=4)
    agent = tresillo.Agent("rule", seed=2)
    states = [game.new_initial_state(seed=s) for s in range(4)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.map(_play, [(game, agent, s) for s in states])
    for (g, spec, seed, returns), s in zip(results, states):
        assert (g, spec, seed) == (repr(game), "rule", 2)
        local = s.clone()
        _play((game, tresillo.Agent("rule", seed=2), local))
        assert returns == local.returns()

    need("pyspiel")
    import pyspiel
    importlib.import_module("tresillo.openspiel")  # registers the game

    osgame = pyspiel.load_game("python_tresillo", {"rules": "lhombre"})
    for copied in (pickle.loads(pickle.dumps(osgame)), copy.deepcopy(osgame)):
        assert str(copied) == str(osgame)
        assert copied.new_initial_state().is_chance_node()
    osstate = osgame.new_initial_state()
    for _ in range(42):
        osstate.apply_action(osstate.legal_actions()[0])
    for copied in (pickle.loads(pickle.dumps(osstate)), copy.deepcopy(osstate)):
        assert copied.history() == osstate.history()
    with ctx.Pool(1) as pool:
        (name, player, returns), = pool.map(_play_openspiel, [(osgame, osstate)])
    assert name == str(osgame) and player == pyspiel.PlayerId.CHANCE and len(returns) == 3
