"""Shared helpers. With TRESILLO_PY_STRICT=1 (as CI sets it) an optional
integration that cannot be imported fails instead of skipping."""

import os
import shutil
import subprocess
import sys

import pytest

STRICT = os.environ.get("TRESILLO_PY_STRICT") == "1"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

def _other_value(values, default):
    """An option's value other than its default, as `rule_sets()` spells its
    values (`true|false`, `none, espadas, ...`, `0 to 1000`): the last one."""
    if " to " in values:
        lo, hi = values.split(" to ")
        return int(lo if hi == default else hi)
    other = [v.strip() for v in values.replace(",", "|").split("|") if v.strip() and v.strip() != default]
    return True if other[-1] == "true" else other[-1]


def _tables():
    """Every rule set of the registry at every table size it is played at: at its
    defaults, and with every option at another value (kept in turn while the game
    accepts it). A new rule set is covered without an edit here."""
    import tresillo

    out = []
    for name, _summary, options in tresillo.rule_sets():
        for players in (3, 4):
            try:
                tresillo.Game(rules=name, players=players)
            except ValueError:
                continue
            out.append((name, players, {}))
            kept = {}
            for option, default, values, _help in options:
                trial = dict(kept, **{option: _other_value(values, default)})
                try:
                    tresillo.Game(rules=name, players=players, options=trial)
                except ValueError:
                    continue
                kept = trial
            if kept:
                out.append((name, players, kept))
    return out


TABLES = _tables()


def need(module):
    """Import an optional module, skipping (failing under STRICT) without it."""
    if STRICT:
        return __import__(module, fromlist=["_"])
    return pytest.importorskip(module, reason=f"{module} is not installed")


def tresillo_cmd():
    """The `tresillo` command to run: the binary of this checkout (TRESILLO_BIN,
    else target/release or target/debug), else the package's own `tresillo`
    command beside this interpreter or on PATH, else the package's command run
    by this interpreter (the same CLI code, inside the extension): an installed
    package runs its parity tests without a checkout's binary."""
    candidates = [os.environ.get("TRESILLO_BIN")]
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    candidates += [os.path.join(target, p, "tresillo") for p in ("release", "debug")]
    candidates += [os.path.join(os.path.dirname(sys.executable), "tresillo"), shutil.which("tresillo")]
    for c in candidates:
        if c and os.path.exists(c):
            return [c]
    return [sys.executable, "-c", "import sys; from tresillo._cli import main; sys.argv[0] = 'tresillo'; main()"]


def run_cli(*args):
    """Runs the command; returns its standard output."""
    out = subprocess.run([*tresillo_cmd(), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout
