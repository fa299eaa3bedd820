"""The perfect-recall information-state tensor (issue 56): the same knowledge as
the information-state string, so equal strings give equal tensors and different
ones different tensors; OpenSpiel's `information_state_tensor` serves it."""

import random

import tresillo
from conftest import need


def test_the_tensor_tells_apart_what_the_string_tells_apart():
    np = need("numpy")
    rng = random.Random(4)
    by_string = {}
    for rules, players in (("tresillo", 3), ("tresillo", 4), ("hombre", 3)):
        game = tresillo.Game(rules, players=players)
        for seed in range(12):
            s = game.new_initial_state(seed=seed)
            while not s.is_terminal():
                for p in range(players):
                    key = (rules, players, s.information_state_string(p))
                    t = s.information_state_tensor(p).tobytes()
                    assert by_string.setdefault(key, t) == t  # equal knowledge, equal tensors
                    # A resampled state the seat cannot tell apart has the same tensor.
                if s.current_player() >= 0:
                    p = s.current_player()
                    r = s.resample_from_infostate(p, seed=seed)
                    assert np.array_equal(r.information_state_tensor(p), s.information_state_tensor(p))
                s.apply_action(rng.choice(s.legal_actions()))
    tensors = {}
    for key, t in by_string.items():
        assert tensors.setdefault((key[0], key[1], t), key) == key  # different knowledge, different tensors
    t = tresillo.Game().new_initial_state(seed=1).information_state_tensor(0)
    assert t.shape == (tresillo.INFORMATION_STATE_SIZE,) and t.dtype == np.float32


def test_openspiel_serves_the_information_state_tensor():
    pyspiel = need("pyspiel")
    import importlib

    importlib.import_module("tresillo.openspiel")
    game = pyspiel.load_game("python_tresillo")
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [tresillo.INFORMATION_STATE_SIZE]
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    for _ in range(5):
        t = s.information_state_tensor(s.current_player())
        assert len(t) == tresillo.INFORMATION_STATE_SIZE and t[:416] == s.observation_tensor(s.current_player())
        s.apply_action(s.legal_actions()[0])
