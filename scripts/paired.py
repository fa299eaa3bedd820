#!/usr/bin/env python3
"""Paired difference of one agent slot against the others, per deal, from a
tournament's deals.csv (standard library only), or its deals.parquet when the run
has no deals.csv (`--format parquet`; reading it needs pyarrow).

Usage: scripts/paired.py RUN_DIR SLOT [OTHER | --across RUN_B [SLOT_B]]

For every deal (every session of K deals when the run's manifest says
`session:K`, written {"Session": K}), the tantos of SLOT summed over the unit's rows, minus the same sum
for OTHER (default: the mean of the other slots, two, or three at a table of
four), divided by the number of seatings: tantos per deal (per session), as the
summaries count them. Prints the mean over units with a 95% confidence interval
(Student's t with units - 1 degrees of freedom, units independent), the
likelihood of superiority, the units won, drawn and lost, and the Elo difference
of those counts with its 95% interval: the numbers of the run's pairs.csv (its Elo
computed here independently: the score (W + D/2) / N, its interval by Student's t
on the per-unit scores 1, 1/2 and 0, each end read as 400 log10(s / (1 - s))).

With `--across RUN_B`, the difference is SLOT in RUN_DIR minus SLOT_B (default
SLOT) in RUN_B, deal by deal: two variants of an agent each run against the same
field on the same deals (the same seed, deals and duplicate setting; every
deal's seed is checked), so the field's play is paired too.

Bad input (a missing directory or file, a deals.csv cut short or malformed, a slot
the run does not have) gives one line starting with `error:`, as analyze.py does.
"""
import csv
import math
import sys
from collections import defaultdict
from pathlib import Path

from rundir import BadInput, check_run, first_bad_token, half_width, t_cdf

USAGE = next(l for l in __doc__.splitlines() if l.startswith("Usage: ")).removeprefix("Usage: ")


def slot_arg(text, name):
    if not text.isdigit():
        raise BadInput(f"{name} {text!r} is not a slot number (0, 1, 2, or 3 at a table of four)")
    return int(text)


COLUMNS = ["deal", "deal_seed", "seating", "players"] + [f"{c}{i}" for i in range(4) for c in ("pool", "cond")]


def rows(path):
    """(where, row) for each row of a deals.csv or deals.parquet: `where` names the
    line of a CSV file ("line N") or the row of a Parquet file ("row N")."""
    if path.suffix == ".csv":
        with open(path, newline="", encoding="utf-8") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                yield f"line {line}", row
        return
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise BadInput(f"{path}: reading deals.parquet needs pyarrow (pip install pyarrow)") from None
    try:
        f = pq.ParquetFile(path)
        names = set(f.schema_arrow.names)
        missing = [c for c in COLUMNS[:3] + ["pool0", "cond0"] if c not in names]
        if missing:
            raise BadInput(f"{path}: not a deals.parquet of tresillo (no column {missing[0]!r})")
        n = 0
        for batch in f.iter_batches(columns=[c for c in COLUMNS if c in names]):
            for row in batch.to_pylist():
                n += 1
                yield f"row {n}", row
    except BadInput:
        raise
    except Exception as e:  # pyarrow's errors have no common base
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise BadInput(f"{path}: not a readable deals.parquet ({first})") from None


def totals(run, slot, other=None):
    """Per unit (deal, or session): each slot's tantos summed over the unit's rows,
    the number of seatings, and the unit's deal seeds; and the unit's name."""
    manifest = check_run(run, parquet_ok=True)
    csv_file = run / "deals.csv"
    if csv_file.exists():
        bad = first_bad_token(csv_file)
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
            raise BadInput(f"{name} {s}: the run {run} has slots 0 to {slots - 1}")
    if other == slot:
        raise BadInput(f"OTHER is SLOT ({slot}): name another slot")
    per_unit = defaultdict(lambda: [0, 0, 0, 0])
    seatings = defaultdict(set)
    seeds = defaultdict(set)
    source = csv_file if csv_file.exists() else run / "deals.parquet"
    for line, row in rows(source):
        seating = row["seating"]
        seats = 4 if str(row.get("players")) == "4" else 3
        if len(seating) != seats or any(c not in "0123"[:seats] for c in seating):
            raise BadInput(f"{source} {line}, column seating: {seating!r} is not a seating of {seats} slots")
        unit = int(row["deal"]) // unit_len
        seatings[unit].add(seating)
        seeds[unit].add(str(row["deal_seed"]))
        for seat in range(seats):
            s = int(seating[seat])
            per_unit[unit][s] += int(row[f"pool{seat}"]) + int(row[f"cond{seat}"])
    units = {u: (t, len(seatings[u]), seeds[u]) for u, t in per_unit.items()}
    return units, slots, "deal" if unit_len == 1 else "session", source


def paired(run, slot, other):
    """The per-deal differences of `slot` minus `other` (or the other slots' mean)."""
    units, slots, unit, source = totals(run, slot, other)
    diffs = []
    for t, k, _ in units.values():
        if other is None:
            rest = [t[j] for j in range(slots) if j != slot]
            diffs.append((t[slot] - sum(rest) / len(rest)) / k)
        else:
            diffs.append((t[slot] - t[other]) / k)
    if len(diffs) < 2:
        raise BadInput(f"{source}: {len(diffs)} units; a confidence interval needs at least 2")
    return diffs, unit


def across(run_a, slot_a, run_b, slot_b):
    """The per-deal differences of `slot_a` in `run_a` minus `slot_b` in `run_b`,
    on the deals both runs played (which must be the same deals)."""
    a, _, unit, source_a = totals(run_a, slot_a)
    b, _, unit_b, source_b = totals(run_b, slot_b)
    if unit != unit_b:
        raise BadInput(f"{run_a} is scored per {unit}, {run_b} per {unit_b}")
    if a.keys() != b.keys():
        raise BadInput(f"{run_a} and {run_b} did not play the same {unit}s ({len(a)} and {len(b)})")
    diffs = []
    for u, (ta, ka, seeds_a) in sorted(a.items()):
        tb, kb, seeds_b = b[u]
        if seeds_a != seeds_b:
            raise BadInput(f"{source_b}: {unit} {u} is not the deal of {run_a} (another seed)")
        diffs.append(ta[slot_a] / ka - tb[slot_b] / kb)
    if len(diffs) < 2:
        raise BadInput(f"{source_a}: {len(diffs)} units; a confidence interval needs at least 2")
    return diffs, unit


def main():
    args = sys.argv[1:]
    try:
        if len(args) in (4, 5) and args[2] == "--across":
            slot = slot_arg(args[1], "SLOT")
            slot_b = slot_arg(args[4], "SLOT_B") if len(args) == 5 else slot
            diffs, unit = across(Path(args[0]), slot, Path(args[3]), slot_b)
            vs = f"slot {slot_b} of {args[3]}"
        elif len(args) in (2, 3):
            slot = slot_arg(args[1], "SLOT")
            other = slot_arg(args[2], "OTHER") if len(args) == 3 else None
            diffs, unit = paired(Path(args[0]), slot, other)
            vs = "the mean of the other slots" if other is None else f"slot {other}"
        else:
            sys.exit(f"error: usage: {USAGE}")
    except BadInput as e:
        sys.exit(f"error: {e}")
    except OSError as e:
        sys.exit(f"error: {e.filename}: {e.strerror}")
    n = len(diffs)
    mean = sum(diffs) / float(n)
    var = sum((d - mean) * (d - mean) for d in diffs) / (float(n) - 1.0)
    half = half_width(var, n)
    se = math.sqrt(var / float(n))
    los = t_cdf(mean / se, n - 1) if se > 0.0 else (1.0 if mean > 0.0 else 0.0 if mean < 0.0 else 0.5)
    wins = sum(1 for d in diffs if d > 0.0)
    draws = sum(1 for d in diffs if d == 0.0)
    print(f"slot {slot} minus {vs}, tantos per {unit} (paired by {unit}), {n} {unit}s:")
    print(f"{mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]")
    print(f"likelihood of superiority {los:.4f}; {unit}s won/drawn/lost {wins}/{draws}/{n - wins - draws}")
    elo, lo, hi = elo_of(wins, draws, n - wins - draws)
    print(f"Elo {elo:+.1f} [{lo:+.1f}, {hi:+.1f}]")


def elo_of(wins, draws, losses):
    """The Elo difference of paired units' wins, draws and losses and its 95%
    interval (infinite at a score of 0 or 1)."""
    n = wins + draws + losses
    s = (wins + draws / 2.0) / n
    var = (wins * (1.0 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s * s) / (n - 1.0)
    half = half_width(var, n)

    def scale(x):
        if x <= 0.0:
            return -math.inf
        if x >= 1.0:
            return math.inf
        return 400.0 * math.log10(x / (1.0 - x))

    return scale(s), scale(s - half), scale(s + half)


if __name__ == "__main__":
    main()
