#!/usr/bin/env python3
"""The PyTorch twin of `tresillo train --kind locations`: the same network (612
inputs, ReLU between nn.Linear layers named fc0, fc1, ...; 40 x 5 outputs, a
softmax per card over its places), the same loss (the mean cross-entropy of each
hidden card's true place), the same held-out deals (10%, by the hash `tresillo
train` uses), trained from a dataset's Parquet rows and saved as a model file the
Rust agents load (`pimc:loc=FILE`). docs/LEARNING.md describes the input layout
and the model file; docs/DATASETS.md the dataset's columns.

    pip install torch safetensors pyarrow numpy
    tresillo dataset --agents rule,rule,rule --deals 30000 --seed 501 --out out/ds
    python examples/python/train_locations.py out/ds loc.safetensors
    tresillo evaluate --model loc.safetensors --deals 300 --seed 9003

`--parity FILE` also writes the outputs PyTorch computes for a few held-out rows
(JSON: `inputs`, `outputs`); crates/tresillo-learn/tests/data/torch-locations.*
were made so (docs/LEARNING.md, "PyTorch"), and a Rust test checks that the Rust
side computes the same outputs from the file, to 1e-5. Not run in CI: PyTorch is
too large to install there.
"""
import argparse
import glob
import json
import os
import sys

INPUT, PLACES = 612, 5
COUNTS = [381, 382, 383, 384, 412, 413, 414, 415]


def fixed(table, name, np):
    """The fixed_size_binary column `name` as a (rows, width) uint8 array."""
    col = table.column(name).combine_chunks()
    width = col.type.byte_width
    values = np.frombuffer(col.buffers()[1], np.uint8)
    return values[col.offset * width : (col.offset + len(col)) * width].reshape(len(col), width)


def inputs(table, np):
    """Row::input of every row: the observation's bits with its counts / 9, then the extra bits."""
    bits = lambda name, n: np.unpackbits(fixed(table, name, np), axis=1, bitorder="little")[:, :n]  # noqa: E731
    x = np.concatenate([bits("obs", 416), bits("extra", 196)], axis=1).astype(np.float32)
    x[:, COUNTS] = fixed(table, "counts", np).astype(np.float32) / np.float32(9)
    return x


def held_out(deals, percent, np):
    """tresillo_learn::data::held_out: splitmix64(deal ^ 0xDDBA11) % 100 < percent."""
    with np.errstate(over="ignore"):
        z = (deals.astype(np.uint64) ^ np.uint64(0x00DDBA11)) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z % np.uint64(100) < np.uint64(percent)


def make_net(torch, hidden):
    """The MLP of tresillo_learn::model::Net: nn.Linear layers fc0, fc1, ..., ReLU between."""

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            sizes = [INPUT, *hidden, 40 * PLACES]
            self.n = len(sizes) - 1
            for k in range(self.n):
                setattr(self, f"fc{k}", torch.nn.Linear(sizes[k], sizes[k + 1]))

        def forward(self, x):
            for k in range(self.n):
                x = getattr(self, f"fc{k}")(x)
                if k < self.n - 1:
                    x = torch.relu(x)
            return x

    return Net()


def loss_of(torch, net, x, y):
    """Mean cross-entropy of each hidden card's place (owners 1..5), and the number of hidden cards."""
    logp = torch.log_softmax(net(x).view(-1, 40, PLACES), -1)
    hidden = y > 0
    nll = -logp.gather(-1, (y.clamp(min=1) - 1).unsqueeze(-1)).squeeze(-1)
    return nll[hidden].sum() / hidden.sum().clamp(min=1), int(hidden.sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="a directory of `tresillo dataset` (rows-*.parquet, manifest.json)")
    ap.add_argument("out", help="the model file to write (safetensors)")
    ap.add_argument("--hidden", default="256,256", help="hidden layers' widths, comma-separated (256,256)")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--held-out", type=int, default=10, help="percent of deals held out for measurement (10)")
    ap.add_argument("--parity", metavar="FILE", help="also write the outputs of the first held-out rows (JSON)")
    ap.add_argument("--parity-rows", type=int, default=3)
    a = ap.parse_args()
    hidden = [int(h) for h in a.hidden.split(",") if h]
    try:
        import numpy as np
        import pyarrow as pa
        import pyarrow.parquet as pq
        import torch
        from safetensors.torch import save_file
    except ImportError as e:
        sys.exit(f"error: {e.name} is not installed: pip install torch safetensors pyarrow numpy")
    files = sorted(glob.glob(os.path.join(a.data, "rows-*.parquet")))
    if not files:
        sys.exit(f"error: {a.data}: no dataset shard (rows-*.parquet) there")
    with open(os.path.join(a.data, "manifest.json")) as f:
        manifest = json.load(f)
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)  # one thread: the same file for a seed
    table = pa.concat_tables([pq.read_table(f, columns=["deal", "obs", "extra", "counts", "owners"]) for f in files])
    x_all = inputs(table, np)
    owners = fixed(table, "owners", np).astype(np.int64)
    keep = (owners > 0).any(axis=1)  # rows with a hidden card (train.rs's `usable`)
    test = held_out(table.column("deal").to_numpy(), a.held_out, np) & keep
    train = ~held_out(table.column("deal").to_numpy(), a.held_out, np) & keep
    x, y = torch.from_numpy(x_all[train]), torch.from_numpy(owners[train])
    xt, yt = torch.from_numpy(x_all[test]), torch.from_numpy(owners[test])
    net = make_net(torch, hidden)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=1e-4)
    for epoch in range(a.epochs):
        order = torch.randperm(len(x))
        total, n = 0.0, 0
        for i in range(0, len(x), a.batch):
            b = order[i : i + a.batch]
            loss, k = loss_of(torch, net, x[b], y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total, n = total + loss.item() * k, n + k
        print(f"epoch {epoch}: training loss {total / max(n, 1):.4f} per hidden card ({len(x)} rows)")
    metrics = [["train_loss", total / max(n, 1)]]
    with torch.no_grad():
        if len(xt):
            tl, _ = loss_of(torch, net, xt, yt)
            # The uniform guess over the places that hold hidden cards (train.rs's uniform_places_loss).
            o = owners[test]
            k = np.stack([(o == p).any(axis=1) for p in range(1, PLACES + 1)], axis=1).sum(axis=1)
            hid = (o > 0).sum(axis=1)
            uniform = float((hid * np.log(k)).sum() / hid.sum())
            metrics += [["test_loss", float(tl)], ["test_loss_uniform_places", uniform]]
            print(f"held out: {len(xt)} rows, loss {float(tl):.4f} per hidden card, uniform over the places {uniform:.4f}")
    rules = manifest.get("rules", "tresillo")
    info = {
        "kind": "locations",
        "layout": manifest.get("layout", 1),
        "input": INPUT,
        "hidden": hidden,
        "output": 40 * PLACES,
        "scale": 1.0,
        "data": f"dataset {a.data}: {manifest['deals']} deals of seed {manifest['seed']} played by "
        f"{','.join(manifest['agents'])} ({rules} {manifest['players']} players), phases all: {int(keep.sum())} rows",
        "command": "python " + " ".join(sys.argv),
        "seed": a.seed,
        "rules": rules.split()[0],
        "players": manifest["players"],
        "metrics": metrics,
    }
    save_file({k: v.contiguous() for k, v in net.state_dict().items()}, a.out, metadata={"tresillo": json.dumps(info)})
    print(f"wrote {a.out}")
    if a.parity:
        rows = xt[: a.parity_rows]
        with torch.no_grad():
            out = net(rows)
        with open(a.parity, "w") as f:
            json.dump({"inputs": rows.tolist(), "outputs": out.tolist()}, f)
            f.write("\n")
        print(f"wrote {a.parity}: the outputs of {len(rows)} held-out rows")


if __name__ == "__main__":
    main()
