"""What a seat may know (RULES.md section 9): its information-state string and
its observation tensor do not change when only cards hidden from it change."""

import pickle
import random

import pytest
import tresillo
from conftest import TABLES


@pytest.mark.parametrize("rules,players,options", TABLES)
def test_a_resampled_state_looks_the_same_to_the_seat_to_move(rules, players, options):
    game = tresillo.Game(rules=rules, players=players, options=options)
    rng = random.Random(5)
    differed = 0
    for seed in range(25):
        s = game.new_initial_state(seed=seed, dealer=seed % players)
        for _ in range(rng.randrange(0, 60)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        p = s.current_player()
        r = s.resample_from_infostate(p, seed)
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.observation_tensor(p) == s.observation_tensor(p)
        assert r.legal_actions() == s.legal_actions()
        differed += r.deal() != s.deal()
        # Its history is its own world's, never the true deal: a pickled copy
        # is the resampled state, every seat's view included.
        if r.deal() != s.deal():
            assert r.history()[:40] != s.history()[:40]
        copy = pickle.loads(pickle.dumps(r))
        assert copy.deal() == r.deal()
        for q in range(players):
            assert copy.observation_tensor(q) == r.observation_tensor(q)
        # The resampled state plays on to the end.
        while not r.is_terminal():
            r.apply_action(rng.choice(r.legal_actions()))
    assert differed > 0


def swap_hidden(deal, a, b):
    """The deal with one card of seat a's hand swapped with one of seat b's."""
    parts = [p.split() for p in deal.split("/")]
    parts[a][0], parts[b][0] = parts[b][0], parts[a][0]
    return " / ".join(" ".join(p) for p in parts)


def test_permuting_the_others_cards_changes_nothing_a_seat_sees():
    game = tresillo.Game()
    for seed in range(20):
        s = game.new_initial_state(seed=seed)
        t = game.new_initial_state(deal=swap_hidden(s.deal(), 1, 2))
        assert s.information_state_string(0) == t.information_state_string(0)
        assert s.observation_tensor(0) == t.observation_tensor(0)
        assert s.information_state_string(1) != t.information_state_string(1)
        # The heap is hidden from everyone.
        u = game.new_initial_state(deal=swap_hidden(s.deal(), 1, 3))
        assert s.information_state_string(0) == u.information_state_string(0)
        assert s.information_state_string(2) == u.information_state_string(2)
