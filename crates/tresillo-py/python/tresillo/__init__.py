"""Tresillo, Hombre and L'Hombre from Python: the tresillo toolkit's engine and
agents (written in Rust), with OpenSpiel and PettingZoo front ends.

>>> import tresillo
>>> game = tresillo.Game(rules="tresillo", players=3)
>>> state = game.new_initial_state(seed=1)
>>> pimc = tresillo.Agent("pimc:worlds=8")
>>> while not state.is_terminal():
...     state.apply_action(pimc.step(state))
>>> len(state.returns())
3

See docs/PYTHON.md for the action space, the observation and the integrations
(`tresillo.openspiel`, `tresillo.pettingzoo`).
"""

import csv as _csv
import os as _os
import warnings as _warnings

from ._tresillo import (
    CHANCE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    TERMINAL,
    Agent,
    Game,
    SeatView,
    State,
    World,
    _tournament,
    agents,
    rule_sets,
)
from .analysis import read_deals


def _option_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def tournament(
    agents,
    deals,
    out,
    duplicate=False,
    rules="tresillo",
    players=None,
    options=None,
    seed=1,
    scoring="deal",
    shard=None,
    threads=None,
    resume=False,
    force=False,
    record=None,
    progress=False,
    bidding=None,
    ms_per_decision=None,
    format="csv",
):
    """Play a tournament with the Rust runner into the run directory ``out`` and
    return its summary rows (summary.csv as a list of dicts).

    ``agents``: one per seat slot; each a spec of ``tresillo agents``
    (``"pimc:worlds=32"``), a Python callable ``f(seat_view) -> action id`` (named
    by its ``name`` attribute or ``__name__``), a ``(name, callable)`` pair, or a
    ``(name, tresillo.Agent(spec, likelihood=model))`` pair: a built-in agent
    weighting its worlds by a Python model (one call per sampled world, under the
    interpreter's lock; a model that fails stops the run as a failing agent does). A
    callable sees a ``tresillo.SeatView``: only its seat's view (``legal_actions()``,
    ``observation_tensor()``, ``information_state_string()``, ``view()``). The run
    writes deals.csv, summary.csv, stats.json and manifest.json exactly as
    ``tresillo tournament`` does: deterministic whatever ``threads``, resumable
    (``resume=True``), ``force=True`` replaces a run there. Built-in agents play in
    parallel without the GIL; Python agents are called under it, one at a time.
    If a Python agent raises or answers an illegal action, a ``RuntimeError``
    names it and the seat; every finished deal is kept and ``resume=True``
    continues.

    ``bidding``: an agent spec that makes every seat's auction, contract, exchange
    and conversation decisions, so the seated agents differ only in card play
    (``bidding="rule"``). ``ms_per_decision``: equal time, each search agent
    (``pimc``, ``ismcts``) gets that many milliseconds per decision; such a run
    does not reproduce, and a ``UserWarning`` says so. ``format``: ``"csv"``
    (deals.csv), ``"parquet"`` (deals.parquet) or ``"both"``; ``read_deals``
    reads either. The same options as ``tresillo tournament``'s ``--bidding``,
    ``--ms-per-decision`` and ``--format``, with the same files.
    """
    slots = []
    for a in agents:
        if isinstance(a, str):
            slots.append(a)
        elif isinstance(a, Agent):
            if a.likelihood is not None:
                raise ValueError(f"agent {a!r}: an agent with a likelihood is seated as a (name, agent) pair")
            slots.append(a.spec)
        elif isinstance(a, tuple):
            slots.append(a)
        elif callable(a):
            slots.append((getattr(a, "name", None) or getattr(a, "__name__", None) or "python", a))
        else:
            raise ValueError(f"agent {a!r}: a spec string, a callable or a (name, callable) pair")
    opts = [(k, _option_text(v)) for k, v in (options or {}).items()]
    _table, notes = _tournament(
        slots,
        deals,
        _os.fspath(out),
        duplicate=duplicate,
        rules=rules,
        players=players if players is not None else len(slots),
        options=opts,
        seed=seed,
        scoring=scoring,
        shard=shard,
        threads=threads,
        resume=resume,
        force=force,
        record=None if record is None else _os.fspath(record),
        progress=progress,
        bidding=bidding,
        ms_per_decision=ms_per_decision,
        format=format,
    )
    for line in notes:
        _warnings.warn(line.removeprefix("note: "), stacklevel=2)
    with open(_os.path.join(_os.fspath(out), "summary.csv"), newline="") as f:
        return list(_csv.DictReader(f))

__all__ = [
    "CHANCE",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "TERMINAL",
    "Agent",
    "Game",
    "SeatView",
    "State",
    "World",
    "agents",
    "read_deals",
    "rule_sets",
    "tournament",
]
