"""Arguments are checked before anything is created, in Python's names (issue
36, defects 4 and 6): a rejected `tournament()` leaves no directory behind, so the
corrected call simply works; each error is a ValueError or TypeError naming the
argument."""

import os
import subprocess
import sys

import pytest
import tresillo

AGENTS = ["rule", "random", "rule"]


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"threads": 0}, ValueError, "threads"),
        ({"threads": 10**6}, ValueError, "threads"),
        ({"threads": "2"}, TypeError, "threads"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 2**64}, ValueError, "seed"),
        ({"deals": -5}, ValueError, "deals"),
        ({"deals": 2.5}, TypeError, "deals"),
        ({"players": -3}, ValueError, "players"),
        ({"ms_per_decision": -1}, ValueError, "ms_per_decision"),
        ({"rules": "chess"}, ValueError, "chess"),
        ({"scoring": "golf"}, ValueError, "golf"),
        ({"shard": "3/2"}, ValueError, "shard"),
        ({"format": "xlsx"}, ValueError, "format"),
        ({"options": {"ante": 10**30}}, ValueError, "ante"),
        ({"options": {"nonsense": 1}}, ValueError, "nonsense"),
        ({"bidding": "nobody"}, ValueError, "nobody"),
        ({"record": "/no/such/dir/record.jsonl"}, ValueError, "record"),
        ({"agents": ["nobody", "rule", "rule"]}, ValueError, "nobody"),
        ({"agents": [3, "rule", "rule"]}, TypeError, "agent"),
    ],
)
def test_a_rejected_tournament_creates_nothing_and_names_its_argument(tmp_path, kwargs, error, words):
    out = tmp_path / "run"
    args = {"agents": AGENTS, "deals": 6, "out": out, **kwargs}
    with pytest.raises(error) as e:
        tresillo.tournament(**args)
    assert words in str(e.value), str(e.value)
    assert "\n" not in str(e.value)
    assert not out.exists(), f"{kwargs} left {sorted(os.listdir(out))}"
    # The corrected call works at once.
    rows = tresillo.tournament(AGENTS, 6, out)
    assert rows and (out / "manifest.json").exists()


def test_an_empty_out_is_refused(tmp_path):
    before = sorted(os.listdir(tmp_path))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(ValueError, match="out"):
            tresillo.tournament(AGENTS, 6, "")
    finally:
        os.chdir(cwd)
    assert sorted(os.listdir(tmp_path)) == before


def test_a_run_already_there_is_refused_in_python_names(tmp_path):
    tresillo.tournament(AGENTS, 6, tmp_path / "r")
    with pytest.raises(Exception) as e:
        tresillo.tournament(AGENTS, 6, tmp_path / "r")
    msg = str(e.value)
    assert "resume=True" in msg and "force=True" in msg and "--" not in msg, msg


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: tresillo.Game("tresillo", players=-1), ValueError, "players"),
        (lambda: tresillo.Game("hombre", options={"ante": 10**30}), ValueError, "ante"),
        (lambda: tresillo.Game("tresillo").new_initial_state(seed=-1), ValueError, "seed"),
        (lambda: tresillo.Game("tresillo").new_initial_state(dealer=-1), ValueError, "dealer"),
        (lambda: tresillo.Agent("rule", seed=-1), ValueError, "seed"),
        (lambda: tresillo.Agent("rule", seed="x"), TypeError, "seed"),
    ],
)
def test_bad_numbers_name_their_argument(call, error, words):
    with pytest.raises(error) as e:
        call()
    assert words in str(e.value), str(e.value)


def test_a_missing_optional_package_says_which_extra_to_install():
    code = """
import sys
sys.modules["numpy"] = None  # as if numpy were not installed
try:
    import tresillo.pettingzoo
except ImportError as e:
    print(e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "pip install 'tresillo[pettingzoo]'" in out.stdout, out
