"""Shared helpers. With TRESILLO_PY_STRICT=1 (as CI sets it) an optional
integration that cannot be imported fails instead of skipping."""

import os
import shutil
import subprocess
import sys

import pytest

STRICT = os.environ.get("TRESILLO_PY_STRICT") == "1"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

# Every rule set with options worth covering, at three and four players.
TABLES = [
    ("tresillo", 3, {}),
    ("tresillo", 3, {"palo_de_favor": "oros", "codillo_old": True}),
    ("tresillo", 4, {}),
    ("tresillo", 4, {"penetro_all_play": True}),
    ("tresillo-house", 3, {}),
    ("hombre", 3, {}),
    ("hombre", 3, {"contrabola": True, "favorito": True, "gascarille": True, "show_heap": True}),
    ("hombre", 3, {"hombre-chips": True, "ante": 3}),
    ("lhombre", 3, {}),
    ("lhombre", 3, {"redeal_all_pass": True}),
]


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
