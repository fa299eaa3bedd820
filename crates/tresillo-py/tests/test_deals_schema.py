"""deals.csv's columns come from their one definition in Rust (tresillo_sim::schema):
the package's DEALS_DTYPES and read_deals give every column the dtype its kind
maps to, whether the run wrote deals.csv or deals.parquet."""

import json
import os

import tresillo
import tresillo.analysis
from conftest import ROOT, need

# docs/PYTHON.md's mapping of a column's kind to its pandas dtype.
WANT = {
    ("u64", False): "uint64",
    ("u64", True): "UInt64",
    ("u8", False): "int64",
    ("u8", True): "Int64",
    ("i64", False): "int64",
    ("i64", True): "Int64",
    ("name", False): "category",
    ("name", True): "category",
    ("text", False): "string",
    ("text", True): "string",
}


def schema():
    """The committed docs/deals-columns.json (`tresillo schema deals`)."""
    with open(os.path.join(ROOT, "docs", "deals-columns.json"), encoding="utf-8") as f:
        return json.load(f)


def test_deals_dtypes_is_the_schema_column_for_column():
    cols = schema()["columns"]
    want = {c["name"]: WANT[(c["kind"], c["nullable"])] for c in cols}
    assert list(tresillo.analysis.DEALS_DTYPES) == [c["name"] for c in cols]
    assert tresillo.analysis.DEALS_DTYPES == want
    assert tresillo.analysis.CONTRACT_FAMILIES == schema()["contract_families"]


def test_read_deals_gives_every_column_the_dtype_of_the_schema(tmp_path):
    need("pandas")
    need("pyarrow")
    cols = schema()["columns"]
    kw = dict(deals=20, duplicate=True, seed=5, bidding="rule")
    tresillo.tournament(["rule", "random", "rule"], out=tmp_path / "csv", **kw)
    tresillo.tournament(["rule", "random", "rule"], out=tmp_path / "pq", format="parquet", **kw)
    for run in ("csv", "pq"):
        df = tresillo.read_deals(tmp_path / run)
        assert list(df.columns) == [c["name"] for c in cols]
        got = {c: str(df[c].dtype) for c in df.columns}
        assert got == {c["name"]: WANT[(c["kind"], c["nullable"])] for c in cols}, run
