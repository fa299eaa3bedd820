#!/usr/bin/env python3
"""CI step (issue 51): `tresillo dataset`'s Parquet files read outside Rust.

Makes two small datasets (three players; four with exploration), and checks that
  - pyarrow reads every column with the documented type (docs/DATASETS.md, the
    same table `tresillo schema dataset` prints), pandas too;
  - the network inputs unpacked by examples/python/dataset_torch.py (numpy) equal,
    value for value, those Rust's `Row::input` gives (`tresillo dataset
    --dump-inputs`);
  - every row's action is legal, its labels are places 0..5, its seat's own hand
    is never a label, and the manifest counts the files' rows;
  - the PyTorch Dataset gives the same inputs, when torch is installed.

    python3 scripts/check-dataset.py            # a python with pyarrow and numpy

The binary is `cargo run --release -q -p tresillo-cli --`, or $TRESILLO.
"""

import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tresillo(*args):
    cmd = shlex.split(os.environ.get("TRESILLO", "cargo run --release -q -p tresillo-cli --"))
    return subprocess.run(cmd + list(args), cwd=ROOT, check=True, capture_output=True, text=True).stdout


def load_example():
    path = os.path.join(ROOT, "examples", "python", "dataset_torch.py")
    spec = importlib.util.spec_from_file_location("dataset_torch", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    ex = load_example()
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    out = os.path.join(os.path.abspath(target), "dataset-check")
    shutil.rmtree(out, ignore_errors=True)
    schema = json.loads(tresillo("schema", "dataset"))
    assert schema["layout"] == ex.LAYOUT and schema["input"]["length"] == ex.INPUT, schema["input"]
    assert schema["input"]["count_positions"] == ex.COUNT_POSITIONS
    assert schema["places"] == ex.PLACES
    arrow_types = {"uint8": "uint8", "uint64": "uint64", "int32": "int32"}
    for name, flags in [
        ("three", ["--deals", "120"]),
        ("four", ["--players", "4", "--agents", "rule,random,rule,rule", "--deals", "80", "--explore", "30"]),
    ]:
        d = os.path.join(out, name)
        tresillo("dataset", "--seed", "7", "--shard-deals", "50", "--quiet", "--out", d, *flags)
        manifest = json.load(open(os.path.join(d, "manifest.json")))
        files = ex.shards(d)
        assert len(files) == len(manifest["shards"]) >= 2, manifest
        total = 0
        for path, rows in files:
            t = pq.read_table(path)
            assert len(t) == rows, (path, len(t), rows)
            total += rows
            # The documented types.
            for c in schema["columns"]:
                have = str(t.schema.field(c["name"]).type)
                want = c["type"]
                if want == "dictionary":
                    assert have.startswith("dictionary<values=string"), (c["name"], have)
                elif want.startswith("fixed_size_binary"):
                    assert have == want, (c["name"], have)
                else:
                    assert have == arrow_types[want], (c["name"], have)
            # Rust's inputs and the example's, value for value.
            n = 40
            dumped = [json.loads(line) for line in tresillo("dataset", "--dump-inputs", path, "--dump-rows", str(n)).splitlines()]
            assert len(dumped) == n
            rust = np.array([r["input"] for r in dumped], dtype=np.float32)
            mine = ex.unpack_inputs(t)[:n]
            assert mine.shape == (n, ex.INPUT), mine.shape
            diff = np.argwhere(rust != mine)
            assert len(diff) == 0, f"{path}: row, value where the inputs differ: {diff[:5].tolist()}"
            assert [r["deal"] for r in dumped] == t.column("deal").to_pylist()[:n]
            # The labels.
            y = ex.labels(t)
            assert y["legal"][np.arange(len(t)), y["action"]].all(), "an action not legal"
            assert y["owners"].min() >= 0 and y["owners"].max() <= 5
            hand = ex.unpack_inputs(t)[:, :40].astype(bool)  # the seat's own hand
            assert not (hand & (y["owners"] != 0)).any(), "a card of the seat's hand labelled"
            assert (y["owners"] != 0).any(axis=1).mean() > 0.5, "most decisions have hidden cards"
            assert set(t.column("agent").to_pylist()) <= set(manifest["agents"])
            df = t.slice(0, 10).to_pandas()
            assert str(df["agent"].dtype) == "category" and df["tantos"].dtype == np.int32
        assert total == manifest["rows"], (total, manifest["rows"])
        batch = next(ex.shard_batches(d, batch_size=64, seed=1))
        assert batch["input"].shape == (64, ex.INPUT) and batch["legal"].shape == (64, ex.NUM_ACTIONS)
        if ex.torch is not None:
            data = ex.DecisionDataset(d)
            assert len(data) == total
            first = ex.unpack_inputs(pq.read_table(files[0][0]))[:5]
            for i in range(5):
                assert np.array_equal(data[i]["input"].numpy(), first[i])
    print("check-dataset: ok" + ("" if ex.torch is not None else " (DecisionDataset not checked: no torch)"))


if __name__ == "__main__":
    main()
