#!/usr/bin/env bash
# CI step (issue 25): runs written with --format parquet are read by
# scripts/analyze.py, which recomputes their summary.csv field for field (scored by
# the deal and by sessions, four players, hombre, lhombre); a truncated or foreign
# deals.parquet is one error line naming the file; and docs/CLI.md's pandas, polars
# and DuckDB snippets run on a parquet run.
#
#   bash scripts/check-parquet.sh PYTHON     # a python with pandas, pyarrow, polars, duckdb
#
# .ci/run calls it with the Python package's virtual environment (no skip there);
# scripts/check-analyze.sh calls it when its own environment has pyarrow.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${1:?usage: scripts/check-parquet.sh PYTHON}
target=${CARGO_TARGET_DIR:-target}
out=$(cd "$(dirname "$target")" && pwd)/$(basename "$target")/parquet-check
rm -rf "$out" && mkdir -p "$out"

tresillo() { cargo run --release -q -p tresillo-cli -- "$@"; }
tresillo tournament --agents rule,rule,random --deals 1000 --duplicate --format parquet --out "$out/deal" >/dev/null
tresillo tournament --agents random,rule,rule --deals 300 --duplicate --scoring session:4 --format both \
    --out "$out/session" >/dev/null
tresillo tournament --players 4 --agents rule,random,rule,random --deals 100 --duplicate --format parquet \
    --out "$out/four" >/dev/null
tresillo tournament --rules hombre --rule-option contrabola=true --rule-option gascarille=true \
    --agents rule,random,random --deals 300 --duplicate --format parquet --out "$out/hombre" >/dev/null
tresillo tournament --rules lhombre --agents rule,random,rule --deals 300 --duplicate --format parquet \
    --out "$out/lhombre" >/dev/null
# `both`: analyze.py and paired.py read the CSV; without it, the Parquet file.
paired_csv=$("$py" scripts/paired.py "$out/session" 0 2)
rm "$out/session/deals.csv"
paired_pq=$("$py" scripts/paired.py "$out/session" 0 2)
[ "$paired_csv" = "$paired_pq" ] || {
    printf 'check-parquet: paired.py from deals.csv:\n%s\nfrom deals.parquet:\n%s\n' "$paired_csv" "$paired_pq" >&2
    exit 1
}
[ "$("$py" scripts/paired.py "$out/deal" 1 --across "$out/deal" | grep -E '^[-+][0-9.]+ \[')" = "+0.0000 [+0.0000, +0.0000]" ] || {
    echo "check-parquet: paired.py --across on a Parquet run: a slot against itself is not 0" >&2
    exit 1
}
echo "check-parquet: paired.py gives the same numbers from deals.parquet as from deals.csv"
for run in deal session four hombre lhombre; do
    got=$("$py" scripts/analyze.py "$out/$run" --check)
    [[ "$got" == *"recomputed from deals.parquet, field for field"* ]] || {
        printf 'check-parquet: %s: %s\n' "$run" "$got" >&2
        exit 1
    }
done
echo "check-parquet: analyze.py recomputes summary.csv from deals.parquet (5 runs)"

# Bad input: one line naming the file, for analyze.py and tresillo report.
bad="$out/bad"
cp -r "$out/deal" "$bad"
size=$(stat -c %s "$out/deal/deals.parquet")
head -c $((size / 2)) "$out/deal/deals.parquet" >"$bad/deals.parquet"
expect_error() { # expect_error WANT COMMAND...: the command fails with one line holding WANT
    local want=$1 got
    shift
    if got=$("$@" 2>&1); then
        echo "check-parquet: $*: accepted a bad deals.parquet" >&2
        exit 1
    fi
    if [ "$(printf '%s\n' "$got" | wc -l)" != 1 ] || [[ "$got" != *"$want"* ]]; then
        printf 'check-parquet: %s: expected one line with %s, got:\n%s\n' "$*" "$want" "$got" >&2
        exit 1
    fi
}
expect_error "$bad/deals.parquet: holds $((size / 2)) bytes" "$py" scripts/analyze.py "$bad"
expect_error "$bad/deals.parquet: holds $((size / 2)) bytes" "$py" scripts/paired.py "$bad" 0
expect_error "$bad/deals.parquet" tresillo report "$bad" --out "$out/bad.html"
# A file of the right size that is not Parquet: its checksum refuses it first ...
head -c "$size" /dev/zero | tr '\0' x >"$bad/deals.parquet"
expect_error "$bad/deals.parquet: its bytes do not match the checksum" "$py" scripts/analyze.py "$bad"
expect_error "deals.parquet" tresillo verify "$bad"
# ... and without one (a run of a version before checksums), the reader does.
"$py" - "$bad/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m.pop("crc32", None)
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
expect_error "$bad/deals.parquet: not a readable deals.parquet" "$py" scripts/analyze.py "$bad"
expect_error "$bad/deals.parquet: not a readable Parquet file" tresillo report "$bad" --out "$out/bad.html"
expect_error "$bad/deals.parquet: not a readable deals.parquet" "$py" scripts/paired.py "$bad" 0
echo "check-parquet: a truncated or foreign deals.parquet is one error line naming it"

# docs/CLI.md's snippets (the ```python blocks that read deals.parquet), run where
# out/pq is a parquet run.
mkdir -p "$out/readme/out"
cp -r "$out/deal" "$out/readme/out/pq"
awk '/^```python$/ { on = 1; block = ""; next }
     /^```$/ { if (on && block ~ /deals.parquet/) { n++; f = dir "/snippet" n ".py"; printf "%s", block > f; close(f) } on = 0; next }
     on { block = block $0 "\n" }' dir="$out/readme" docs/CLI.md
n=0
for f in "$out/readme"/snippet*.py; do
    (cd "$out/readme" && "$py" "$f" >/dev/null)
    n=$((n + 1))
done
[ "$n" -ge 3 ] || { echo "check-parquet: found $n docs/CLI.md snippets reading deals.parquet, expected 3" >&2; exit 1; }
echo "check-parquet: docs/CLI.md's $n Parquet snippets run"
rm -rf "$out"
