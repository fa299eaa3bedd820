"""A rule set defined in a file (docs/RULE-SET-FILES.md): the test-only
`test-three` (crates/tresillo-core/tests/data/test-three.toml), registered with
`tresillo.register_rule_set` and played by a game, agents and a tournament.

Registration lasts for the process, so each test registers in a child Python
of its own: the other tests' catalogues stay the built-in ones."""

import json
import os
import subprocess
import sys

import tresillo

HERE = os.path.dirname(os.path.abspath(__file__))
TEST_THREE = os.path.join(HERE, "..", "..", "tresillo-core", "tests", "data", "test-three.toml")


def in_child(name, *args):
    """Runs this module's function `name` with `args` in a new interpreter."""
    code = f"import sys; sys.path.insert(0, {HERE!r}); import test_rule_set_file as t; t.{name}(*sys.argv[1:])"
    p = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def play(out):
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
    rows = tresillo.tournament(["rule", "random", "random"], deals=6, out=out, rules="test-three", duplicate=True)
    assert rows
    m = json.load(open(os.path.join(out, "manifest.json")))
    assert m["complete"] and m["config"]["rules"] == "test-three"
    text = open(os.path.join(out, "deals.csv")).read()
    assert ",vuelta," not in text and "test-three" in text


def bad(tmp):
    path = os.path.join(tmp, "bad.toml")
    with open(path, "w") as f:
        f.write('name = "bad-one"\nbase = "tresillo"\ncontracts = ["solo"]\n')
    try:
        tresillo.register_rule_set(path)
        raise AssertionError("a bad file registered")
    except ValueError as e:
        assert "bad.toml:3: `contracts`: must keep `entrada`" in str(e) and "\n" not in str(e), e
    try:
        tresillo.register_rule_set(os.path.join(tmp, "no-such.toml"))
        raise AssertionError("a missing file registered")
    except ValueError as e:
        assert "no-such.toml" in str(e), e


def test_a_rule_set_file_registers_and_plays(tmp_path):
    in_child("play", tmp_path / "t")


def test_a_bad_rule_set_file_is_a_one_line_value_error(tmp_path):
    in_child("bad", tmp_path)
