"""The PyTorch examples without PyTorch (CI cannot install it): `--help` works,
and a command stops with one line saying what to install, never a traceback
(examples/python/torch_card_play.py, issue 56; train_locations.py, issue 51)."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")
# Runs a script as __main__ with `import torch` failing, whether or not torch is installed.
NO_TORCH = "import runpy, sys; sys.modules['torch'] = None; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"


def run(*args):
    return subprocess.run([sys.executable, "-c", NO_TORCH, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [[], ["reinforce"], ["imitate"], ["evaluate"]])
def test_card_play_help_needs_no_torch(args):
    r = run(os.path.join(EXAMPLES, "torch_card_play.py"), *args, "--help")
    assert r.returncode == 0, r.stderr
    assert "usage: torch_card_play.py" in r.stdout


@pytest.mark.parametrize(
    "script, args",
    [
        ("torch_card_play.py", ["reinforce", "--minutes", "0.01"]),
        ("torch_card_play.py", ["evaluate", "policy.pt"]),
        ("train_locations.py", ["no-such-dir", "out.safetensors"]),
    ],
)
def test_without_torch_one_line_no_traceback(script, args):
    r = run(os.path.join(EXAMPLES, script), *args)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip().count("\n") == 0 and "pip install torch" in r.stderr, r.stderr


def test_train_locations_help_needs_no_torch():
    r = run(os.path.join(EXAMPLES, "train_locations.py"), "--help")
    assert r.returncode == 0 and "--parity" in r.stdout, r.stderr
