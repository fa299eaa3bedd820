"""Training rows of `tresillo dataset` in PyTorch (docs/DATASETS.md).

    tresillo dataset --agents rule,rule,rule --deals 20000 --seed 1 --out data/rule
    python examples/python/dataset_torch.py data/rule

The Parquet shards are read with pyarrow; a row's network input is unpacked
exactly as Rust's `Row::input` does it (612 values: the observation's 416 bits with
its 8 counts divided by 9 at positions 381..385 and 412..416, then 196 extra bits),
so a model trained here sees what `tresillo train`'s and the `net` agent's see.

`unpack_inputs` and `labels` need numpy and pyarrow only (scripts/check-dataset.py
checks them against Rust); `DecisionDataset` is a map-style `torch.utils.data.Dataset`
and `shard_batches` a fast iterator of shuffled batches, shard by shard.
"""

import json
import os
import sys

import numpy as np
import pyarrow.parquet as pq

LAYOUT = 1
OBS_BITS = 416
EXTRA_BITS = 196
INPUT = OBS_BITS + EXTRA_BITS
COUNT_POSITIONS = [381, 382, 383, 384, 412, 413, 414, 415]
NUM_ACTIONS = 153
PLACES = ["known", "next", "second", "third", "heap", "discards"]


def fixed(table, name):
    """The fixed_size_binary column `name` as a (rows, width) uint8 array (no copy)."""
    col = table.column(name).combine_chunks()
    width = col.type.byte_width
    values = np.frombuffer(col.buffers()[1], dtype=np.uint8)
    start = col.offset * width
    return values[start : start + len(col) * width].reshape(len(col), width)


def bits(packed, n):
    """Bit i of each row (bit i % 8 of byte i // 8, least significant first) as 0.0/1.0."""
    return np.unpackbits(packed, axis=-1, bitorder="little")[..., :n].astype(np.float32)


def unpack(obs, counts, extra):
    """Inputs (rows, 612) float32 from the packed `obs`, `counts` and `extra` bytes."""
    x = np.concatenate([bits(obs, OBS_BITS), bits(extra, EXTRA_BITS)], axis=-1)
    x[..., COUNT_POSITIONS] = counts.astype(np.float32) / np.float32(9.0)
    return x


def unpack_inputs(table):
    """The network inputs of every row of a pyarrow table of a shard: (rows, 612) float32."""
    return unpack(fixed(table, "obs"), fixed(table, "counts"), fixed(table, "extra"))


def labels(table):
    """The labels of every row: the action taken, the legal actions (rows, 153) bool,
    each card's place (rows, 40; 0 where the seat knows the card: not a label) and the
    seat's tantos."""
    return {
        "action": table.column("action").to_numpy().astype(np.int64),
        "legal": bits(fixed(table, "legal"), NUM_ACTIONS).astype(bool),
        "owners": fixed(table, "owners").astype(np.int64),
        "tantos": table.column("tantos").to_numpy().astype(np.float32),
    }


def shards(directory):
    """The shard files of a complete dataset directory, checked against its manifest."""
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    if manifest.get("kind") != "dataset":
        raise ValueError(f"{directory}: not a tresillo dataset")
    if manifest["layout"] != LAYOUT:
        raise ValueError(f"{directory}: input layout {manifest['layout']}, this reader knows {LAYOUT}")
    if not manifest["complete"]:
        raise ValueError(f"{directory}: unfinished (tresillo dataset --resume continues it)")
    return [(os.path.join(directory, s["file"]), s["rows"]) for s in manifest["shards"]]


COLUMNS = ["obs", "counts", "extra", "legal", "action", "owners", "tantos"]


def shard_batches(directory, batch_size=4096, shuffle=True, seed=0):
    """Batches of dicts of numpy arrays (`input` and the labels), shard by shard; with
    `shuffle`, the shards in a random order and each shard's rows shuffled. One shard's
    packed columns in memory at a time, each batch unpacked when it is yielded."""
    rng = np.random.default_rng(seed)
    files = shards(directory)
    order = rng.permutation(len(files)) if shuffle else range(len(files))
    for k in order:
        t = pq.read_table(files[k][0], columns=COLUMNS)
        obs, counts, extra = fixed(t, "obs"), fixed(t, "counts"), fixed(t, "extra")
        y = labels(t)
        rows = rng.permutation(len(t)) if shuffle else np.arange(len(t))
        for at in range(0, len(rows), batch_size):
            i = rows[at : at + batch_size]
            batch = {"input": unpack(obs[i], counts[i], extra[i])}
            batch.update({name: v[i] for name, v in y.items()})
            yield batch


try:
    import torch
    from torch.utils.data import Dataset
except ImportError:  # the numpy functions above work without torch
    torch = None
    Dataset = object


class DecisionDataset(Dataset):
    """Every row of a dataset directory, map-style: the packed columns of all shards
    in memory (about 150 bytes a row), each item unpacked when asked for. An item is a
    dict of tensors: `input` (612 float32), `legal` (153 bool), `action` (int64),
    `owners` (40 int64, PLACES), `tantos` (float32)."""

    def __init__(self, directory):
        if torch is None:
            raise ImportError("DecisionDataset needs torch (pip install torch)")
        tables = [pq.read_table(p, columns=COLUMNS) for p, _ in shards(directory)]
        self.obs = np.concatenate([fixed(t, "obs") for t in tables])
        self.counts = np.concatenate([fixed(t, "counts") for t in tables])
        self.extra = np.concatenate([fixed(t, "extra") for t in tables])
        self.legal = np.concatenate([fixed(t, "legal") for t in tables])
        self.owners = np.concatenate([fixed(t, "owners") for t in tables])
        self.action = np.concatenate([t.column("action").to_numpy() for t in tables])
        self.tantos = np.concatenate([t.column("tantos").to_numpy() for t in tables])

    def __len__(self):
        return len(self.action)

    def __getitem__(self, i):
        return {
            "input": torch.from_numpy(unpack(self.obs[i], self.counts[i], self.extra[i])),
            "legal": torch.from_numpy(bits(self.legal[i], NUM_ACTIONS).astype(bool)),
            "action": torch.tensor(int(self.action[i])),
            "owners": torch.from_numpy(self.owners[i].astype(np.int64)),
            "tantos": torch.tensor(float(self.tantos[i])),
        }


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "data/rule"
    batch = next(shard_batches(directory, batch_size=8))
    print("a batch of", len(batch["action"]), "rows:", {k: v.shape for k, v in batch.items()})
    if torch is not None:
        data = DecisionDataset(directory)
        loader = torch.utils.data.DataLoader(data, batch_size=256, shuffle=True)
        first = next(iter(loader))
        print(len(data), "rows; a batch's inputs", tuple(first["input"].shape))


if __name__ == "__main__":
    main()
