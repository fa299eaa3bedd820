"""The state machine: every rule set plays to the end under random play, the
action space is fixed, bad input raises one-line Python errors."""

import pickle
import random

import pytest
import tresillo
from conftest import TABLES


def play_random(state, rng):
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, str(state)
        assert legal == sorted(legal) and all(0 <= a < tresillo.NUM_ACTIONS for a in legal)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        mask = state.legal_actions_mask()
        assert sum(mask) == len(legal)
        state.apply_action(rng.choice(legal))
    return state


@pytest.mark.parametrize("rules,players,options", TABLES)
def test_random_hands_end_with_a_result_for_every_seat(rules, players, options):
    game = tresillo.Game(rules=rules, players=players, options=options)
    rng = random.Random(7)
    for _ in range(60):
        s = play_random(game.new_initial_state(), rng)
        assert s.current_player() == tresillo.TERMINAL
        assert len(s.returns()) == players
        assert s.legal_actions() == []
        assert len(s.history()) <= 40 + tresillo.Game.max_game_length()


def test_a_seeded_state_starts_after_its_deal_in_the_history():
    s = tresillo.Game().new_initial_state(seed=3)
    assert len(s.history()) == 40 and not s.is_chance_node()
    dealt = tresillo.Game().new_initial_state()
    for a in s.history():
        dealt.apply_action(a)
    assert dealt.deal() == s.deal()


def test_clone_and_pickle_are_independent_copies():
    s = tresillo.Game(rules="hombre").new_initial_state(seed=11)
    rng = random.Random(1)
    for _ in range(5):
        s.apply_action(rng.choice(s.legal_actions()))
    c = s.clone()
    p = pickle.loads(pickle.dumps(s))
    assert str(p) == str(s) and p.history() == s.history()
    c.apply_action(c.legal_actions()[0])
    assert c.history() != s.history()


def test_every_action_has_distinct_words_in_each_state():
    for rules in ("tresillo", "lhombre", "hombre"):
        s = tresillo.Game(rules=rules).new_initial_state(seed=2)
        rng = random.Random(3)
        while not s.is_terminal():
            words = [s.action_to_string(s.current_player(), a) for a in s.legal_actions()]
            assert len(set(words)) == len(words), words
            s.apply_action(rng.choice(s.legal_actions()))


def test_a_discard_is_taken_card_by_card_then_done():
    s = tresillo.Game().new_initial_state(seed=1)
    rng = random.Random(0)
    seen = False
    while not s.is_terminal():
        legal = s.legal_actions()
        if any(40 <= a <= 80 for a in legal):
            seen = True
            cards = [a for a in legal if a < 80]
            # Only cards after the last one chosen (in index order) are offered.
            assert cards == sorted(cards)
        s.apply_action(rng.choice(legal))
    assert seen


def test_agents_play_whole_hands_of_every_rule_set():
    for rules, players, options in [t for t in TABLES if not t[2]]:
        game = tresillo.Game(rules=rules, players=players, options=options)
        agents = [tresillo.Agent(spec, seed=i) for i, spec in enumerate(["pimc:worlds=4", "rule", "random", "rule"])]
        for seed in range(3):
            s = game.new_initial_state(seed=seed, dealer=seed % players)
            while not s.is_terminal():
                s.apply_action(agents[s.current_player()].step(s))
            assert len(s.returns()) == players


def test_bad_input_raises_one_line_errors():
    game = tresillo.Game()
    s = game.new_initial_state(seed=3)
    with pytest.raises(ValueError, match=r"seat \d: action 0 \(play 1E\) is not legal; legal: paso"):
        s.apply_action(0)
    with pytest.raises(ValueError, match="expected an action id, 0 to 152"):
        s.apply_action(-1)
    with pytest.raises(ValueError, match="unknown rule set `nope`"):
        tresillo.Game(rules="nope")
    with pytest.raises(ValueError, match="unknown rule option `bad`"):
        tresillo.Game(options={"bad": 1})
    with pytest.raises(ValueError, match="bad value"):
        tresillo.Game(options={"palo_de_favor": "hearts"})
    with pytest.raises(ValueError, match="3 or 4 players"):
        tresillo.Game(players=5)
    with pytest.raises(ValueError, match="lhombre"):
        tresillo.Game(rules="lhombre", players=4)
    with pytest.raises(ValueError, match="agent"):
        tresillo.Agent("pimc:worlds=-3")
    with pytest.raises(ValueError, match="agent"):
        tresillo.Agent("nobody")
    with pytest.raises(ValueError, match="seed or a deal"):
        game.new_initial_state(seed=1, deal="x")
    with pytest.raises(ValueError, match="deal"):
        game.new_initial_state(deal="1E 1E")
    with pytest.raises(ValueError, match="chance node"):
        tresillo.Agent("rule").step(game.new_initial_state())
    end = play_random(game.new_initial_state(seed=4), random.Random(0))
    with pytest.raises(ValueError, match="the hand is over"):
        end.apply_action(0)
    with pytest.raises(ValueError, match="after the end"):
        tresillo.Agent("rule").step(end)
    for e in (ValueError,):
        assert "\n" not in str(pytest.raises(e, s.apply_action, 0).value)


def test_catalogues():
    names = [a for a, _ in tresillo.agents()]
    assert {"rule", "random", "pimc", "ismcts", "oracle"} <= set(names)
    # The registry's list, not a copy of it: the default first, names unique.
    sets = [r for r, _, _ in tresillo.rule_sets()]
    assert sets[0] == "tresillo" and len(sets) == len(set(sets))
