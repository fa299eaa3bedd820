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
