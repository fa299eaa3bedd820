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
import numbers as _numbers
import os as _os
import warnings as _warnings

from ._tresillo import (
    __version__,
    LONG_VERSION,
    CHANCE,
    NUM_ACTIONS,
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    TERMINAL,
    Agent,
    Game,
    SeatView,
    State,
    VectorEnv,
    World,
    _tournament,
    agents,
    register_rule_set,
    rule_sets,
)
from .analysis import read_deals
from .dataset import read_dataset
from .results import read_pairs, read_sprt


def _option_text(name, v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (str, _numbers.Integral)):
        return str(v)
    raise TypeError(f"options[{name!r}]: expected a string, a bool or an int, got {type(v).__name__}")


_U64 = 2**64 - 1


def _int(name, v, lo, hi, range_words=None):
    """``v`` as an int in ``lo..=hi``: a TypeError for what is not an int (a bool
    neither), a ValueError naming ``name`` outside the range."""
    if isinstance(v, bool) or not isinstance(v, _numbers.Integral):
        raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    v = int(v)
    if not lo <= v <= hi:
        raise ValueError(f"{name}={v}: expected {range_words or f'{lo} to {hi}'}")
    return v


def _path(name, v):
    try:
        p = _os.fspath(v)
    except TypeError:
        raise TypeError(f"{name}: expected a path (str or os.PathLike), got {type(v).__name__}") from None
    if isinstance(p, bytes):
        p = _os.fsdecode(p)
    if not p:
        raise ValueError(f"{name}: an empty path; name the directory (out='.' for the current one)")
    return p


def _check_record(record, out):
    p = _path("record", record)
    parent = _os.path.dirname(_os.path.abspath(p))
    if not _os.path.isdir(parent):
        raise ValueError(f"record={p!r}: no directory {parent}")
    if _os.path.isdir(p):
        raise ValueError(f"record={p!r}: a directory, not a file")
    return p


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
    bidding_covers=None,
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
    (``bidding="rule"``); ``bidding_covers="all"`` gives it every decision but
    card play (surrender, takeover and bola too), so the seated agents decide card
    play alone. ``ms_per_decision``: equal time, each search agent
    (``pimc``, ``ismcts``) gets that many milliseconds per decision; such a run
    does not reproduce, and a ``UserWarning`` says so. ``format``: ``"csv"``
    (deals.csv), ``"parquet"`` (deals.parquet) or ``"both"``; ``read_deals``
    reads either. The same options as ``tresillo tournament``'s ``--bidding``,
    ``--bidding-covers``, ``--ms-per-decision`` and ``--format``, with the same
    files.
    """
    out = _path("out", out)
    deals = _int("deals", deals, 0, _U64, "0 to 2**64-1")
    seed = _int("seed", seed, 0, _U64, "0 to 2**64-1")
    if threads is not None:
        threads = _int("threads", threads, 1, 1024, "1 to 1024 worker threads, or None for every core")
    if players is not None:
        players = _int("players", players, 3, 4, "3 or 4")
    if ms_per_decision is not None:
        ms_per_decision = _int("ms_per_decision", ms_per_decision, 1, 2**32 - 1, "at least 1 millisecond")
    for name, flag in (("duplicate", duplicate), ("resume", resume), ("force", force), ("progress", progress)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name}: expected a bool, got {type(flag).__name__}")
    if record is not None:
        record = _check_record(record, out)
    if isinstance(agents, (str, bytes)) or not hasattr(agents, "__iter__"):
        raise TypeError("agents: expected a list of agents, one per seat slot")
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"options: expected a dict, got {type(options).__name__}")
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
            raise TypeError(f"agent {a!r}: a spec string, a callable or a (name, callable) pair")
    opts = [(k, _option_text(k, v)) for k, v in (options or {}).items()]
    # The manifest records the call as the CLI records its command line: every
    # argument, a Python agent by its name.
    shown = [s if isinstance(s, str) else (s[0], "python") for s in slots]
    call = [f"agents={shown!r}", f"deals={deals}", f"out={out!r}"]
    given = dict(duplicate=duplicate, rules=rules, players=players, options=options, seed=seed, scoring=scoring,
                 shard=shard, threads=threads, resume=resume, force=force, record=record, progress=progress,
                 bidding=bidding, ms_per_decision=ms_per_decision, format=format)
    if bidding_covers is not None:
        given["bidding_covers"] = bidding_covers
    call += [f"{k}={v!r}" for k, v in given.items()]
    _table, notes = _tournament(
        slots,
        deals,
        out,
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
        record=record,
        progress=progress,
        bidding=bidding,
        ms_per_decision=ms_per_decision,
        format=format,
        call=call,
        bidding_covers=bidding_covers,
    )
    for line in notes:
        _warnings.warn(line.removeprefix("note: "), stacklevel=2)
    with open(_os.path.join(out, "summary.csv"), newline="") as f:
        return list(_csv.DictReader(f))

__all__ = [
    "__version__",
    "LONG_VERSION",
    "CHANCE",
    "NUM_ACTIONS",
    "INFORMATION_STATE_SIZE",
    "OBSERVATION_SIZE",
    "TERMINAL",
    "Agent",
    "Game",
    "SeatView",
    "State",
    "VectorEnv",
    "World",
    "agents",
    "read_dataset",
    "read_deals",
    "read_pairs",
    "read_sprt",
    "register_rule_set",
    "rule_sets",
    "tournament",
]
