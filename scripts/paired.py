#!/usr/bin/env python3
"""Paired difference of one agent slot against the others, per deal, from a
tournament's deals.csv (standard library only).

Usage: scripts/paired.py RUN_DIR SLOT [OTHER]

For every deal (every session of K deals when the run's manifest says
`session:K`, written {"Session": K}), the tantos of SLOT summed over the unit's rows, minus the same sum
for OTHER (default: the mean of the other slots, two, or three at a table of
four), divided by the number of seatings: tantos per deal (per session), as the
summaries count them. Prints the mean over units with a 95% confidence interval
(normal approximation, units independent): the numbers of the run's pairs.csv.

Bad input (a missing directory or file, a deals.csv cut short or malformed, a slot
the run does not have) gives one line starting with `error:`, as analyze.py does.
"""
import csv
import math
import sys
from collections import defaultdict
from pathlib import Path

from rundir import BadInput, check_run, first_bad_token

USAGE = __doc__.strip().splitlines()[3].removeprefix("Usage: ")


def slot_arg(text, name):
    if not text.isdigit():
        raise BadInput(f"{name} {text!r} is not a slot number (0, 1, 2, or 3 at a table of four)")
    return int(text)


def paired(run, slot, other):
    """The per-deal differences of `slot` minus `other` (or the other slots' mean)."""
    manifest = check_run(run)
    bad = first_bad_token(run / "deals.csv")
    if bad is not None:
        raise BadInput(bad)
    config = manifest.get("config", {}) if isinstance(manifest, dict) else {}
    players = config.get("players", 3)
    # The manifest writes deal scoring as "Deal" and sessions of K deals as {"Session": K}.
    scoring = config.get("scoring", "Deal")
    unit_len = scoring.get("Session", 1) if isinstance(scoring, dict) else 1
    if not isinstance(unit_len, int) or unit_len < 1:
        raise BadInput(f"{run / 'manifest.json'}: scoring {scoring!r} is not deal or session:K")
    slots = 4 if players == 4 else 3
    for name, s in (("SLOT", slot), ("OTHER", other)):
        if s is not None and s >= slots:
            raise BadInput(f"{name} {s}: the run has slots 0 to {slots - 1}")
    if other == slot:
        raise BadInput(f"OTHER is SLOT ({slot}): name another slot")
    per_unit = defaultdict(lambda: [0, 0, 0, 0])
    seatings = defaultdict(set)
    with open(run / "deals.csv", newline="", encoding="utf-8") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            seating = row["seating"]
            seats = 4 if row.get("players") == "4" else 3
            if len(seating) != seats or any(c not in "0123"[:seats] for c in seating):
                raise BadInput(f"{run / 'deals.csv'} line {line}, column seating: {seating!r} is not a seating of {seats} slots")
            unit = int(row["deal"]) // unit_len
            seatings[unit].add(seating)
            for seat in range(seats):
                s = int(seating[seat])
                per_unit[unit][s] += int(row[f"pool{seat}"]) + int(row[f"cond{seat}"])
    diffs = []
    for unit, t in per_unit.items():
        k = len(seatings[unit])
        if other is None:
            rest = [t[j] for j in range(slots) if j != slot]
            diffs.append((t[slot] - sum(rest) / len(rest)) / k)
        else:
            diffs.append((t[slot] - t[other]) / k)
    if len(diffs) < 2:
        raise BadInput(f"{run / 'deals.csv'}: {len(diffs)} units; a confidence interval needs at least 2")
    return diffs, "deal" if unit_len == 1 else "session"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(f"error: usage: {USAGE}")
    try:
        slot = slot_arg(sys.argv[2], "SLOT")
        other = slot_arg(sys.argv[3], "OTHER") if len(sys.argv) == 4 else None
        diffs, unit = paired(Path(sys.argv[1]), slot, other)
    except BadInput as e:
        sys.exit(f"error: {e}")
    except OSError as e:
        sys.exit(f"error: {e.filename}: {e.strerror}")
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    vs = "the mean of the other slots" if other is None else f"slot {other}"
    print(f"slot {slot} minus {vs}, tantos per {unit} (paired by {unit}), {n} {unit}s:")
    print(f"{mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]")


if __name__ == "__main__":
    main()
