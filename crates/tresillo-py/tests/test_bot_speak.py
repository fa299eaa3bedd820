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
