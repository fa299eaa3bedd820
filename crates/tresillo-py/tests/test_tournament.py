"""tresillo.tournament: the Rust runner with Python agents seated beside built-in
specs, writing the run directory `tresillo tournament` writes."""

import json
import os

import pytest
import tresillo


def highest(view):
    """Plays the last legal action: a deterministic Python agent."""
    return view.legal_actions()[-1]


def files(d):
    out = {}
    for f in ("deals.csv", "summary.csv", "stats.json"):
        with open(os.path.join(d, f), "rb") as fh:
            out[f] = fh.read()
    return out


def test_a_python_agent_plays_a_duplicate_tournament_identically_on_any_thread_count(tmp_path):
    a = tresillo.tournament(["rule", highest, "random"], deals=120, out=tmp_path / "a", duplicate=True, threads=1)
    b = tresillo.tournament(["rule", highest, "random"], deals=120, out=tmp_path / "b", duplicate=True, threads=2)
    assert a == b
    assert files(tmp_path / "a") == files(tmp_path / "b")
    slots = {r["agent"] for r in a}
    assert {"0:rule", "1:highest", "2:random"} <= slots
    m = json.load(open(tmp_path / "a" / "manifest.json"))
    assert m["complete"] and m["config"]["agents"] == ["rule", "highest", "random"]
    df = pytest.importorskip("pandas") and tresillo.read_deals(tmp_path / "a")
    assert len(df) == 120 * 6 and str(df["declarer"].dtype) == "Int64"


def test_a_failing_python_agent_stops_the_run_and_resume_finishes_it_byte_for_byte(tmp_path):
    calls = {"n": 0, "limit": 1500}

    def flaky(view):
        calls["n"] += 1
        if calls["n"] > calls["limit"]:
            raise KeyError("boom")
        return view.legal_actions()[-1]

    tresillo.tournament(["rule", ("flaky", highest), "random"], deals=600, out=tmp_path / "whole", duplicate=True)
    with pytest.raises(RuntimeError, match=r"Python agent flaky \(seat \d\): raised KeyError: 'boom'; the run stopped"):
        tresillo.tournament(["rule", flaky, "random"], deals=600, out=tmp_path / "cut", duplicate=True, threads=1)
    m = json.load(open(tmp_path / "cut" / "manifest.json"))
    assert 0 < m["deals_completed"] < 600 and not m["complete"]
    calls["limit"] = 10**12
    tresillo.tournament(["rule", flaky, "random"], deals=600, out=tmp_path / "cut", duplicate=True, resume=True)
    assert files(tmp_path / "cut") == files(tmp_path / "whole")


def test_bad_agents_are_refused_in_one_line(tmp_path):
    with pytest.raises(RuntimeError, match=r"answered 999, not a legal action"):
        tresillo.tournament(["rule", lambda v: 999, "random"], deals=3, out=tmp_path / "x")
    with pytest.raises(ValueError, match="already taken"):
        tresillo.tournament(["rule", ("rule", highest), "random"], deals=3, out=tmp_path / "y")
    with pytest.raises(ValueError, match="agent"):
        tresillo.tournament(["nobody", "rule", "random"], deals=3, out=tmp_path / "z")
    with pytest.raises(ValueError):
        tresillo.tournament(["rule", 7, "random"], deals=3, out=tmp_path / "w")


def test_a_seated_agent_sees_only_its_seat():
    seen = []

    def spy(view):
        seen.append(view.view())
        assert len(view.observation_tensor()) == tresillo.OBSERVATION_SIZE
        return view.legal_actions()[0]

    import tempfile

    with tempfile.TemporaryDirectory() as d:
        tresillo.tournament([spy, "rule", "rule"], deals=3, out=os.path.join(d, "r"))
    assert seen and all(set(v) >= {"seat", "hand"} for v in seen)
    # The view names one hand, the seat's own: nine cards at most, none of another seat.
    assert all(len(v["hand"]) <= 9 for v in seen)
