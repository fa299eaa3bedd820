#!/usr/bin/env python3
"""Paired difference of one agent slot against the others, per deal, from a
tournament's deals.csv (standard library only).

Usage: scripts/paired.py RUN_DIR SLOT [OTHER]

For every deal, the tantos of SLOT summed over the deal's seatings, minus the same
sum for OTHER (default: the mean of the other slots, two, or three at a table of
four), divided by the number of seatings: tantos per deal, as the summaries count
them. Prints the mean over deals with a 95% confidence interval (normal approximation, deals independent).
"""
import csv
import math
import sys
from collections import defaultdict


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[3])
    run, slot = sys.argv[1], int(sys.argv[2])
    other = int(sys.argv[3]) if len(sys.argv) == 4 else None
    per_deal = defaultdict(lambda: [0, 0, 0, 0])
    seatings = defaultdict(set)
    slots = 3
    with open(f"{run}/deals.csv", newline="") as f:
        for row in csv.DictReader(f):
            seating = row["seating"]
            seatings[row["deal"]].add(seating)
            # A table of four (RULES.md section 12.2) has four slots and seats.
            seats = 4 if row.get("players") == "4" else 3
            slots = max(slots, seats)
            for seat in range(seats):
                s = int(seating[seat])
                per_deal[row["deal"]][s] += int(row[f"pool{seat}"]) + int(row[f"cond{seat}"])
    diffs = []
    for deal, t in per_deal.items():
        k = len(seatings[deal])
        if other is None:
            rest = [t[j] for j in range(slots) if j != slot]
            diffs.append((t[slot] - sum(rest) / len(rest)) / k)
        else:
            diffs.append((t[slot] - t[other]) / k)
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    vs = "the mean of the other slots" if other is None else f"slot {other}"
    print(f"slot {slot} minus {vs}, tantos per deal (paired by deal), {n} deals:")
    print(f"{mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]")


if __name__ == "__main__":
    main()
