"""Reading a run's paired differences and a sequential test's state (standard
library only): the numbers `tresillo tournament` prints under its summary and
`tresillo sprt --out` keeps, with the Elo difference beside the tantos."""

from __future__ import annotations

import csv
import json
import os
from typing import Any

_INTS = {"slot_a", "slot_b", "units", "wins", "draws", "losses"}
_TEXTS = {"agent_a", "agent_b"}


def _cell(name: str, text: str) -> Any:
    if name in _TEXTS:
        return text
    if text == "":
        return None
    return int(text) if name in _INTS else float(text)  # float("inf") for an Elo end at a score of 1


def read_pairs(run_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """A run directory's pairs.csv: one dict per pair of slots A < B with the
    paired difference (``mean``, ``ci95_low``, ``ci95_high``, tantos per unit, A
    minus B), ``los``, ``wins``, ``draws``, ``losses`` and the Elo difference of
    those counts (``elo``, ``elo_low``, ``elo_high``; ``inf``/``-inf`` at a score of 1
    or 0; absent in runs before them). Numbers are ints and floats, an empty cell
    ``None``. Raises ``FileNotFoundError`` naming the file when the run has none
    and ``ValueError`` naming the file and line for a malformed one."""
    path = os.path.join(os.fspath(run_dir), "pairs.csv")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if not reader.fieldnames or reader.fieldnames[:4] != ["slot_a", "agent_a", "slot_b", "agent_b"]:
            raise ValueError(f"{path} line 1: not the header of a pairs.csv")
        rows = []
        for line, row in enumerate(reader, start=2):
            try:
                rows.append({k: _cell(k, v or "") for k, v in row.items()})
            except (TypeError, ValueError):
                raise ValueError(f"{path} line {line}: not a row of a pairs.csv") from None
        return rows


def read_sprt(sprt_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """An ``sprt --out`` directory's sprt.json as a dict: the test, the verdict,
    the ratios and, since issue 55, its ``evidence`` (``wdl``, ``los``, ``elo``,
    ``elo_low``, ``elo_high``) and each look's (in ``looks``, with the look's
    ``compute``: decisions and CPU seconds of A and B). Raises
    ``FileNotFoundError`` naming the file, ``ValueError`` when it is not one."""
    path = os.path.join(os.fspath(sprt_dir), "sprt.json")
    with open(path, encoding="utf-8") as f:
        try:
            state = json.load(f)
        except ValueError as e:
            raise ValueError(f"{path}: not a tresillo sprt state ({e})") from None
    if not isinstance(state, dict) or state.get("tool") != "tresillo" or "looks" not in state:
        raise ValueError(f"{path}: not a tresillo sprt state")
    return state
