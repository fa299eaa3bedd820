"""Reading run directories into pandas (the optional extra `tresillo[pandas]`)."""

from __future__ import annotations

import os
from typing import Any

from ._tresillo import contract_families as _contract_families
from ._tresillo import deals_columns as _deals_columns

# The pandas dtype of each column kind of deals.csv, `(kind, nullable) -> dtype`:
# the one mapping from the columns' definition in Rust (tresillo_sim::schema,
# `tresillo schema deals`, docs/deals-columns.json) to the frame's dtypes.
# Integers stay integers: u64 (the deal and its seed) as uint64, u8 (seats, counts,
# flags) and i64 (tantos) as int64, so that differences of small counts do not wrap;
# a column a row may leave empty takes pandas' nullable type (UInt64, Int64).
# Names from a small set are categories, free texts strings.
KIND_DTYPES: dict[tuple[str, bool], str] = {
    ("u64", False): "uint64",
    ("u64", True): "UInt64",
    ("u8", False): "int64",
    ("u8", True): "Int64",
    ("i64", False): "int64",
    ("i64", True): "Int64",
    ("name", False): "category",
    ("name", True): "category",
    ("text", False): "string",
    ("text", True): "string",
}

# deals.csv's columns in order, each with its pandas dtype (docs/FORMATS.md).
DEALS_DTYPES: dict[str, str] = {name: KIND_DTYPES[(kind, nullable)] for name, kind, nullable in _deals_columns()}

# Each contract of the `contract` column with its family, the summary column it
# counts in (`Contract::family`; hombre's contrabola is its own).
CONTRACT_FAMILIES: dict[str, str] = dict(_contract_families())


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
    the same, each column of the dtype ``DEALS_DTYPES`` gives it (from the
    columns' one definition, through ``KIND_DTYPES``): integers stay integers
    (pandas' nullable ``Int64``/``UInt64`` where a row may leave the cell empty),
    names are categories, texts strings. Columns this version does not know keep
    pandas' guess.
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
        # Categories are read as text first (pandas would make `012` the number 12),
        # then made categories as the Parquet branch makes them, from objects.
        names = [c for c, t in dtypes.items() if t == "category"]
        df = pd.read_csv(
            path,
            dtype={**dtypes, **dict.fromkeys(names, str)},
            keep_default_na=False,
            na_values={c: [""] for c in header},
        )
        for c in names:
            df[c] = df[c].astype("object").astype("category")
        return df
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
