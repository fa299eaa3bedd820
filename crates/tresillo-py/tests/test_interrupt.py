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


def _interrupt_after(p, ready, delay):
    """Waits for the line `ready`, sleeps `delay`, sends SIGINT; returns the
    child's output, its exit status and the seconds it took to exit after it."""
    try:
        assert p.stdout.readline().strip() == ready
        time.sleep(delay)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=HANG_GUARD)
        return stdout, stderr, time.monotonic() - sent
    finally:
        p.kill()


def test_ctrl_c_stops_a_tournament_of_slow_deals_within_a_second(tmp_path):
    # Issue 56, defect 2: it stopped after 182 s, when the deals in progress ended.
    out = str(tmp_path / "slow")
    p = _start(
        """
        import sys, time, tresillo
        print("started", flush=True)
        t0 = time.monotonic()
        try:
            tresillo.tournament(["pimc:worlds=100000", "rule", "rule"], 40, sys.argv[1], duplicate=True, threads=2)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            sys.exit(3)
        """,
        out,
    )
    stdout, stderr, took = _interrupt_after(p, "started", 2.0)
    assert p.returncode == 3, (stdout, stderr)
    assert took < 2.0, f"{took:.2f} s after SIGINT"  # about 0.1 s measured; slack for a loaded machine
    assert "finished deals kept" in stderr and "tresillo/__init__.py" not in stderr, stderr
    m = _manifest(out)
    with open(os.path.join(out, "deals.csv")) as f:
        rows = sum(1 for _ in f) - 1
    assert rows == 6 * m["deals_completed"]  # every finished deal, in its 6 seatings


def test_an_interrupted_step_stops_its_search_and_the_agent_is_usable_at_once():
    # Issue 56, defect 3: the same agent's next step waited for the old search (169 s).
    p = _start(
        """
        import sys, time, tresillo
        game = tresillo.Game("tresillo")
        rule = tresillo.Agent("rule")
        for seed in range(1, 100):  # a hand played out, at its first card
            state = game.new_initial_state(seed=seed)
            while not state.is_terminal() and not all(a < 40 for a in state.legal_actions()):
                state.apply_action(rule.step(state))
            if not state.is_terminal():
                break
        agents = [tresillo.Agent("pimc:worlds=100000"), tresillo.Agent("ismcts:iters=10000000")]
        for agent in agents:
            print("searching", flush=True)
            try:
                agent.step(state)
                print("finished", flush=True)
            except KeyboardInterrupt:
                t0 = time.monotonic()
                fresh = game.new_initial_state(seed=4)  # a bid: no search
                a = agent.step(fresh)
                print("next step", a in fresh.legal_actions(), f"{time.monotonic() - t0:.3f}", flush=True)
        """
    )
    try:
        for _ in range(2):
            assert p.stdout.readline().strip() == "searching"
            time.sleep(0.5)
            sent = time.monotonic()
            p.send_signal(signal.SIGINT)
            line = p.stdout.readline().split()
            took = time.monotonic() - sent
            assert line[:3] == ["next", "step", "True"], (line, p.stderr.read() if p.poll() is not None else "")
            assert float(line[3]) < 0.5 and took < 2.0, (line, took)
        p.communicate(timeout=HANG_GUARD)
    finally:
        p.kill()
    assert p.returncode == 0


def test_a_second_ctrl_c_returns_at_once_when_the_first_cannot_stop_a_python_agent(tmp_path):
    # A Python agent that sleeps cannot be cut short: the first Ctrl-C asks the
    # run to stop, the second returns at once (it was ignored).
    out = str(tmp_path / "py")
    p = _start(
        """
        import os, sys, time, tresillo
        def sleepy(view):
            time.sleep(60)
            return view.legal_actions()[0]
        print("started", flush=True)
        try:
            tresillo.tournament([sleepy, "rule", "rule"], 10, sys.argv[1], threads=1)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            os._exit(3)  # the run's thread still sleeps in the agent
        """,
        out,
    )
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.0)
        p.send_signal(signal.SIGINT)
        time.sleep(0.5)
        assert p.poll() is None  # the first asks the run to stop and waits
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=HANG_GUARD)
        took = time.monotonic() - sent
    finally:
        p.kill()
    assert p.returncode == 3 and "KeyboardInterrupt" in stdout, (stdout, stderr)
    assert took < 2.0 and "interrupted again" in stderr, (took, stderr)
