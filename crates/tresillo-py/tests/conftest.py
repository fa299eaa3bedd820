"""Shared helpers. With TRESILLO_PY_STRICT=1 (as CI sets it) an optional
integration that cannot be imported fails instead of skipping."""

import os
import shutil
import subprocess

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


def tresillo_bin():
    """The `tresillo` binary of this checkout (TRESILLO_BIN, else target/release
    or target/debug), or a skip (a failure under STRICT)."""
    candidates = [os.environ.get("TRESILLO_BIN")]
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    candidates += [os.path.join(target, p, "tresillo") for p in ("release", "debug")]
    for c in candidates:
        if c and os.path.exists(c):
            return c
    if shutil.which("tresillo"):
        return shutil.which("tresillo")
    msg = "no tresillo binary: cargo build --release -p tresillo-cli"
    if STRICT:
        pytest.fail(msg)
    pytest.skip(msg)


def run_cli(*args):
    """Runs the binary; returns its standard output."""
    out = subprocess.run([tresillo_bin(), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout
