"""A Python model of the other players weights pimc's and ismcts's sampled worlds
(`tresillo.Agent(spec, likelihood=f)`): it sees the deciding seat's view and
worlds consistent with it, never the hand; it seats in a tournament; a model that
fails is one clear error."""

import json

import pytest
import tresillo


def play_hand(agents, seed=4):
    state = tresillo.Game().new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
    return state


def test_the_model_sees_the_seats_view_and_consistent_worlds_only():
    calls = []
    hands_seen = set()

    def model(view, world):
        me = view.seat
        own = set(view.view()["hand"])
        assert set(world.hands[me]) == own, "the world keeps the deciding seat's hand"
        for s, h in enumerate(world.hands):
            if s != me:
                assert not own & set(h), "no other seat holds the seat's cards"
        hands_seen.add(tuple(tuple(sorted(h)) for h in world.hands))
        calls.append(me)
        return 0.0

    pimc = tresillo.Agent("pimc:worlds=4:bid_worlds=2", likelihood=model)
    assert pimc.likelihood is model
    state = play_hand([pimc, tresillo.Agent("rule"), tresillo.Agent("rule")])
    assert state.is_terminal() and calls and set(calls) == {0}
    # Sampled worlds, not the truth: many different placements of the hidden cards.
    assert len(hands_seen) > 10


def test_the_model_changes_the_worlds_searched():
    """A model that rules out every world makes the agent fall back on uniform
    worlds; one that weights them evenly does not; both decide legally, and the
    agent with a model plays as the same agent given the same model again."""

    def even(view, world):
        return 0.0

    def none(view, world):
        return float("-inf")

    for spec in ("pimc:worlds=4:bid_worlds=2", "ismcts:iters=100"):
        a = play_hand([tresillo.Agent(spec, likelihood=even), tresillo.Agent("rule"), tresillo.Agent("rule")])
        b = play_hand([tresillo.Agent(spec, likelihood=even), tresillo.Agent("rule"), tresillo.Agent("rule")])
        assert a.history() == b.history()
        play_hand([tresillo.Agent(spec, likelihood=none), tresillo.Agent("rule"), tresillo.Agent("rule")])


def test_a_model_seats_in_a_tournament_and_its_run_is_deterministic(tmp_path):
    def even(view, world):
        return -0.5 * len(world.heap)

    runs = []
    for t in (1, 2):
        out = tmp_path / f"t{t}"
        mine = tresillo.Agent("pimc:worlds=4:bid_worlds=2", likelihood=even)
        rows = tresillo.tournament([("mine", mine), "pimc:worlds=4:bid_worlds=2", "rule"], deals=6,
                                   duplicate=True, bidding="rule", threads=t, out=out)
        assert "0:mine" in {r["agent"] for r in rows}
        runs.append((out / "deals.csv").read_bytes())
        compute = (out / "compute.csv").read_text().splitlines()
        head = compute[0].split(",")
        row = dict(zip(head, compute[1].split(",")))
        assert row["agent"] == "mine" and int(row["weighted"]) > 0
    assert runs[0] == runs[1]
    m = json.load(open(tmp_path / "t1" / "manifest.json"))
    assert m["config"]["agents"][0] == "mine"


def test_a_failing_model_is_one_clear_error(tmp_path):
    def broken(view, world):
        raise KeyError("no model")

    agent = tresillo.Agent("pimc:worlds=4:bid_worlds=2", likelihood=broken)
    state = tresillo.Game().new_initial_state(seed=4)
    with pytest.raises(RuntimeError, match=r"its likelihood raised KeyError: 'no model'"):
        while not state.is_terminal():
            state.apply_action(agent.step(state))
    nan = tresillo.Agent("ismcts:iters=50", likelihood=lambda v, w: float("nan"))
    state = tresillo.Game().new_initial_state(seed=4)
    with pytest.raises(RuntimeError, match="NaN"):
        while not state.is_terminal():
            state.apply_action(nan.step(state))
    with pytest.raises(RuntimeError, match=r"agent mine \(seat \d\): its likelihood raised KeyError"):
        tresillo.tournament([("mine", agent), "rule", "rule"], deals=3, bidding="rule", out=tmp_path / "x")
    with pytest.raises(ValueError, match="samples no worlds to weight"):
        tresillo.Agent("rule", likelihood=lambda v, w: 0.0)
    with pytest.raises(ValueError, match="not callable"):
        tresillo.Agent("pimc", likelihood=3)
    with pytest.raises(ValueError, match=r"\(name, agent\) pair"):
        tresillo.tournament([agent, "rule", "rule"], deals=3, out=tmp_path / "y")
    with pytest.raises(ValueError, match="a name without"):
        tresillo.tournament([("a:b", agent), "rule", "rule"], deals=3, out=tmp_path / "z")


def test_the_docs_example_runs(tmp_path):
    """docs/PYTHON.md's model example, as written but for a smaller run."""
    import os
    import re

    from conftest import ROOT

    text = open(os.path.join(ROOT, "docs", "PYTHON.md")).read()
    section = text.split("## Your own model of the other players", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "deals=200" in code and '"out/model"' in code
    code = code.replace("deals=200", "deals=3").replace('"out/model"', repr(str(tmp_path / "model")))
    scope = {"tresillo": tresillo}
    exec(compile(code, "docs/PYTHON.md", "exec"), scope)
    assert {"0:pimc-mine", "1:pimc:worlds=32"} <= {r["agent"] for r in scope["rows"]}


def test_a_batched_model_scores_the_whole_pool_at_once_and_plays_as_the_same_model_per_world():
    np = pytest.importorskip("numpy")

    def one(view, world):
        return -0.3 * len(world.hands[(view.seat + 1) % 3][0:3]) - 0.1 * len(world.heap)

    batches = []

    def many(view, worlds):
        batches.append(len(worlds))
        return np.array([one(view, w) for w in worlds])

    for spec in ("pimc:worlds=4:bid_worlds=2", "ismcts:iters=100"):
        a = play_hand([tresillo.Agent(spec, likelihood=one), tresillo.Agent("rule"), tresillo.Agent("rule")])
        b = play_hand([tresillo.Agent(spec, likelihood=many, batched=True), tresillo.Agent("rule"),
                       tresillo.Agent("rule")])
        assert a.history() == b.history(), spec
    assert batches and min(batches) > 1, "one call per pool, not per world"


def test_a_batch_of_the_wrong_length_is_one_clear_error(tmp_path):
    short = tresillo.Agent("pimc:worlds=4:bid_worlds=2", likelihood=lambda v, ws: [0.0], batched=True)
    state = tresillo.Game().new_initial_state(seed=4)
    with pytest.raises(RuntimeError, match=r"returned 1 log-likelihoods for \d+ worlds"):
        while not state.is_terminal():
            state.apply_action(short.step(state))
    with pytest.raises(RuntimeError, match=r"agent short \(seat 0\): its likelihood returned 1 log-likelihoods"):
        tresillo.tournament([("short", short), "rule", "rule"], deals=3, bidding="rule", out=tmp_path / "x")
