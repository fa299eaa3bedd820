#!/usr/bin/env python3
"""Recompute a tournament's summary.csv from its deals.csv (or deals.parquet) with pandas.

An example for users who analyse the CSV themselves: every figure of summary.csv
(declaring, contracts, success, outcomes, mean tantos and their 95% confidence
intervals) derived from the per-deal rows and the run's manifest.json.

    pip install -r scripts/requirements.txt
    python3 scripts/analyze.py out/tournament            # print the summary as CSV
    python3 scripts/analyze.py out/tournament --check    # compare with summary.csv

A run written with `--format parquet` (no deals.csv) is read from deals.parquet,
which needs pyarrow (`pip install pyarrow`); the figures are the same.

Four-player runs (a `players` column of 4, seats 0-3 with the `agent3`...`debt3`
columns) and files written before those columns existed (three players) are
both read; so are every rule set's contract names.

The rules it follows (docs/CLI.md, "summary.csv columns"):
- a seat's tantos in a row are pool + cond for that seat;
- L'Hombre's contracts count in the column of their family (nolo as entrada, grand
  tourne as vuelta, pure nolo and nolo ouvert as solo); hombre's contrabola and a
  penetro given up at once count among the hands declared only;
- role `all`: the observations are scoring units (a deal, or a session of K deals),
  each the agent slot's tantos summed over every row of the unit (all seatings),
  so with duplicate seating the card luck cancels; the mean and interval are then
  divided by the rows per unit (deals per unit times seatings) to give tantos per
  deal;
- roles `declarer` and `opponent`: each row is one observation;
- the interval is mean +/- t(0.975, n - 1) * sqrt(sample variance / n), Student's t
  (rundir.t95, the same digits as the Rust code);
- success and outcomes are from the original declarer's side: a hand taken over
  (`took_over` set) is its puesta, never its success.
"""

import argparse
import csv
import math
import sys
from pathlib import Path

try:
    import pandas as pd
except ImportError:
    sys.exit("error: scripts/analyze.py needs pandas: pip install -r scripts/requirements.txt")

from rundir import (
    CONTRACT_FAMILIES,
    INTEGERS,
    NEEDED,
    OPTIONAL_INTEGERS,
    BadInput,
    check_run,
    first_bad_token,
    half_width,
    pandas_dtypes,
)

CONTRACTS = ["entrada", "vuelta", "solo"]
# The summary column each contract of deals.csv counts in (Contract::family, from
# docs/deals-columns.json); hombre's contrabola is in none of them.
FAMILY = {c: f for c, f in CONTRACT_FAMILIES.items() if f in CONTRACTS}
OUTCOMES = ["sacado", "puesta", "codillo"]
HEADER = (
    ["agent", "role", "deals", "declared", "declare_rate", "forced"]
    + CONTRACTS
    + [f"{c}_success" for c in CONTRACTS]
    + [f"{c}_{o}" for c in CONTRACTS for o in OUTCOMES]
    + ["cancelled", "mean_tantos", "ci95_low", "ci95_high"]
)


def fmt(x):
    """Four decimals, as the Rust code writes them; empty when undefined."""
    return f"{x:.4f}" if math.isfinite(x) else ""


def ratio(a, b):
    return "" if b == 0 else fmt(a / b)


def mean_ci(values, scale=1.0):
    """Mean and 95% half-width of integer observations, each divided by `scale`.

    Computed from the count, sum and sum of squares in the same order of floating
    point operations as the Rust code, so the rounded figures agree to the digit.
    """
    n = len(values)
    if n == 0:
        return None
    total = int(values.sum())
    sum_sq = int((values.astype("int64") ** 2).sum())
    nf = float(n)
    mean = total / nf
    if n > 1:
        var = (float(sum_sq) - nf * mean * mean) / (nf - 1.0)
        half = half_width(var, n)
    else:
        half = float("nan")
    return mean / scale, half / scale


def load(run):
    path = run / "manifest.json"
    manifest = check_run(run, parquet_ok=True)
    if not (run / "deals.csv").exists():
        return load_parquet(run, manifest)
    try:
        config = manifest["config"]
        scoring = config["scoring"]
        unit_len = 1 if scoring == "Deal" else int(scoring["Session"])
        players = int(config.get("players", 3))
        duplicate = bool(config["duplicate"])
        agents = list(config["agents"])
    except (KeyError, TypeError, ValueError) as e:
        raise BadInput(f"{path}: not a tournament manifest ({type(e).__name__}: {e})") from None
    # Checked line by line only when pandas fails or reads a column as text
    # (the common, well-formed file is read once, by pandas alone).
    try:
        deals = read_deals(run)
    except (ValueError, TypeError, pd.errors.ParserError) as e:
        raise BadInput(first_bad_token(run / "deals.csv") or f"{run / 'deals.csv'}: {e}") from None
    if any(c not in deals.columns for c in NEEDED):
        raise BadInput(first_bad_token(run / "deals.csv") or f"{run / 'deals.csv'}: a column is missing")
    numeric = [c for c in INTEGERS + OPTIONAL_INTEGERS if c in deals.columns]
    if not all(pd.api.types.is_integer_dtype(deals[c]) for c in numeric):
        raise BadInput(first_bad_token(run / "deals.csv") or f"{run / 'deals.csv'}: a column that is not integers")
    bad = first_bad_seating(deals, players)
    if bad is not None:
        raise BadInput(f"{run / 'deals.csv'} line {bad + 2}, column seating: {deals['seating'][bad]!r} is not a seating of {players} slots")
    if "players" not in deals.columns:
        deals["players"] = 3
    if (deals["players"].fillna(3) != players).any():
        raise BadInput(f"{run / 'deals.csv'}: a players column other than the manifest's {players}")
    seatings = (24 if players == 4 else 6) if duplicate else 1
    return agents, unit_len, seatings, deals, players


def config_of(run, manifest):
    """(agents, unit_len, seatings, players) from a manifest."""
    try:
        config = manifest["config"]
        scoring = config["scoring"]
        unit_len = 1 if scoring == "Deal" else int(scoring["Session"])
        players = int(config.get("players", 3))
        duplicate = bool(config["duplicate"])
        agents = list(config["agents"])
    except (KeyError, TypeError, ValueError) as e:
        raise BadInput(f"{run / 'manifest.json'}: not a tournament manifest ({type(e).__name__}: {e})") from None
    seatings = (24 if players == 4 else 6) if duplicate else 1
    return agents, unit_len, seatings, players


def read_parquet(path):
    """deals.parquet as the frame read_deals makes of deals.csv: text columns
    with "" for none, the nullable integer columns as Int64 (needs pyarrow)."""
    try:
        import pyarrow  # noqa: F401  (pandas' Parquet engine)
    except ImportError:
        raise BadInput(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
    try:
        deals = pd.read_parquet(path)
    except Exception as e:  # pyarrow's errors have no common base  # noqa: BLE001
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise BadInput(f"{path}: not a readable deals.parquet ({first})") from None
    missing = [c for c in NEEDED if c not in deals.columns]
    if missing:
        raise BadInput(f"{path}: not a deals.parquet of tresillo (no column {missing[0]!r})")
    for c in deals.columns:
        if isinstance(deals[c].dtype, pd.CategoricalDtype) or deals[c].dtype == object:
            deals[c] = deals[c].astype(object).where(deals[c].notna(), "").astype(str)
    for c, t in pandas_dtypes(INTEGERS + OPTIONAL_INTEGERS).items():
        if c in deals.columns:
            deals[c] = deals[c].astype(t)
    return deals


def load_parquet(run, manifest):
    """load() for a run written with --format parquet."""
    agents, unit_len, seatings, players = config_of(run, manifest)
    deals = read_parquet(run / "deals.parquet")
    if (deals["players"].fillna(3) != players).any():
        raise BadInput(f"{run / 'deals.parquet'}: a players column other than the manifest's {players}")
    return agents, unit_len, seatings, deals, players


def first_bad_seating(deals, players):
    """The index of the first row whose seating is not `players` slot digits."""
    ok = deals["seating"].str.fullmatch(f"[0-{players - 1}]{{{players}}}").fillna(False)
    return None if ok.all() else int((~ok).idxmax())


def read_deals(run):
    """deals.csv as pandas reads it (may raise on a malformed file)."""
    # The dtypes of docs/deals-columns.json's kinds; text columns keep "" for "none".
    header = pd.read_csv(run / "deals.csv", nrows=0).columns
    deals = pd.read_csv(
        run / "deals.csv",
        keep_default_na=False,
        na_values={c: [""] for c in OPTIONAL_INTEGERS},
        dtype=pandas_dtypes(list(header)),
    )
    return deals


def seat_rows(deals, unit_len, players):
    """One row per deal row and seat: the agent slot in it and its tantos."""
    parts = []
    for s in range(players):
        part = pd.DataFrame(
            {
                "unit": deals["deal"] // unit_len,
                "slot": deals["seating"].str[s].astype(int),
                "tantos": deals[f"pool{s}"] + deals[f"cond{s}"],
                "declares": deals["declarer"].eq(s).fillna(False).astype(bool),
                "defends": (deals["declarer"].notna() & deals["declarer"].ne(s)).fillna(False).astype(bool),
                "forced": deals["forced"],
                "contract": deals["contract"].map(FAMILY).fillna(""),
                "outcome": deals["outcome"],
                "own": deals["took_over"].isna(),
            }
        )
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def summarize(agents, unit_len, seatings, deals, players=3):
    rows_per_unit = unit_len * seatings
    seats = seat_rows(deals, unit_len, players)
    out = []
    totals = {"declared": 0, "forced": 0, "contracts": [0] * 3, "won": [0] * 3, "outcomes": [[0] * 3 for _ in range(3)]}

    def row(agent, role):
        r = dict.fromkeys(HEADER, "")
        r["agent"], r["role"] = agent, role
        return r

    def with_mean(r, values, scale):
        r["deals"] = str(len(values))
        m = mean_ci(values, scale)
        if m is not None:
            mean, half = m
            r["mean_tantos"], r["ci95_low"], r["ci95_high"] = fmt(mean), fmt(mean - half), fmt(mean + half)
        return r

    def contract_figures(r, declared, forced, contracts, won, outcomes, rows):
        r["declared"] = str(declared)
        r["declare_rate"] = ratio(declared, rows)
        r["forced"] = str(forced)
        for c, name in enumerate(CONTRACTS):
            r[name] = str(contracts[c])
            r[f"{name}_success"] = ratio(won[c], contracts[c])
            for o, oname in enumerate(OUTCOMES):
                r[f"{name}_{oname}"] = str(outcomes[c][o])

    for slot, spec in enumerate(agents):
        mine = seats[seats["slot"] == slot]
        decl = mine[mine["declares"]]
        played = decl[(decl["contract"] != "") & (decl["outcome"] != "cancelled")]
        contracts, won, outcomes = [0] * 3, [0] * 3, [[0] * 3 for _ in range(3)]
        for c, name in enumerate(CONTRACTS):
            hands = played[played["contract"] == name]
            contracts[c] = len(hands)
            own = hands[hands["own"]]
            won[c] = int((own["outcome"] == "sacado").sum())
            outcomes[c][0] = won[c]
            outcomes[c][2] = int((own["outcome"] == "codillo").sum())
            outcomes[c][1] = contracts[c] - outcomes[c][0] - outcomes[c][2]
        declared, forced = len(decl), int(decl["forced"].sum())
        name = f"{slot}:{spec}"
        units = mine.groupby("unit")["tantos"].sum()
        r = with_mean(row(name, "all"), units, float(rows_per_unit))
        r["deals"] = str(len(mine))
        contract_figures(r, declared, forced, contracts, won, outcomes, len(mine))
        out.append(r)
        out.append(with_mean(row(name, "declarer"), decl["tantos"], 1.0))
        out.append(with_mean(row(name, "opponent"), mine[mine["defends"]]["tantos"], 1.0))
        totals["declared"] += declared
        totals["forced"] += forced
        for c in range(3):
            totals["contracts"][c] += contracts[c]
            totals["won"][c] += won[c]
            for o in range(3):
                totals["outcomes"][c][o] += outcomes[c][o]
    r = row("all", "all")
    r["deals"] = str(len(deals))
    contract_figures(
        r, totals["declared"], totals["forced"], totals["contracts"], totals["won"], totals["outcomes"], len(deals)
    )
    r["cancelled"] = str(int((deals["outcome"] == "cancelled").sum()))
    out.append(r)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run", type=Path, help="a tournament directory holding deals.csv and manifest.json")
    p.add_argument("--check", action="store_true", help="compare with the directory's summary.csv")
    a = p.parse_args()
    try:
        rows = summarize(*load(a.run))
    except BadInput as e:
        sys.exit(f"error: {e}")
    if not a.check:
        w = csv.DictWriter(sys.stdout, HEADER, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return
    with open(a.run / "summary.csv", newline="") as f:
        want = list(csv.DictReader(f))
    bad = 0
    if len(want) != len(rows):
        print(f"summary.csv has {len(want)} rows, the recomputed summary {len(rows)}")
        bad += 1
    for i, (w, r) in enumerate(zip(want, rows)):
        for col in HEADER:
            if w.get(col) != r[col]:
                print(f"summary.csv line {i + 2}, {col}: {w.get(col)!r} written, {r[col]!r} recomputed")
                bad += 1
    if bad:
        sys.exit(f"{bad} differences from {a.run / 'summary.csv'}")
    source = "deals.csv" if (a.run / "deals.csv").exists() else "deals.parquet"
    print(f"all {len(rows)} rows of {a.run / 'summary.csv'} recomputed from {source}, field for field")


if __name__ == "__main__":
    main()
