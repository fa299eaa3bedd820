"""Reading a tournament's run directory with the standard library alone: the
manifest, and deals.csv checked line by line, with one-line errors that name the
file, line, column and token (shared by analyze.py and paired.py)."""

import csv
import json
import math
import zlib
from pathlib import Path

# Student's t, as crates/tresillo-sim/src/student.rs computes it (the same
# operations in the same order, so the printed digits agree with the Rust code).
Z95 = 1.959963984540054


def t_two_sided(t, df):
    """A(t|df) = P(|T| <= t) for integer df >= 1 (Abramowitz and Stegun 26.7.3/4)."""
    nu = max(df, 1)
    th = math.atan(t / math.sqrt(float(nu)))
    s, c = math.sin(th), math.cos(th)
    c2 = c * c
    if nu % 2 == 1:
        total = 0.0
        if nu > 1:
            term = c
            total = c
            k = 3
            while k < nu:
                term *= c2 * float(k - 1) / float(k)
                total += term
                k += 2
        return 2.0 / math.pi * (th + s * total)
    term = 1.0
    total = 1.0
    k = 2
    while k < nu:
        term *= c2 * float(k - 1) / float(k)
        total += term
        k += 2
    return s * total


def t95(df):
    """The two-sided 95% quantile of Student's t with df degrees of freedom."""
    if df == 0:
        return float("nan")
    if df > 1000:
        z = Z95
        v = float(df)
        z2 = z * z
        z3 = z2 * z
        z5 = z3 * z2
        z7 = z5 * z2
        z9 = z7 * z2
        g1 = (z3 + z) / 4.0
        g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0
        g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0
        g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0
        return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v)
    lo, hi = Z95, 13.0
    while t_two_sided(hi, df) < 0.95:
        hi *= 2.0
    while True:
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            return hi
        if t_two_sided(mid, df) < 0.95:
            lo = mid
        else:
            hi = mid


def erfc(x):
    """Numerical Recipes' erfcc (x >= 0), as the Rust code computes it."""
    t = 1.0 / (1.0 + 0.5 * x)
    p = -x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
        0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    return t * math.exp(p)


def t_cdf(t, df):
    """P(T <= t), Student's t with df degrees of freedom (the normal above 100,000)."""
    a = 1.0 - erfc(abs(t) / math.sqrt(2.0)) if df > 100_000 else t_two_sided(abs(t), df)
    # Rounding may carry the closed form a hair past 1: a probability stays in [0, 1].
    return min(1.0, 0.5 + 0.5 * a) if t >= 0.0 else max(0.0, 0.5 - 0.5 * a)


def half_width(var, n):
    """The half-width of the 95% interval on a mean of n values of sample variance var."""
    if n < 2:
        return float("nan")
    return t95(n - 1) * math.sqrt(max(var, 0.0) / float(n))


class BadInput(Exception):
    """Input that cannot be read: the message names the file, line and token."""


# deals.csv's columns as tresillo defines them once (crates/tresillo-sim/src/schema.rs):
# the committed docs/deals-columns.json, which `tresillo schema deals` prints and a
# Rust test keeps equal to the definition. Each column has a name, a kind (u64, u8,
# i64, name, text) and whether a row may leave it empty; with them, each contract's
# family (the summary column it counts in).
SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "deals-columns.json"
with open(SCHEMA_FILE, encoding="utf-8") as _f:
    SCHEMA = json.load(_f)
CONTRACT_FAMILIES = SCHEMA["contract_families"]
_INTEGER_KINDS = ("u64", "u8", "i64")
# Integer columns: those every row fills, and those a row may leave empty (pandas
# reads them as Int64, "" for none).
INTEGERS = [c["name"] for c in SCHEMA["columns"] if c["kind"] in _INTEGER_KINDS and not c["nullable"]]
OPTIONAL_INTEGERS = [c["name"] for c in SCHEMA["columns"] if c["kind"] in _INTEGER_KINDS and c["nullable"]]
# The columns the summary needs, which every deals.csv has (later columns, such as
# players and the seat-3 ones, may be missing from files written before them).
NEEDED = (
    ["deal", "forced"] + [f"{k}{s}" for k in ("pool", "cond") for s in range(3)] + ["seating", "contract", "outcome"]
)


def pandas_dtypes(names):
    """The dtypes the scripts read `names` with: integers as int64 (uint64 for the
    u64 kind, which holds seeds), nullable ones as Int64 (UInt64), names and texts
    as str ("" for none)."""
    out = {}
    for c in SCHEMA["columns"]:
        if c["name"] not in names:
            continue
        if c["kind"] in _INTEGER_KINDS:
            t = "uint64" if c["kind"] == "u64" else "int64"
            out[c["name"]] = {"uint64": "UInt64", "int64": "Int64"}[t] if c["nullable"] else t
        else:
            out[c["name"]] = str
    return out


def first_bad_token(path):
    """The first line of a deals.csv that pandas could not have read as the
    summary needs it: a wrong number of fields, a missing column, or a token
    that is not an integer (or a seating that is not a string of slot digits)."""
    try:
        return scan_tokens(path)
    except CsvError as e:
        return f"{path} line {e.line}: {e.error}"
    except UnicodeDecodeError:
        with open(path, "rb") as f:
            for line, raw in enumerate(f, start=1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    return f"{path} line {line}: not UTF-8 text ({e.reason} at column {e.start + 1})"
        return f"{path}: not UTF-8 text"


class CsvError(csv.Error):
    """A malformed CSV record, with its line."""

    def __init__(self, line, error):
        super().__init__(error)
        self.line, self.error = line, error


def scan_tokens(path):
    """[`first_bad_token`] itself; raises CsvError for malformed CSV."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)

        def numbered():
            while True:
                start = reader.line_num + 1
                try:
                    row = next(reader)
                except StopIteration:
                    return
                except csv.Error as e:
                    raise CsvError(start, f"a record that does not parse ({e}; an unclosed quote?)") from None
                yield row

        rows = numbered()
        try:
            header = next(rows)
        except StopIteration:
            return f"{path}: empty file (no header line)"
        for col in NEEDED:
            if col not in header:
                return f"{path} line 1: no column {col!r}"
        index = {c: i for i, c in enumerate(header)}
        for row in rows:
            line = reader.line_num
            if len(row) != len(header):
                return f"{path} line {line}: {len(row)} fields, the header has {len(header)}"
            for col in INTEGERS + OPTIONAL_INTEGERS:
                if col not in index:
                    continue
                token = row[index[col]]
                if token == "" and col in OPTIONAL_INTEGERS:
                    continue
                if not token.lstrip("-").isdigit():
                    return f"{path} line {line}, column {col}: {token!r} is not an integer"
            token = row[index["seating"]]
            if not token.isdigit():
                return f"{path} line {line}, column seating: {token!r} is not a string of slot digits"
    return None


def read_manifest(run):
    """The run's manifest.json as a dict; BadInput names the file and line."""
    path = Path(run) / "manifest.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise BadInput(f"{path} line {e.lineno}, column {e.colno}: {e.msg}") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text") from None


def verify_crc(path, want, length=None):
    """Refuse `path` when the CRC-32 (zlib's) of its first `length` bytes (all of
    them when None) is not `want`, the 8 hex digits its manifest records."""
    crc, left = 0, length
    with open(path, "rb") as f:
        while left is None or left > 0:
            block = f.read(1 << 20 if left is None else min(1 << 20, left))
            if not block:
                break
            crc = zlib.crc32(block, crc)
            if left is not None:
                left -= len(block)
    got = format(crc, "08x")
    if got != want:
        raise BadInput(
            f"{path}: its bytes do not match the checksum its manifest records (crc32 {want}, found {got}):"
            " the file was changed or damaged; restore it or run the tournament again with --force"
        )


def check_crc(run, manifest, name, length=None):
    """Verify `run/name` against the manifest's `crc32` map, when it has an entry
    (manifests written before checksums have none)."""
    sums = manifest.get("crc32") if isinstance(manifest, dict) else None
    if isinstance(sums, dict) and isinstance(sums.get(name), str):
        verify_crc(Path(run) / name, sums[name], length)


def check_run(run, parquet_ok=False):
    """The run directory exists and holds manifest.json and a deals.csv of the
    length the manifest records: shorter than the last checkpoint is refused as cut
    short; a complete run's file of another length as changed (naming its first bad
    token when it has one). With `parquet_ok`, a run without deals.csv may hold
    deals.parquet instead (`--format parquet`), of exactly the size the manifest
    records (`parquet_bytes`). Returns the manifest."""
    run = Path(run)
    if not run.is_dir():
        raise BadInput(f"{run}: no such run directory")
    if parquet_ok and not (run / "deals.csv").exists() and (run / "deals.parquet").is_file():
        if not (run / "manifest.json").is_file():
            raise BadInput(f"{run / 'manifest.json'}: missing")
        manifest = read_manifest(run)
        want = manifest.get("parquet_bytes") if isinstance(manifest, dict) else None
        have = (run / "deals.parquet").stat().st_size
        if have != want:
            raise BadInput(
                f"{run / 'deals.parquet'}: holds {have} bytes but the run's manifest counts {want}: the file"
                " was truncated or changed (run the tournament again with --force)"
            )
        check_crc(run, manifest, "deals.parquet")
        return manifest
    for f in ["manifest.json", "deals.csv"]:
        if not (run / f).is_file():
            raise BadInput(f"{run / f}: missing")
    manifest = read_manifest(run)
    want = manifest.get("csv_bytes") if isinstance(manifest, dict) else None
    if isinstance(want, int):
        deals = run / "deals.csv"
        have = deals.stat().st_size
        size = (
            f"{deals}: holds {have} bytes but the run's manifest counts {want}: the file was"
            " truncated or changed (run the tournament again with --force)"
        )
        if have < want:
            raise BadInput(size)
        if manifest.get("complete") is True and have != want:
            # A longer file was changed after the run: name the bad token if there is one.
            raise BadInput(first_bad_token(deals) or size)
        check_crc(run, manifest, "deals.csv", want)
    return manifest
