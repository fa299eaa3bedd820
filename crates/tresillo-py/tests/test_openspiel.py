"""The game registered with OpenSpiel: its own random simulation test, and its
ISMCTS bot playing whole hands against our pimc."""

import numpy as np
import pytest
from conftest import TABLES, need


def params(rules, players, options):
    opts = ",".join(f"{k}={str(v).lower()}" for k, v in options.items())
    return {"rules": rules, "players": players, "options": opts}


@pytest.mark.parametrize("rules,players,options", TABLES)
def test_openspiel_random_sim_test(rules, players, options):
    pyspiel = need("pyspiel")
    import tresillo.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_tresillo", params(rules, players, options))
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


def test_openspiel_ismcts_plays_whole_hands_against_pimc():
    pyspiel = need("pyspiel")
    ismcts = need("open_spiel.python.algorithms.ismcts")
    mcts = need("open_spiel.python.algorithms.mcts")
    import tresillo
    import tresillo.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tresillo", {"rules": "tresillo"})
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=20,
        random_state=rng,
    )
    pimc = tresillo.Agent("pimc:worlds=4", seed=1)
    for hand in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == hand % 3:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(pimc.step(state.inner))
        assert len(state.returns()) == 3


def test_openspiel_observer_is_the_package_tensor():
    pyspiel = need("pyspiel")
    import tresillo
    import tresillo.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tresillo", {"rules": "lhombre"})
    state = game.new_initial_state()
    for a in range(40):
        state.apply_action(state.legal_actions()[0])
    assert np.allclose(state.observation_tensor(1), state.inner.observation_tensor(1))
    assert state.information_state_string(1) == state.inner.information_state_string(1)
    assert len(state.observation_tensor(0)) == tresillo.OBSERVATION_SIZE


def test_the_information_state_string_is_compact_and_keeps_what_the_seat_knows():
    pyspiel = need("pyspiel")
    import tresillo.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tresillo", {"rules": "tresillo"})
    state = game.new_initial_state()
    rng = np.random.RandomState(7)
    longest = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
            continue
        for p in range(3):
            s = state.information_state_string(p)
            longest = max(longest, len(s))
            assert s.startswith(f"p{p} |") and "\n" not in s
            # A state the seat cannot tell apart gives it the same string.
            other = state.inner.resample_from_infostate(p, seed=int(rng.randint(1 << 30)))
            assert other.information_state_string(p) == state.inner.information_state_string(p)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert longest < 700, longest
    # Another seat's discarded cards are hidden from the others, not from it.
    hist = [int(a) for a in state.history()[40:]]
    discarded = [a for a in hist if 40 <= a < 80]
    if discarded:
        strings = [state.information_state_string(p).split(" | ")[-1].split() for p in range(3)]
        assert any("x" in s for s in strings) and any(str(discarded[0]) in s for s in strings)


def test_evaluate_bots_plays_the_python_ismcts_and_mcts_bots_through_restartable():
    pyspiel = need("pyspiel")
    evaluate_bots = need("open_spiel.python.algorithms.evaluate_bots")
    ismcts = need("open_spiel.python.algorithms.ismcts")
    mcts = need("open_spiel.python.algorithms.mcts")
    uniform_random = need("open_spiel.python.bots.uniform_random")
    from tresillo.openspiel import restartable

    # The example of docs/PYTHON.md ("Which OpenSpiel bots work").
    game = pyspiel.load_game("python_tresillo", {"rules": "tresillo"})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        restartable(ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=rng)),
        restartable(ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=rng)),
        uniform_random.UniformRandomBot(2, rng),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 3
