"""Reading run directories into pandas (the optional extra `tresillo[pandas]`)."""

from __future__ import annotations

import os
from typing import Any

# deals.csv's columns (docs/FORMATS.md) with pandas dtypes; nullable integers
# where the CSV leaves a cell empty.
_INT = "int64"
_NINT = "Int64"
_STR = "string"
DEALS_DTYPES: dict[str, str] = {
    "deal": _INT,
    "deal_seed": "uint64",
    "seating": _STR,
    "rules": "category",
    "agent0": "category",
    "agent1": "category",
    "agent2": "category",
    "dealer": _INT,
    "bids": _STR,
    "contract": "category",
    "trump": "category",
    "declarer": _NINT,
    "declarer_agent": "category",
    "forced": _INT,
    "exchanged0": _NINT,
    "exchanged1": _NINT,
    "exchanged2": _NINT,
    "first_opponent": _NINT,
    "tricks0": _INT,
    "tricks1": _INT,
    "tricks2": _INT,
    "outcome": "category",
    "puesta_kind": "category",
    "codillo_winner": _NINT,
    "surrendered": _NINT,
    "took_over": _NINT,
    "primeras": _INT,
    "bola": "category",
    "estuche": _INT,
    "aip": _NINT,
    "pool0": _INT,
    "cond0": _INT,
    "pool1": _INT,
    "cond1": _INT,
    "pool2": _INT,
    "cond2": _INT,
    "debt0": _NINT,
    "debt1": _NINT,
    "debt2": _NINT,
    "players": _INT,
    "agent3": "category",
    "exchanged3": _NINT,
    "tricks3": _NINT,
    "pool3": _NINT,
    "cond3": _NINT,
    "debt3": _NINT,
    "penetro": _NINT,
    "dropped_out": _NINT,
    "gascarille": _NINT,
    "vole_declared": _NINT,
}


def _verify(run_dir: str, name: str) -> None:
    """Raise ValueError (one line naming the file) when the run's manifest records a
    checksum of `name` (CRC-32, as zlib computes it) that its bytes do not have:
    of the whole file for a complete run, of the first ``csv_bytes`` bytes of
    deals.csv for a run still playing. Runs without checksums are read as they are."""
    import json
    import zlib

    try:
        with open(os.path.join(run_dir, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return
    sums = manifest.get("crc32") if isinstance(manifest, dict) else None
    want = sums.get(name) if isinstance(sums, dict) else None
    if not isinstance(want, str):
        return
    left = None if manifest.get("complete") is True else manifest.get("csv_bytes")
    path = os.path.join(run_dir, name)
    crc = 0
    with open(path, "rb") as f:
        while left is None or left > 0:
            block = f.read(1 << 20 if left is None else min(1 << 20, left))
            if not block:
                break
            crc = zlib.crc32(block, crc)
            if left is not None:
                left -= len(block)
    if format(crc, "08x") != want:
        raise ValueError(
            f"{path}: its bytes do not match the checksum its manifest records (crc32 {want}, "
            f"found {format(crc, '08x')}): the file was changed or damaged"
        )


def read_deals(run_dir: str | os.PathLike[str]) -> Any:
    """Return a run directory's deals as a pandas DataFrame with typed columns.

    Reads deals.csv, or deals.parquet when the run has no deals.csv (a run made
    with ``format="parquet"``; reading it needs pyarrow). Either way the frame is
    the same: integers stay integers (nullable ``Int64`` where a cell is empty),
    names are categories. Columns this version does not know keep pandas' guess.
    Raises ``FileNotFoundError`` naming the file when the run has neither file
    and ``ImportError`` with the install command when pandas (or, for Parquet,
    pyarrow) is missing.
    """
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("tresillo.read_deals needs pandas: pip install pandas") from e
    run_dir = os.fspath(run_dir)
    path = os.path.join(run_dir, "deals.csv")
    if os.path.exists(path):
        _verify(run_dir, "deals.csv")
        header = pd.read_csv(path, nrows=0).columns
        dtypes = {c: t for c, t in DEALS_DTYPES.items() if c in header}
        return pd.read_csv(path, dtype=dtypes, keep_default_na=False, na_values={c: [""] for c in header})
    parquet = os.path.join(run_dir, "deals.parquet")
    if not os.path.exists(parquet):
        raise FileNotFoundError(f"{path}: no such file, nor deals.parquet (is {run_dir} a run directory?)")
    try:
        import pyarrow  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"{parquet}: reading Parquet needs pyarrow: pip install pyarrow") from e
    _verify(run_dir, "deals.parquet")
    df = pd.read_parquet(parquet)
    for c, t in DEALS_DTYPES.items():
        if c not in df.columns:
            continue
        if t == "category":
            # The file's dictionary order is first appearance; the CSV reader's is sorted.
            df[c] = df[c].astype("object").astype("category")
        else:
            df[c] = df[c].astype(t)
    return df
