#!/usr/bin/env python3
"""Redoes an SPSA tune's steps from its files (standard library only), as an
independent check of `tresillo tune --method spsa` (docs/CLI.md).

Usage: scripts/check-spsa.py OUT.csv

Reads OUT.csv (every candidate: its values and mean tantos per deal, four
decimals) and OUT.manifest.json beside it (the parameters' lists of values, the
start, the gains and every iteration as the search recorded it). For each
iteration k it computes on its own: the gains a_k = a / (k + 1 + A)^alpha and
c_k = c / (k + 1)^gamma, the signs (bit i of SplitMix64(k): 1 is +1), the two
candidates' positions round(theta +- c_k * sign) clamped to the lists (halves
away from zero), that both candidates are rows of the CSV with the means the
manifest used, the slopes
(mean_plus - mean_minus) / (position_plus - position_minus) from the CSV's means,
and the move theta + clamp(a_k * slope, -max_step, max_step) clamped to the list.
It checks the start's positions, that each iteration starts where the last
ended, that the candidates are the recorded ones exactly and the moves agree
(to the rounding of the CSV's means), and that the search's best is the point
the last iteration ended at. Prints one line and exits 0, or names the first
disagreement and exits 1.
"""
import csv
import json
import math
import sys
from pathlib import Path

MASK = (1 << 64) - 1


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def signs(k, n):
    return [1.0 if (splitmix64(k + (i // 64) * (1 << 32)) >> (i % 64)) & 1 else -1.0 for i in range(n)]


def round_away(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def position(values, value):
    if value in values:
        return float(values.index(value))
    try:
        x = float(value)
    except ValueError:
        return 0.0
    best, dist = 0, math.inf
    for i, v in enumerate(values):
        try:
            d = abs(float(v) - x)
        except ValueError:
            continue
        if d < dist:
            best, dist = i, d
    return float(best)


def spec_values(spec, names):
    pairs = dict(p.split("=", 1) for p in spec.split(":")[1:] if "=" in p)
    return [pairs.get(n) for n in names]


def fail(msg):
    sys.exit(f"check-spsa: {msg}")


def main():
    if len(sys.argv) != 2:
        sys.exit("error: usage: scripts/check-spsa.py OUT.csv")
    out = Path(sys.argv[1])
    manifest_path = out.with_name(out.stem + ".manifest.json")
    try:
        manifest = json.loads(manifest_path.read_text())
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, ValueError) as e:
        sys.exit(f"error: {e}")
    if manifest.get("method") != "spsa" or "spsa" not in manifest:
        sys.exit(f"error: {manifest_path}: not an SPSA tune")
    params = manifest["params"]
    names = [p["name"] for p in params]
    lists = [p["values"] for p in params]
    lens = [len(v) for v in lists]
    log = manifest["spsa"]
    means = {tuple(r[n] for n in names): float(r["mean_tantos"]) for r in rows}
    theta = [position(v, x) for v, x in zip(lists, spec_values(manifest["start"], names))]
    steps = log["steps"]
    if len(steps) != manifest["rounds"]:
        fail(f"{len(steps)} iterations recorded, {manifest['rounds']} run")
    worst = 0.0
    for step in steps:
        k = step["k"]
        a_k = log["a"] / (k + 1 + log["big_a"]) ** log["alpha"]
        c_k = log["c"] / (k + 1) ** log["gamma"]
        if abs(a_k - step["a"]) > 1e-9 or abs(c_k - step["c"]) > 1e-9:
            fail(f"iteration {k}: gains {step['a']}, {step['c']}; recomputed {a_k}, {c_k}")
        delta = signs(k, len(names))
        if delta != step["delta"]:
            fail(f"iteration {k}: signs {step['delta']}; SplitMix64 gives {delta}")
        if any(abs(t - u) > 1e-9 for t, u in zip(theta, step["theta"])):
            fail(f"iteration {k}: starts at {step['theta']}, the last ended at {theta}")
        theta = step["theta"]  # exact (the CSV's means are rounded): each step is checked from its start
        clamp = lambda x, n: min(max(x, 0), n - 1)
        plus = [clamp(round_away(t + c_k * d), n) for t, d, n in zip(theta, delta, lens)]
        minus = [clamp(round_away(t - c_k * d), n) for t, d, n in zip(theta, delta, lens)]
        if plus != step["plus"] or minus != step["minus"]:
            fail(f"iteration {k}: candidates {step['plus']} / {step['minus']}; recomputed {plus} / {minus}")
        key = lambda idx: tuple(lists[i][j] for i, j in enumerate(idx))
        if key(plus) not in means or key(minus) not in means:
            fail(f"iteration {k}: a candidate of {out} is missing ({key(plus)} or {key(minus)})")
        yp, ym = means[key(plus)], means[key(minus)]
        if abs(yp - step["mean_plus"]) > 5.1e-5 or abs(ym - step["mean_minus"]) > 5.1e-5:
            fail(
                f"iteration {k}: the manifest's means {step['mean_plus']} / {step['mean_minus']} are not the CSV's "
                f"{yp} / {ym}"
            )
        nxt = []
        for i, t in enumerate(theta):
            span = plus[i] - minus[i]
            slope = 0.0 if span == 0 else (yp - ym) / span
            move = min(max(a_k * slope, -log["max_step"]), log["max_step"])
            nxt.append(min(max(t + move, 0.0), lens[i] - 1.0))
        # The CSV's means have four decimals: a move may differ by a_k * 1e-4 per position.
        tol = a_k * 1e-4 + 1e-9
        for x, y in zip(nxt, step["next"]):
            worst = max(worst, abs(x - y))
            if abs(x - y) > tol:
                fail(f"iteration {k}: moves to {step['next']}; recomputed {nxt}")
        theta = step["next"]
    end = [min(max(round_away(t), 0), n - 1) for t, n in zip(theta, lens)]
    best = spec_values(manifest["search_best_result"]["spec"], names)
    if best != [lists[i][j] for i, j in enumerate(end)]:
        fail(f"the search's best is {best}; the last iteration ended at {[lists[i][j] for i, j in enumerate(end)]}")
    print(
        f"check-spsa: {len(steps)} iterations of {len(names)} parameters redone from {out.name}: every gain, sign, "
        f"candidate and move agrees (largest move difference {worst:.2e}, the CSV's rounding); the best is where it ended"
    )


if __name__ == "__main__":
    main()
