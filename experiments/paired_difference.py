#!/usr/bin/env python3
"""Paired difference of a duplicate tournament, from its deals.csv.

For each deal: agent slot 0's tantos summed over the six seatings, minus the mean of
slots 1 and 2 (the same cards, the same seats). Prints the mean difference per
seat-deal (divided by six) with a 95% normal interval over the deals.

    python3 experiments/paired_difference.py results/NAME/deals.csv
"""
import collections
import csv
import math
import sys

per = collections.defaultdict(lambda: [0, 0, 0])
for r in csv.DictReader(open(sys.argv[1])):
    for seat in range(3):
        slot = int(r["seating"][seat])
        per[r["deal"]][slot] += int(r[f"pool{seat}"]) + int(r[f"cond{seat}"])
d = [v[0] - (v[1] + v[2]) / 2 for v in per.values()]
n = len(d)
m = sum(d) / n
sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
h = 1.96 * sd / math.sqrt(n)
print(f"{n} deals: slot 0 minus the mean of slots 1 and 2, tantos per seat-deal: "
      f"{m / 6:+.4f} [{(m - h) / 6:+.4f}, {(m + h) / 6:+.4f}]")
