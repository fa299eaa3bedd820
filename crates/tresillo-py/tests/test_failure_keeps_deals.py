"""Issue 36, defect 5: after a Python agent fails, every deal finished before
the failure is kept (the runner used to drop the finished deals of the batch in
progress: about 10 kept of 33 played)."""

import csv

import pytest
import tresillo

FAILING_DEAL = 40


def test_a_failing_python_agent_keeps_every_deal_finished_before_it(tmp_path):
    agents = ["rule", ("flaky", lambda view: view.legal_actions()[0]), "random"]
    whole = tmp_path / "whole"
    tresillo.tournament(agents, 60, whole, seed=3, threads=1)
    with open(whole / "deals.csv", newline="") as f:
        row = [r for r in csv.DictReader(f) if int(r["deal"]) == FAILING_DEAL][0]
    seat = [row[f"agent{s}"] for s in range(3)].index("flaky")
    game = tresillo.Game("tresillo")
    state = game.new_initial_state(seed=int(row["deal_seed"]), dealer=int(row["dealer"]))
    target = sorted(state.view(seat)["hand"])

    def flaky(view):
        if sorted(view.view()["hand"]) == target:
            raise RuntimeError("gave up")
        return view.legal_actions()[0]

    cut = tmp_path / "cut"
    with pytest.raises(RuntimeError, match="gave up"):
        tresillo.tournament(["rule", ("flaky", flaky), "random"], 60, cut, seed=3, threads=1)
    m = tresillo_manifest(cut)
    assert m["deals_completed"] == FAILING_DEAL, m["deals_completed"]


def tresillo_manifest(d):
    import json

    with open(d / "manifest.json") as f:
        return json.load(f)
