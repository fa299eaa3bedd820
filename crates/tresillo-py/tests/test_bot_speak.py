"""`tresillo bot SPEC` (docs/PROTOCOL.md, "The toolkit's agents as bots") seated
from Python: the binary's rule agent, played as an external bot, plays the same
deals as the package's own rule agent."""

import csv

import pytest
import tresillo
from conftest import STRICT, tresillo_cmd


def rows(run, spec):
    """deals.csv's rows, an agent column holding `spec` read as `rule`."""
    with open(run / "deals.csv", newline="") as f:
        return [
            {k: "rule" if (k.startswith("agent") or k == "declarer_agent") and v == spec else v for k, v in r.items()}
            for r in csv.DictReader(f)
        ]


def test_tresillo_bot_sits_in_a_python_tournament(tmp_path):
    cmd = tresillo_cmd()
    if len(cmd) != 1 or any(c.isspace() or c == '"' for c in cmd[0]):
        if STRICT:
            pytest.fail(f"no `tresillo` binary to seat as a bot: {cmd}")
        pytest.skip("no `tresillo` binary to seat as a bot")
    bot = f'ext:cmd="{cmd[0]} bot rule"'
    kw = dict(deals=12, duplicate=True, seed=5, threads=1)
    tresillo.tournament(["rule", "rule", "rule"], out=tmp_path / "a", **kw)
    tresillo.tournament([bot, "rule", "rule"], out=tmp_path / "b", **kw)
    a, b = rows(tmp_path / "a", None), rows(tmp_path / "b", bot)
    assert len(a) == 12 * 6
    assert a == b


def test_a_clocked_agent_plays_from_python_and_is_flagged_not_reproducible(tmp_path):
    """Clocks (`tc=BASE+INC`, docs/PROTOCOL.md "Clocks") from Python: a clocked
    pimc plays whole hands, and the manifest lists it under `time_budget`, as
    `ms=` budgets are (not reproducible)."""
    import json

    rows_ = tresillo.tournament(["pimc:tc=0.5+0.02", "rule", "rule"], deals=4, out=tmp_path / "c", seed=3, threads=1)
    assert rows_
    with open(tmp_path / "c" / "manifest.json") as f:
        manifest = json.load(f)
    assert manifest["time_budget"] == ["pimc:tc=0.5+0.02"], manifest["time_budget"]
