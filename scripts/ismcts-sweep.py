#!/usr/bin/env python3
"""Collects the ISMCTS sweep (experiments/ismcts-sweep-c*.toml) into one CSV:
results/ismcts-sweep/sweep.csv, one row per (c, iterations) with the mean tantos per
deal against rule, rule, its 95% CI, the paired difference against 1,000 iterations
at the same c, and the time per decision at the first card of a hand measured by
`tresillo bench ismcts` (one thread) on this machine now.

Usage (from the repository root, after the three experiments):
    python3 scripts/ismcts-sweep.py [TRESILLO_BINARY]
"""
import csv
import re
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/tresillo"
CS = ["0.35", "0.7", "1.4"]
DIR = "results/ismcts-sweep"

ms = {}
for c in CS:
    out = subprocess.run(
        [BIN, "bench", "ismcts", "--agent", f"ismcts:c={c}", "--iters", "250,1000,4000", "--n", "400000"],
        check=True, capture_output=True, text=True,
    ).stdout
    for m in re.finditer(r"^(\d+) iterations: \d+ it/s \(\d+ searches, ([0-9.]+) ms each", out, re.M):
        ms[(c, m.group(1))] = m.group(2)

rows = []
for c in CS:
    with open(f"{DIR}/c{c}.csv", newline="") as f:
        for r in csv.DictReader(f):
            rows.append({
                "c": c,
                "iters": r["iters"],
                "first_card_ms": ms.get((c, r["iters"]), ""),
                "mean_tantos": r["mean_tantos"],
                "ci95_low": r["ci95_low"],
                "ci95_high": r["ci95_high"],
                "vs_1000": r["vs_start"],
                "vs_1000_ci95_low": r["vs_start_ci95_low"],
                "vs_1000_ci95_high": r["vs_start_ci95_high"],
                "deals": r["deals"],
            })
rows.sort(key=lambda r: (float(r["c"]), int(r["iters"])))
with open(f"{DIR}/sweep.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
for r in rows:
    print(",".join(r.values()))
