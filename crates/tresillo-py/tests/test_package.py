"""The package as a lab installs it (issue 36, defect 9): `tresillo.__version__`,
the `tresillo` command on PATH, and manifests written from Python that carry the
build and the call's arguments as the CLI's carry its command line."""

import json
import os
import shutil
import subprocess
import sys

import tresillo


def test_the_package_has_a_version():
    assert isinstance(tresillo.__version__, str)
    assert tresillo.__version__.count(".") == 2
    from importlib.metadata import version

    assert tresillo.__version__ == version("tresillo")
    # The long form names the commit built from, as `tresillo --version` does.
    assert tresillo.LONG_VERSION.startswith(tresillo.__version__ + " (commit "), tresillo.LONG_VERSION
    assert "LONG_VERSION" in tresillo.__all__


def _command():
    """The `tresillo` command installed beside this interpreter."""
    here = os.path.join(os.path.dirname(sys.executable), "tresillo")
    return here if os.path.exists(here) else shutil.which("tresillo")


def test_the_tresillo_command_is_installed_with_the_package(tmp_path):
    cmd = _command()
    assert cmd, "no tresillo command beside the interpreter"
    out = subprocess.run([cmd, "--version"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert tresillo.__version__ in out.stdout
    # A real subcommand, with the CLI's exit status and one-line errors.
    out = subprocess.run([cmd, "deal", "--seed", "3"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip(), out.stderr
    bad = subprocess.run([cmd, "tournament", "--agents", "nobody,rule,rule", "--deals", "3", "--out",
                          str(tmp_path / "x")], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error:"), bad.stderr
    # Its manifests record its own command line, as the binary's do.
    run = tmp_path / "cli"
    ok = subprocess.run([cmd, "tournament", "--agents", "rule,random,rule", "--deals", "3", "--out", str(run)],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    m = json.loads((run / "manifest.json").read_text())
    assert m["command_line"][:2] == ["tresillo", "tournament"], m["command_line"]


def test_a_manifest_from_python_records_the_build_and_the_arguments(tmp_path):
    tresillo.tournament(["rule", "random", "rule"], 4, tmp_path / "r", seed=9, threads=2, duplicate=True)
    m = json.loads((tmp_path / "r" / "manifest.json").read_text())
    build = m.get("build")
    assert build and len(build["commit"]) in (40, len("unknown")), m
    line = m["command_line"]
    assert line[0] == "python: tresillo.tournament"
    assert "seed=9" in line and "threads=2" in line and "duplicate=True" in line, line
    assert "deals=4" in line and "agents=['rule', 'random', 'rule']" in line, line
