"""The Python state machine is the engine the CLI runs: replaying the hands of a
CLI tournament's record file from their deals gives the deals.csv results."""

import csv
import json
import os

import pytest
import tresillo
from conftest import run_cli


@pytest.mark.parametrize(
    "rules,players,options",
    [
        ("tresillo", 3, []),
        ("tresillo", 4, []),
        ("tresillo-house", 3, []),
        ("hombre", 3, ["contrabola=true", "gascarille=true", "favorito=true"]),
        ("hombre", 3, ["hombre-chips=true"]),
        ("lhombre", 3, []),
    ],
)
def test_returns_equal_deals_csv_for_random_play(tmp_path, rules, players, options):
    out = tmp_path / "run"
    record = tmp_path / "hands.jsonl"
    agents = ",".join(["random"] * players)
    args = ["tournament", "--agents", agents, "--deals", "40", "--seed", "9", "--rules", rules]
    args += ["--players", str(players), "--out", str(out), "--record", str(record)]
    for o in options:
        args += ["--rule-option", o]
    run_cli(*args)
    with open(os.path.join(out, "deals.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    lines = record.read_text().splitlines()
    assert len(lines) == len(rows) == 40
    for line, row in zip(lines, rows):
        r, opts, n, deal, dealer, actions = tresillo._tresillo.record_actions(line)
        assert (r, n, dealer) == (rules, players, int(row["dealer"]))
        game = tresillo.Game(rules=r, players=n, options=dict(opts))
        s = game.new_initial_state(deal=deal, dealer=dealer)
        assert s.deal() == deal
        for a in actions:
            s.apply_action(a)
        assert s.is_terminal()
        want = [int(row[f"pool{i}"]) + int(row[f"cond{i}"]) for i in range(n)]
        assert s.returns() == want, json.loads(line)["deal"]


def test_a_seed_deals_what_the_cli_deals():
    for seed in (0, 1, 12345):
        text = run_cli("deal", "--seed", str(seed)).strip()
        assert tresillo.Game().new_initial_state(seed=seed).deal() == text.splitlines()[0].removeprefix("deal: ")
