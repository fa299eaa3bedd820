"""Ctrl-C (issue 36, defect 1): SIGINT stops `tresillo.tournament()` at its next
batch with every finished deal kept and the run resumable, and interrupts a long
`Agent.step`. Each case runs in a subprocess (the signal goes to it alone); the
timeouts only keep a regression from hanging the suite."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import tresillo

HANG_GUARD = 300  # seconds: a run that ignores SIGINT would go on far longer


def _interruptible():
    # The child starts as from a terminal, with SIGINT's default action, whatever
    # this process inherited: a shell without job control starts its background
    # commands with SIGINT ignored (as CI's chains are), and Python then installs
    # no KeyboardInterrupt handler, so the signal would be lost and the runs finish.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(code, *args):
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )


def _manifest(out):
    try:
        with open(os.path.join(out, "manifest.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


TOURNAMENT = """
    import sys, tresillo
    try:
        tresillo.tournament(["random", "random", "rule"], int(sys.argv[2]), sys.argv[1], seed=5, threads=1)
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
        sys.exit(3)
    print("finished")
"""


def test_ctrl_c_stops_a_tournament_with_every_finished_deal_kept_and_it_resumes(tmp_path):
    out = str(tmp_path / "run")
    deals = 2_000_000  # far more than the test plays
    p = _start(TOURNAMENT, out, deals)
    try:
        # Wait for a checkpoint with deals in it, then Ctrl-C.
        while p.poll() is None:
            m = _manifest(out)
            if m and m["deals_completed"] > 0:
                break
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=HANG_GUARD)
    finally:
        p.kill()
    assert p.returncode == 3, (stdout, stderr)
    assert "KeyboardInterrupt" in stdout
    assert "finished deals kept" in stderr, stderr
    m = _manifest(out)
    assert not m["complete"] and 0 < m["deals_completed"] < deals, m
    with open(os.path.join(out, "deals.csv")) as f:
        rows = sum(1 for _ in f) - 1
    assert rows == m["deals_completed"]  # every deal the manifest counts is there

    # The directory resumes (a shorter run: the same configuration is required,
    # so resume the interrupted one with its own deal count but check it only
    # continues from where it stopped).
    kept = m["deals_completed"]
    p = _start(
        """
        import sys, tresillo, signal
        tresillo.tournament(["random", "random", "rule"], int(sys.argv[2]), sys.argv[1], seed=5, threads=1,
                            resume=True)
        """,
        out,
        deals,
    )
    try:
        while p.poll() is None:
            m = _manifest(out)
            if m and m["deals_completed"] > kept:
                break
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=HANG_GUARD)
    finally:
        p.kill()
    m = _manifest(out)
    assert kept < m["deals_completed"] < deals and not m["complete"], m


def test_a_tournament_interrupted_and_resumed_writes_the_uninterrupted_files(tmp_path):
    # Small enough to finish: interrupted as soon as it has a checkpoint.
    deals = 30_000
    cut, whole = str(tmp_path / "cut"), str(tmp_path / "whole")
    p = _start(TOURNAMENT, cut, deals)
    try:
        while p.poll() is None:
            m = _manifest(cut)
            if m and m["deals_completed"] > 0:
                break
            time.sleep(0.02)
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=HANG_GUARD)
    finally:
        p.kill()
    if p.returncode == 3:  # interrupted (not finished before the signal came)
        assert not _manifest(cut)["complete"]
    tresillo.tournament(["random", "random", "rule"], deals, cut, seed=5, threads=1, resume=True)
    tresillo.tournament(["random", "random", "rule"], deals, whole, seed=5, threads=1)
    for name in ("deals.csv", "summary.csv", "stats.json"):
        with open(os.path.join(cut, name), "rb") as a, open(os.path.join(whole, name), "rb") as b:
            assert a.read() == b.read(), name


def test_ctrl_c_interrupts_a_long_agent_step():
    p = _start(
        """
        import sys, tresillo
        game = tresillo.Game("tresillo")
        rule = tresillo.Agent("rule")
        for seed in range(1, 100):  # a hand played out, at its first card
            state = game.new_initial_state(seed=seed)
            while not state.is_terminal() and not all(a < 40 for a in state.legal_actions()):
                state.apply_action(rule.step(state))
            if not state.is_terminal():
                break
        slow = tresillo.Agent("pimc:worlds=100000")  # minutes per decision
        print("searching", flush=True)
        try:
            slow.step(state)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            # The agent is still usable: its next step starts the hand afresh.
            state2 = game.new_initial_state(seed=4)
            print(tresillo.Agent("rule").step(state2) in state2.legal_actions())
            sys.exit(3)
        print("finished")
        """
    )
    try:
        assert p.stdout.readline().strip() == "searching"
        time.sleep(0.5)  # into the search
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=HANG_GUARD)
    finally:
        p.kill()
    assert p.returncode == 3, (stdout, stderr)
    assert stdout.split() == ["KeyboardInterrupt", "True"], (stdout, stderr)
