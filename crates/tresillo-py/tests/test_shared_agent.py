"""One `tresillo.Agent` stepping several hands at once (issue 56, defect 1): an
opponent shared by many environments is the normal case in training. A discard
is chosen card by card, and the agent's plan for it belongs to its hand: eight
hands stepped round-robin, an agent asked in the middle of a discard another
agent began, and hands stepped from several threads all play legal actions."""

import threading
import time

import pytest
import tresillo

SPECS = ["random", "rule", "pimc:worlds=4"]


def _is_discard(state):
    return any(a >= 40 for a in state.legal_actions()) and "discard" in state.action_to_string(
        state.current_player(), state.legal_actions()[0]
    )


@pytest.mark.parametrize("spec", SPECS)
def test_one_agent_steps_eight_hands_round_robin(spec):
    game = tresillo.Game("tresillo")
    agent = tresillo.Agent(spec, seed=3)
    finished = 0
    for first in range(0, 16, 8):  # two rounds of 8 hands at once
        states = [game.new_initial_state(seed=s) for s in range(first, first + 8)]
        while not all(s.is_terminal() for s in states):
            for s in states:
                if not s.is_terminal():
                    s.apply_action(agent.step(s))  # raised "not legal here" at discards
        finished += len(states)
    assert finished == 16


@pytest.mark.parametrize("spec", SPECS)
def test_an_agent_asked_in_the_middle_of_a_discard_answers_a_legal_action(spec):
    # The discard is begun by another agent (`random`): the agent asked decides
    # its own discard, which need not hold the cards already chosen; it used to
    # answer a card of its own plan, not legal here.
    game = tresillo.Game("tresillo")
    rule, starter, agent = tresillo.Agent("rule"), tresillo.Agent("random", seed=9), tresillo.Agent(spec, seed=5)
    asked = 0
    for seed in range(60):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if _is_discard(state):
                if state.history()[-1] >= 40 and "discard" in state.action_to_string(
                    state.current_player(), state.history()[-1]
                ):
                    while not state.is_terminal() and _is_discard(state):
                        state.apply_action(agent.step(state))  # to the end of the discard
                    asked += 1
                    break
                state.apply_action(starter.step(state))
                continue
            state.apply_action(rule.step(state))
    assert asked >= 10


def test_one_agent_shared_by_threads_each_stepping_hands_round_robin():
    game = tresillo.Game("tresillo")
    agent = tresillo.Agent("random", seed=1)
    errors = []

    def play(first):
        try:
            states = [game.new_initial_state(seed=s) for s in range(first, first + 4)]
            while not all(s.is_terminal() for s in states):
                for s in states:
                    if not s.is_terminal():
                        s.apply_action(agent.step(s))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=play, args=(100 * i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def _at_card_play(game):
    rule = tresillo.Agent("rule")
    for seed in range(1, 100):
        s = game.new_initial_state(seed=seed)
        while not s.is_terminal() and not all(a < 40 for a in s.legal_actions()):
            s.apply_action(rule.step(s))
        if not s.is_terminal():
            return s
    raise AssertionError("no hand reached card play")


def test_a_state_changed_by_another_thread_while_the_agent_decides_is_a_clear_error():
    # The agent's step no longer holds the state while it decides: another
    # thread's apply_action works (it was PyO3's "Already borrowed"), and the
    # stale answer is refused by name.
    game = tresillo.Game("tresillo")
    state = _at_card_play(game)
    slow = tresillo.Agent("pimc:worlds=30000")  # about half a second
    result = {}

    def step():
        try:
            result["a"] = slow.step(state)
        except RuntimeError as e:
            result["e"] = str(e)

    t = threading.Thread(target=step)
    t.start()
    time.sleep(0.1)  # into the search
    state.apply_action(state.legal_actions()[0])
    t.join()
    assert "changed while the agent decided" in result.get("e", ""), result
