"""Reading the training rows of ``tresillo dataset`` (docs/DATASETS.md,
docs/LEARNING.md) as NumPy arrays, the networks' inputs unpacked exactly as the
Rust side's ``Row::input`` unpacks them."""
from __future__ import annotations

import glob
import os
from typing import Any

#: The observation tensor's count positions (tricks won, cards exchanged per
#: relative seat), stored undivided in the ``counts`` column.
COUNT_POSITIONS = [381, 382, 383, 384, 412, 413, 414, 415]
OBS, EXTRA = 416, 196
#: A network's input length (input layout 1).
INPUT = OBS + EXTRA


def _bytes(table: Any, name: str, np: Any) -> Any:
    col = table.column(name).combine_chunks()
    width = col.type.byte_width
    return np.frombuffer(col.buffers()[1], np.uint8)[col.offset * width : (col.offset + len(col)) * width].reshape(
        len(col), width
    )


def read_dataset(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Return the rows of a dataset directory (every ``rows-*.parquet`` shard in
    order) or of one shard as a dict of NumPy arrays: ``inputs`` (N, 612)
    float32, ``legal`` (N, 153) bool, ``owners`` (N, 40) uint8 (0 a card the seat
    knows; 1-3 the next, second, third seat's hand; 4 the heap; 5 another seat's
    discards), and every other column (``deal``, ``seed``, ``seat``, ``slot``,
    ``phase``, ``action``, ``tantos``, ...) as a 1-D array.

    Raises ``FileNotFoundError`` naming the path when it holds no shard, and
    ``ImportError`` with the install command when NumPy or pyarrow is missing.
    """
    try:
        import numpy as np
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("tresillo.read_dataset needs numpy and pyarrow: pip install numpy pyarrow") from e
    path = os.fspath(path)
    files = sorted(glob.glob(os.path.join(path, "rows-*.parquet"))) if os.path.isdir(path) else [path]
    if not files or not all(os.path.exists(f) for f in files):
        raise FileNotFoundError(f"{path}: no dataset shard (rows-*.parquet) there")
    table = pa.concat_tables([pq.read_table(f) for f in files])
    n = table.num_rows
    obs = np.unpackbits(_bytes(table, "obs", np), axis=1, bitorder="little")[:, :OBS]
    extra = np.unpackbits(_bytes(table, "extra", np), axis=1, bitorder="little")[:, :EXTRA]
    inputs = np.concatenate([obs, extra], axis=1).astype(np.float32)
    inputs[:, COUNT_POSITIONS] = _bytes(table, "counts", np) / np.float32(9.0)
    out: dict[str, Any] = {
        "inputs": inputs,
        "legal": np.unpackbits(_bytes(table, "legal", np), axis=1, bitorder="little")[:, :153].astype(bool),
        "owners": _bytes(table, "owners", np).copy(),
    }
    for name in table.column_names:
        if name not in ("obs", "extra", "counts", "legal", "owners"):
            out[name] = table.column(name).to_numpy(zero_copy_only=False)
    assert all(len(v) == n for v in out.values())
    return out
