"""The PyTorch twin of `tresillo train --kind locations`: the same network (612
inputs, ReLU between nn.Linear layers named fc0, fc1, ...; 40 x 5 outputs, a
softmax per card), trained from a dataset's rows, saved as a model file that the
Rust agents load (`pimc:loc=FILE`). docs/LEARNING.md describes the input layout
and the rows; docs/DATASETS.md the dataset's Parquet columns.

    pip install torch safetensors pyarrow numpy
    tresillo dataset --agents rule,rule,rule --deals 30000 --seed 501 --out out/ds
    python examples/python/train_locations.py out/ds loc.safetensors
    tresillo evaluate --model loc.safetensors --deals 300 --seed 9003

Not run in CI (PyTorch is large); scripts/make-learn-parity.py writes a file of
this layout with numpy, and a Rust test checks its outputs to 1e-5.
"""
import glob
import json
import sys

import numpy as np
import pyarrow.parquet as pq
import torch
from safetensors.torch import save_file

INPUT, PLACES = 612, 5
COUNTS = [381, 382, 383, 384, 412, 413, 414, 415]


def inputs(table):
    """Row::input of every row: the observation's bits, its counts / 9, the extra bits."""
    n = table.num_rows
    obs = np.frombuffer(b"".join(table.column("obs").to_pylist()), np.uint8).reshape(n, -1)
    extra = np.frombuffer(b"".join(table.column("extra").to_pylist()), np.uint8).reshape(n, -1)
    counts = np.frombuffer(b"".join(table.column("counts").to_pylist()), np.uint8).reshape(n, -1)
    x = np.concatenate(
        [np.unpackbits(obs, axis=1, bitorder="little")[:, :416], np.unpackbits(extra, axis=1, bitorder="little")[:, :196]],
        axis=1,
    ).astype(np.float32)
    x[:, COUNTS] = counts / 9.0
    return x


class Net(torch.nn.Module):
    def __init__(self, hidden=(256, 256)):
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


def main(data, out, epochs=2, hidden=(256, 256)):
    torch.manual_seed(1)
    table = pq.read_table(sorted(glob.glob(f"{data}/*.parquet")), columns=["obs", "extra", "counts", "owners"])
    x = torch.from_numpy(inputs(table))
    owners = np.frombuffer(b"".join(table.column("owners").to_pylist()), np.uint8).reshape(table.num_rows, 40)
    y = torch.from_numpy(owners.astype(np.int64))
    net = Net(hidden)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    for epoch in range(epochs):
        order = torch.randperm(len(x))
        for i in range(0, len(x), 256):
            b = order[i : i + 256]
            logp = torch.log_softmax(net(x[b]).view(-1, 40, PLACES), -1)
            t = y[b]
            hidden_cards = t > 0
            loss = -logp.gather(-1, (t.clamp(min=1) - 1).unsqueeze(-1)).squeeze(-1)[hidden_cards].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    info = {
        "kind": "locations", "layout": 1, "input": INPUT, "hidden": list(hidden), "output": 40 * PLACES,
        "scale": 1.0, "data": data, "command": " ".join(sys.argv), "seed": 1, "metrics": [],
    }
    save_file({k: v.contiguous() for k, v in net.state_dict().items()}, out, metadata={"tresillo": json.dumps(info)})


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
