"""A rule set defined in a file (docs/RULE-SET-FILES.md): the test-only
`test-three` (crates/tresillo-core/tests/data/test-three.toml), registered with
`tresillo.register_rule_set` and played by a game, agents and a tournament."""

import json
import os

import pytest
import tresillo

TEST_THREE = os.path.join(os.path.dirname(__file__), "..", "..", "tresillo-core", "tests", "data", "test-three.toml")


def test_a_rule_set_file_registers_and_plays(tmp_path):
    assert tresillo.register_rule_set(TEST_THREE) == "test-three"
    assert tresillo.register_rule_set(TEST_THREE) == "test-three", "the same file again is harmless"
    assert "test-three" in [name for name, _, _ in tresillo.rule_sets()]
    game = tresillo.Game(rules="test-three", players=3)
    agents = [tresillo.Agent(spec, seed=i) for i, spec in enumerate(["pimc:worlds=3", "rule", "ismcts:iters=50"])]
    for seed in range(4):
        s = game.new_initial_state(seed=seed, dealer=seed % 3)
        while not s.is_terminal():
            s.apply_action(agents[s.current_player()].step(s))
        assert len(s.returns()) == 3
    rows = tresillo.tournament(["rule", "random", "random"], deals=6, out=tmp_path / "t", rules="test-three", duplicate=True)
    assert rows
    m = json.load(open(tmp_path / "t" / "manifest.json"))
    assert m["complete"] and m["config"]["rules"] == "test-three"
    text = open(tmp_path / "t" / "deals.csv").read()
    assert ",vuelta," not in text and "test-three" in text


def test_a_bad_rule_set_file_is_a_one_line_value_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad-one"\nbase = "tresillo"\ncontracts = ["solo"]\n')
    with pytest.raises(ValueError, match=r"bad.toml:3: `contracts`: must keep `entrada`") as e:
        tresillo.register_rule_set(bad)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="no-such.toml"):
        tresillo.register_rule_set(tmp_path / "no-such.toml")
