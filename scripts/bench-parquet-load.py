#!/usr/bin/env python3
"""Time pandas loading a run's deals.csv or deals.parquet and computing the mean
tantos per agent slot (summary.csv's `mean_tantos` of role `all`); prints one JSON
line: file, bytes, load_s, compute_s, peak_rss_mb (the process's peak resident
memory, pandas imported included), baseline_rss_mb (after importing pandas), and
the means. `*_cpu_s` are the process's CPU seconds (all threads), which a shared,
loaded machine inflates far less than the wall times `*_s`. Used by scripts/bench-parquet.sh (issue 25).

    python3 scripts/bench-parquet-load.py out/bench-csv/deals.csv
    python3 scripts/bench-parquet-load.py out/bench-parquet/deals.parquet --arrow

`--arrow` loads a Parquet file with `dtype_backend="pyarrow"`: the columns stay
Arrow arrays instead of being converted to NumPy (nullable integers would become
float64), which is most of the default load's time.
"""

import json
import resource
import sys
import time
from pathlib import Path

import pandas as pd


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    path = Path(sys.argv[1])
    arrow = "--arrow" in sys.argv[2:]
    base = peak_mb()
    if path.suffix == ".parquet":
        import pyarrow  # noqa: F401  (imported before the clock starts, like pandas)
    t0, c0 = time.perf_counter(), time.process_time()
    if path.suffix == ".parquet":
        deals = pd.read_parquet(path, dtype_backend="pyarrow") if arrow else pd.read_parquet(path)
    else:
        deals = pd.read_csv(path, dtype={"seating": str})
    t1, c1 = time.perf_counter(), time.process_time()
    slots = len(str(deals["seating"].iloc[0]))
    seating = deals["seating"].astype(str)
    totals = [0] * slots
    for seat in range(slots):
        slot = seating.str[seat].astype(int)
        tantos = deals[f"pool{seat}"] + deals[f"cond{seat}"]
        by_slot = tantos.groupby(slot).sum()
        for k, v in by_slot.items():
            totals[k] += int(v)
    means = [round(t / len(deals), 4) for t in totals]
    t2, c2 = time.perf_counter(), time.process_time()
    print(json.dumps({
        "file": str(path),
        "backend": "pyarrow" if arrow else "numpy",
        "bytes": path.stat().st_size,
        "rows": len(deals),
        "load_s": round(t1 - t0, 2),
        "compute_s": round(t2 - t1, 2),
        "load_cpu_s": round(c1 - c0, 2),
        "compute_cpu_s": round(c2 - c1, 2),
        "peak_rss_mb": round(peak_mb()),
        "baseline_rss_mb": round(base),
        "mean_tantos_per_slot": means,
    }))


if __name__ == "__main__":
    main()
