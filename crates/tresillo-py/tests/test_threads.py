"""One `tresillo.Agent` stepped from several Python threads (issue 36, defect
2): the steps take turns instead of deadlocking (the agent's lock used to be
taken while holding the interpreter's lock, then the search released it). Run
in a subprocess so that a deadlock fails the test instead of hanging the suite."""

import subprocess
import sys
import textwrap

HANG_GUARD = 300  # seconds; the whole script takes a few when it works

SCRIPT = """
    import threading, tresillo
    game = tresillo.Game("tresillo")
    agent = tresillo.Agent(SPEC)
    errors = []

    def play(seed):
        try:
            for s in range(seed, seed + 3):
                state = game.new_initial_state(seed=s)
                while not state.is_terminal():
                    state.apply_action(agent.step(state))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=play, args=(10 * i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("errors", errors)
"""


def _run(spec):
    code = f"SPEC = {spec!r}\n" + textwrap.dedent(SCRIPT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_GUARD)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "errors []", out.stdout


def test_one_search_agent_stepped_from_three_threads_does_not_deadlock():
    _run("pimc:worlds=64")


def test_one_fast_agent_stepped_from_three_threads_does_not_deadlock():
    _run("rule")


def test_one_agent_with_a_python_likelihood_stepped_from_two_threads_does_not_deadlock():
    code = textwrap.dedent(
        """
        import threading, tresillo
        game = tresillo.Game("tresillo")
        agent = tresillo.Agent("pimc:worlds=16", likelihood=lambda view, world: 0.0)

        def play(seed):
            state = game.new_initial_state(seed=seed)
            while not state.is_terminal():
                state.apply_action(agent.step(state))

        threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print("done")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_GUARD)
    assert out.returncode == 0 and out.stdout.strip() == "done", out.stderr
