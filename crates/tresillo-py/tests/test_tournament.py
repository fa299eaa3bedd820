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
    with pytest.raises(TypeError, match="agent 7"):
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


def test_bidding_and_both_formats_write_what_the_cli_writes(tmp_path):
    """`bidding`, `format` and the rest of `tresillo tournament`'s options give the
    CLI's files byte for byte (the manifest differs only in how the run was
    started and the build)."""
    from conftest import run_cli

    agents = ["pimc:worlds=4", "rule", "random"]
    run_cli("tournament", "--agents", ",".join(agents), "--deals", "24", "--duplicate", "--seed", "7",
            "--bidding", "rule", "--format", "both", "--out", str(tmp_path / "cli"))
    rows = tresillo.tournament(agents, deals=24, duplicate=True, seed=7, bidding="rule", format="both",
                               out=tmp_path / "py")
    for f in ("deals.csv", "deals.parquet", "summary.csv", "pairs.csv", "stats.json"):
        assert (tmp_path / "py" / f).read_bytes() == (tmp_path / "cli" / f).read_bytes(), f
    m = json.load(open(tmp_path / "py" / "manifest.json"))
    assert m["config"]["bidding"] == "rule" and m["format"] == "both"
    assert {"0:pimc:worlds=4", "1:rule", "2:random"} <= {r["agent"] for r in rows}


def test_bidding_covers_all_is_the_clis_option(tmp_path):
    """`bidding_covers="all"` (the CLI's `--bidding-covers all`): the bidding agent
    makes every decision but card play; the same files as the CLI's."""
    from conftest import run_cli

    agents = ["random", "rule", "random"]
    run_cli("tournament", "--agents", ",".join(agents), "--deals", "24", "--duplicate", "--seed", "7",
            "--bidding", "rule", "--bidding-covers", "all", "--out", str(tmp_path / "cli"))
    tresillo.tournament(agents, deals=24, duplicate=True, seed=7, bidding="rule", bidding_covers="all",
                        out=tmp_path / "py")
    for f in ("deals.csv", "summary.csv", "pairs.csv", "stats.json"):
        assert (tmp_path / "py" / f).read_bytes() == (tmp_path / "cli" / f).read_bytes(), f
    m = json.load(open(tmp_path / "py" / "manifest.json"))
    assert m["config"]["bidding_covers"] == "all"
    with pytest.raises(ValueError, match="unknown bidding cover `most`"):
        tresillo.tournament(agents, deals=3, bidding="rule", bidding_covers="most", out=tmp_path / "bad")


def test_read_deals_gives_the_same_frame_from_parquet_as_from_csv(tmp_path):
    from conftest import need

    pd = need("pandas")
    need("pyarrow")
    kw = dict(deals=60, duplicate=True, seed=3, bidding="rule")
    tresillo.tournament(["rule", "random", "rule"], out=tmp_path / "csv", **kw)
    tresillo.tournament(["rule", "random", "rule"], out=tmp_path / "pq", format="parquet", **kw)
    assert not (tmp_path / "pq" / "deals.csv").exists()
    a, b = tresillo.read_deals(tmp_path / "csv"), tresillo.read_deals(tmp_path / "pq")
    pd.testing.assert_frame_equal(a, b)
    assert len(b) == 60 * 6 and str(b["declarer"].dtype) == "Int64"
    with pytest.raises(FileNotFoundError, match="nor deals.parquet"):
        tresillo.read_deals(tmp_path)


def test_ms_per_decision_times_the_search_agents_and_warns(tmp_path):
    with pytest.warns(UserWarning, match="pimc:ms=2 decide under a time budget.*do not reproduce"):
        tresillo.tournament(["pimc", "rule", "random"], deals=2, ms_per_decision=2, bidding="rule",
                            out=tmp_path / "t")
    m = json.load(open(tmp_path / "t" / "manifest.json"))
    assert m["config"]["agents"] == ["pimc:ms=2", "rule", "random"]


def test_bad_run_options_are_refused_in_one_line(tmp_path):
    ok = ["rule", "rule", "random"]
    with pytest.raises(ValueError, match="format: unknown format `xml`"):
        tresillo.tournament(ok, deals=3, out=tmp_path / "a", format="xml")
    with pytest.raises(ValueError, match="resume=True and force=True exclude each other"):
        tresillo.tournament(ok, deals=3, out=tmp_path / "b", resume=True, force=True)
    with pytest.raises(ValueError, match="ms_per_decision=0: expected at least 1 millisecond"):
        tresillo.tournament(ok, deals=3, out=tmp_path / "c", ms_per_decision=0)
    with pytest.raises(ValueError, match="worlds"):
        tresillo.tournament(["pimc:worlds=8", "rule", "rule"], deals=3, out=tmp_path / "d", ms_per_decision=5)
    with pytest.raises(ValueError, match="nobody"):
        tresillo.tournament(ok, deals=3, out=tmp_path / "e", bidding="nobody")
    assert not any((tmp_path / d).exists() for d in "abcde")


def test_read_pairs_gives_the_paired_differences_with_their_elo(tmp_path):
    # Issue 55: pairs.csv's Elo beside the tantos, from Python as from the CLI.
    tresillo.tournament(["rule", "random", "rule:surrender=20"], deals=60, out=tmp_path / "r", duplicate=True)
    pairs = tresillo.read_pairs(tmp_path / "r")
    assert [(p["slot_a"], p["slot_b"]) for p in pairs] == [(0, 1), (0, 2), (1, 2)]
    rule_random = pairs[0]
    assert rule_random["wins"] + rule_random["draws"] + rule_random["losses"] == 60
    assert rule_random["elo"] > 0 and rule_random["elo_low"] <= rule_random["elo"] <= rule_random["elo_high"]
    with pytest.raises(FileNotFoundError, match="pairs.csv"):
        tresillo.read_pairs(tmp_path / "none")
