#!/usr/bin/env python3
"""Reruns committed experiments and checks that they reproduce their committed
results (standard library only).

Usage: scripts/check-experiments.py [--all | --slow] [--bin PATH] [NAME ...]

Each NAME (experiments/NAME.toml; default: the FAST list below, each well under a
minute on a 2-core machine) is run with `tresillo run experiments/NAME.toml
--force` from a scratch copy of the repository's layout, so results/ is never
touched, and every committed file under the experiment's `out` is compared with
the rerun's: byte for byte, except a manifest (*.json holding `"tool":
"tresillo"`), compared with its `build` object (the commit that wrote it) removed
and nothing else (and without its checksums, `crc32`, when the committed manifest
was written before them), and a `compute.csv`, whose counts (the columns up to
`forfeits`) are compared and whose measurements (times) are not.

Two changes of issue 33 are allowed for, in files committed before them (a
committed file written after them must still match byte for byte):
- intervals are Student's t (they were the normal approximation): a CSV whose
  bytes differ is compared cell by cell, every cell equal except the interval
  columns (named `*ci95*`), whose pair (low, high) must have the same midpoint
  (the same mean, to the rounding) and be no narrower; the rerun may append
  columns (pairs.csv's likelihood of superiority and win/draw/loss counts,
  matrix.csv's rating differences, and both files' Elo columns of issue 55),
  compared only where the committed file has them, and a manifest's checksums of
  pairs.csv and matrix.csv are not compared (their bytes are, as just said);
- the bidding agent of `--bidding` has its own compute.csv row (slot `bidding`),
  no longer charged to the slots it bid for: against a committed file without
  that row, each slot's card-play counts (`card`, `other`) are compared, and
  every count column's sum over the rows (bidding included). `--all` checks every experiment (about an hour and a half here:
see experiments/README.md for each one's time), `--slow` those not in FAST.
`--bin` names the `tresillo` binary (default: target/release/tresillo, built with
`cargo build --release -p tresillo-cli` first when missing).

Prints one line per experiment (`reproduced`, or the first file that differs) and
exits 1 when any differs.
"""
import csv
import json
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Each under a minute on this 2-core machine (release build; experiments/README.md).
FAST = [
    "rule-vs-random",
    "rule-baseline",
    "oracle-vs-rule-play",
    "rules-house",
    "rules-palo-de-favor",
    "rules-codillo-old",
    "rules-house-palo-de-favor",
    "rules-four",
    "rules-four-all-play",
    "rules-hombre",
    "rules-hombre-session",
    "rules-hombre-show-heap",
    "rules-hombre-chips",
    "rules-hombre-gascarille",
    "rules-hombre-favorito",
    "rules-hombre-contrabola",
    "rules-lhombre",
    "rules-lhombre-redeal",
    "league-rule",
]


def without_build(text, checksums=True):
    """A manifest's JSON without the `build` object and the `command_line` (how
    the run was started, `--threads`, `--resume` or `--force`, which the results
    do not depend on), re-printed canonically; without `checksums`, also without
    the checksums of issue 34 (`crc32`, and `record.crc32`)."""
    value = json.loads(text)
    if isinstance(value, dict):
        value.pop("build", None)
        value.pop("command_line", None)
        # pairs.csv and matrix.csv gained Elo columns (issue 55): their own bytes
        # are compared up to appended columns, so their checksums are not.
        if isinstance(value.get("crc32"), dict):
            for name in ("pairs.csv", "matrix.csv"):
                value["crc32"].pop(name, None)
        if not checksums:
            value.pop("crc32", None)
            if isinstance(value.get("record"), dict):
                value["record"].pop("crc32", None)
    return json.dumps(value, indent=2)


def has_checksums(text):
    """Whether a manifest records checksums (issue 34: the manifests committed
    before them record none, and are compared with a rerun's without them)."""
    value = json.loads(text)
    return isinstance(value, dict) and "crc32" in value


def counts_of_compute(data):
    """compute.csv's rows cut after `forfeits`: the counts, which a rerun must
    reproduce, without the measurements (timed, seconds, milliseconds) and
    without `nodes`: the committed runs were made while a worker's solver kept
    its table across the hands it played, so their node counts depend on the
    batches they were played in (solver agents now empty their tables before
    each hand, and nodes reproduce: tested in tournament_cli.rs)."""
    rows = data.decode().splitlines()
    if not rows:
        return []
    header = rows[0].split(",")
    keep = header.index("forfeits") + 1
    drop = header.index("nodes") if "nodes" in header else None
    out = []
    for r in rows:
        cells = next(csv.reader([r]))[:keep]
        if drop is not None:
            del cells[drop]
        out.append(cells)
    return out


def same_compute(a, b):
    """compute.csv's counts; a committed file without the `bidding` row against
    a rerun with one by card-play counts per slot and column sums (see above)."""
    ca, cb = counts_of_compute(a), counts_of_compute(b)
    if ca == cb:
        return True
    if not ca or not cb or ca[0] != cb[0]:
        return False
    if any(r[0] == "bidding" for r in ca[1:]) or not cb[1:] or cb[-1][0] != "bidding" or len(cb) != len(ca) + 1:
        return False
    header = ca[0]
    play = [header.index(c) for c in ("slot", "agent", "card", "other")]
    if [[r[i] for i in play] for r in ca[1:]] != [[r[i] for i in play] for r in cb[1:-1]]:
        return False
    counts = range(header.index("decisions"), len(header))
    total = lambda rows: [sum(int(r[i]) for r in rows) for i in counts]
    return total(ca[1:]) == total(cb[1:])


def same_up_to_intervals(a, b):
    """A committed CSV against its rerun, allowing for Student's t intervals and
    appended columns (see above)."""
    ra = list(csv.reader(a.decode().splitlines()))
    rb = list(csv.reader(b.decode().splitlines()))
    if not ra or len(ra) != len(rb) or rb[0][: len(ra[0])] != ra[0]:
        return False
    header = ra[0]
    lows = [i for i, h in enumerate(header) if "ci95" in h and h.endswith("low")]
    highs = [header.index(header[i][: -len("low")] + "high") for i in lows]
    ends = set(lows) | set(highs)
    for x, y in zip(ra[1:], rb[1:]):
        if len(x) != len(header) or len(y) < len(header):
            return False
        if any(x[i] != y[i] for i in range(len(header)) if i not in ends):
            return False
        for lo, hi in zip(lows, highs):
            if (x[lo], x[hi]) == (y[lo], y[hi]):
                continue
            try:
                xl, xh, yl, yh = float(x[lo]), float(x[hi]), float(y[lo]), float(y[hi])
            except ValueError:
                return False
            if abs((xl + xh) - (yl + yh)) > 3e-4 or (yh - yl) < (xh - xl) - 2e-4:
                return False
    return True


def same(committed, rerun):
    a, b = committed.read_bytes(), rerun.read_bytes()
    if a == b:
        return True
    if committed.name == "compute.csv":
        try:
            return same_compute(a, b)
        except (UnicodeDecodeError, ValueError):
            return False
    if committed.suffix == ".csv":
        try:
            return same_up_to_intervals(a, b)
        except (UnicodeDecodeError, ValueError):
            return False
    if committed.suffix == ".json":
        try:
            ta, tb = a.decode(), b.decode()
            if '"tool": "tresillo"' in ta and '"tool": "tresillo"' in tb:
                keep = has_checksums(ta)
                return without_build(ta, keep) == without_build(tb, keep)
        except (UnicodeDecodeError, json.JSONDecodeError):
            return False
    return False


def outputs(name):
    """The experiment's output: (directory, file-name prefix or None)."""
    path = ROOT / "experiments" / f"{name}.toml"
    try:
        spec = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SystemExit(f"error: {path}: {e}")
    table = spec.get("tournament") or spec.get("tune") or spec.get("league")
    out = Path(table["out"])
    if "tune" not in spec:  # a run or league directory: its files
        return out, None
    return out.parent, out.stem  # candidates.csv and candidates.manifest.json


def check(name, binary):
    out, stem = outputs(name)
    committed = sorted(
        p for p in (ROOT / out).glob("*") if p.is_file() and (stem is None or p.name.startswith(stem + "."))
    )
    tracked = subprocess.run(
        ["git", "ls-files", "--", str(out)], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    if tracked:
        committed = [p for p in committed if str(p.relative_to(ROOT)) in tracked]
    if not committed:
        return f"{name}: no committed results under {out}"
    with tempfile.TemporaryDirectory(prefix=f"check-{name}-") as tmp:
        tmp = Path(tmp)
        (tmp / "experiments").mkdir()
        shutil.copy(ROOT / "experiments" / f"{name}.toml", tmp / "experiments")
        start = time.monotonic()
        run = subprocess.run(
            [str(binary), "run", f"experiments/{name}.toml", "--force"],
            cwd=tmp,
            capture_output=True,
            text=True,
        )
        seconds = time.monotonic() - start
        if run.returncode != 0:
            last = (run.stderr.strip().splitlines() or ["(no message)"])[-1]
            return f"{name}: the run failed: {last}"
        for c in committed:
            r = tmp / out / c.name
            if not r.is_file():
                return f"{name}: differs: {c.relative_to(ROOT)} was not written by the rerun"
            if not same(c, r):
                return f"{name}: differs: {c.relative_to(ROOT)} ({seconds:.0f} s)"
    files = ", ".join(c.name for c in committed)
    return f"{name}: reproduced ({files}) in {seconds:.0f} s"


def main():
    args = sys.argv[1:]
    binary = ROOT / "target" / "release" / "tresillo"
    if "--bin" in args:
        i = args.index("--bin")
        if i + 1 >= len(args):
            sys.exit("error: --bin takes a path")
        binary = Path(args[i + 1]).resolve()
        del args[i : i + 2]
    every = sorted(p.stem for p in (ROOT / "experiments").glob("*.toml"))
    if "--all" in args:
        names = every
    elif "--slow" in args:
        names = [n for n in every if n not in FAST]
    else:
        names = args or FAST
    for n in names:
        if n.startswith("-") or n not in every:
            sys.exit(f"error: {n}: no experiments/{n}.toml (usage: {__doc__.splitlines()[3].strip()})")
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "tresillo-cli"], cwd=ROOT, check=True)
    bad = 0
    for n in names:
        line = check(n, binary)
        print(line, flush=True)
        bad += " reproduced " not in line
    if bad:
        sys.exit(f"check-experiments: {bad} of {len(names)} experiments do not reproduce their committed results")
    print(f"check-experiments: all {len(names)} experiments reproduce their committed results")


if __name__ == "__main__":
    main()
