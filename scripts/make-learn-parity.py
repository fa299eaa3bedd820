#!/usr/bin/env python3
"""Writes crates/tresillo-learn/tests/data/parity.safetensors and parity.json: a
small locations model in PyTorch's layout (nn.Linear's `fcK.weight` out x in,
`fcK.bias`), written here with numpy alone in the safetensors format that
`safetensors.torch.save_file` writes, with tresillo's description in the
metadata, plus three inputs and the outputs numpy computes for them. The Rust
test `a_model_written_in_python_gives_the_same_outputs` loads the file and checks
its outputs to 1e-5: the file format and the architecture agree with the
PyTorch twin of examples/python/train_locations.py.

Usage: python3 scripts/make-learn-parity.py   (numpy; the output is committed)
"""
import json
import struct
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "crates/tresillo-learn/tests/data"
INPUT, HIDDEN, OUTPUT = 612, [16], 200

rng = np.random.default_rng(51)
sizes = [INPUT] + HIDDEN + [OUTPUT]
tensors = {}
for k, (i, o) in enumerate(zip(sizes, sizes[1:])):
    bound = 1 / np.sqrt(i)
    tensors[f"fc{k}.weight"] = rng.uniform(-bound, bound, (o, i)).astype(np.float32)
    tensors[f"fc{k}.bias"] = rng.uniform(-bound, bound, o).astype(np.float32)
info = {
    "kind": "locations", "layout": 1, "input": INPUT, "hidden": HIDDEN, "output": OUTPUT,
    "scale": 1.0, "data": "scripts/make-learn-parity.py", "command": "python3 scripts/make-learn-parity.py",
    "seed": 51, "metrics": [],
}
header, offset, blobs = {"__metadata__": {"tresillo": json.dumps(info)}}, 0, []
for name in sorted(tensors):
    b = tensors[name].tobytes()
    header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(b)]}
    offset += len(b)
    blobs.append(b)
h = json.dumps(header, separators=(",", ":")).encode()
h += b" " * (-len(h) % 8)
(OUT / "parity.safetensors").write_bytes(struct.pack("<Q", len(h)) + h + b"".join(blobs))

x = (rng.random((3, INPUT)) < 0.2).astype(np.float32)
a = x.astype(np.float64)
for k in range(len(sizes) - 1):
    a = a @ tensors[f"fc{k}.weight"].astype(np.float64).T + tensors[f"fc{k}.bias"]
    if k < len(sizes) - 2:
        a = np.maximum(a, 0)
json.dump({"inputs": x.tolist(), "outputs": a.astype(np.float32).tolist()}, open(OUT / "parity.json", "w"))
print("wrote", OUT / "parity.safetensors", "and parity.json")
