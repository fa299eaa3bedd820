"""The learned models' agents (docs/LEARNING.md) from Python: the same specs as
the command line's, with a model file of models/."""
from pathlib import Path

import pytest

import tresillo

MODELS = Path(__file__).resolve().parents[3] / "models"
LOC = MODELS / "locations-rule.safetensors"
VALUE = MODELS / "value-bids-rule.safetensors"


def play(seats, seed=3):
    state = tresillo.Game(rules="tresillo", players=3).new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(seats[state.current_player()].step(state))
    return state.returns()


def test_learned_specs_play_whole_hands():
    seats = [
        tresillo.Agent(f"pimc:worlds=4:loc={LOC}:loc_pow=40"),
        tresillo.Agent(f"rule:bid={VALUE}"),
        tresillo.Agent(f"net:model={VALUE}"),
    ]
    assert len(play(seats)) == 3
    names = dict(tresillo.agents())
    assert "net" in names


def test_a_missing_or_wrong_model_is_a_clear_error():
    with pytest.raises(ValueError, match="reading"):
        tresillo.Agent("net:model=/nonexistent/model.safetensors")
    with pytest.raises(ValueError, match="locations model"):
        tresillo.Agent(f"net:model={LOC}")


def test_a_tournament_seats_learned_agents(tmp_path):
    rows = tresillo.tournament([f"rule:bid={VALUE}", "rule", "random"], deals=6, out=str(tmp_path / "t"))
    assert rows


def test_read_dataset_unpacks_the_rows_as_rust_does(tmp_path):
    import json

    from conftest import need, run_cli

    np = need("numpy")
    need("pyarrow")
    out = tmp_path / "ds"
    run_cli("dataset", "--agents", "rule,rule,rule", "--deals", "12", "--seed", "4", "--out", str(out), "--quiet")
    ds = tresillo.read_dataset(out)
    assert ds["inputs"].shape[1] == 612 and ds["inputs"].dtype == np.float32
    assert ds["legal"].shape[1] == 153 and ds["legal"][np.arange(len(ds["action"])), ds["action"]].all()
    dumped = [json.loads(line) for line in run_cli("dataset", "--dump-inputs", str(out / "rows-00000.parquet"), "--dump-rows", "7").splitlines()]
    assert len(dumped) == 7
    for i, d in enumerate(dumped):
        assert (d["deal"], d["seat"], d["action"]) == (ds["deal"][i], ds["seat"][i], ds["action"][i])
        np.testing.assert_allclose(ds["inputs"][i], np.array(d["input"], np.float32), atol=1e-6)
