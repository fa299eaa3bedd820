#!/usr/bin/env bash
# CI step: scripts/analyze.py must recompute summary.csv from deals.csv, field for
# field, for small tournaments: scored by the deal and by sessions, four players
# (penetro, drop-outs; and penetro_all_play in sessions), hombre with contrabola and
# gascarille, lhombre, and a deals.csv cut back to the columns of older versions
# (no players, seat-3, penetro, gascarille columns).
# Usage: scripts/check-analyze.sh [PYTHON]: PYTHON has scripts/requirements.txt
# installed (CI passes its .venv's, which has them); without it, makes a virtual
# environment under the cargo target directory and installs them into it. Skipped
# (exit 0, with a message) where python3 or its venv module is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-target}
out="$target/analyze-check"
if [ -n "${1:-}" ]; then
    py=$1
    "$py" -c 'import pandas' || { echo "check-analyze: $py has no pandas (scripts/requirements.txt)" >&2; exit 1; }
else
    if ! command -v python3 >/dev/null 2>&1; then
        echo "check-analyze: skipped: python3 not found"
        exit 0
    fi
    if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
        echo "check-analyze: skipped: python3 has no venv module (Debian: apt-get install python3-venv)"
        exit 0
    fi
    venv="$target/analyze-venv"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r scripts/requirements.txt
    py="$venv/bin/python"
fi

tresillo() { cargo run --release -q -p tresillo-cli -- "$@"; }
tresillo tournament --agents rule,rule:takeover=40,random --deals 2000 --duplicate \
    --out "$out/deal" --force >/dev/null
tresillo tournament --agents random,rule,rule --deals 600 --duplicate --scoring session:4 \
    --out "$out/session" --force >/dev/null
tresillo tournament --players 4 --agents rule,random,rule,random --deals 300 --duplicate \
    --out "$out/four" --force >/dev/null
tresillo tournament --players 4 --rule-option penetro_all_play=true --agents rule,rule,random,random \
    --deals 100 --duplicate --scoring session:4 --out "$out/four-session" --force >/dev/null
tresillo tournament --rules hombre --rule-option contrabola=true --rule-option gascarille=true \
    --agents rule,random,random --deals 500 --duplicate --out "$out/hombre" --force >/dev/null
tresillo tournament --rules lhombre --agents rule,random,rule --deals 500 --duplicate \
    --out "$out/lhombre" --force >/dev/null
# An older deals.csv: the columns from `players` on did not exist.
rm -rf "$out/old" && cp -r "$out/deal" "$out/old"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "players") cut = i - 1 }
    { NF = cut; print }' "$out/deal/deals.csv" >"$out/old/deals.csv"
# ... and its manifest recorded the size of that file.
"$py" - "$out/old" <<'PY'
import json, pathlib, sys
run = pathlib.Path(sys.argv[1])
m = json.loads((run / "manifest.json").read_text())
m["csv_bytes"] = (run / "deals.csv").stat().st_size
m.pop("crc32", None)  # older versions recorded no checksums
(run / "manifest.json").write_text(json.dumps(m, indent=2))
PY
for run in "$out/deal" "$out/session" "$out/four" "$out/four-session" "$out/hombre" "$out/lhombre" "$out/old"; do
    "$py" scripts/analyze.py "$run" --check
done

# Malformed input: a one-line error naming the file, line and token, never a
# Python traceback (scripts/rundir.py checks, shared with paired.py).
bad="$out/bad"
expect_error() { # expect_error NAME WANT: analyze.py on $bad/NAME fails with WANT
    local got
    if got=$("$py" scripts/analyze.py "$bad/$1" 2>&1); then
        echo "check-analyze: $1: accepted a malformed file" >&2
        exit 1
    fi
    if [ "$(printf '%s\n' "$got" | wc -l)" != 1 ] || [[ "$got" != *"$2"* ]]; then
        printf 'check-analyze: %s: expected one line with %s, got:\n%s\n' "$1" "$2" "$got" >&2
        exit 1
    fi
}
# Each bad file's run has no checksums (as from a version before them), so that the
# reader's own message is the one checked; the checksum case comes last.
copy() {
    rm -rf "${bad:?}/$1" && mkdir -p "$bad" && cp -r "$out/deal" "$bad/$1"
    "$py" -c 'import json, sys; p = sys.argv[1]; m = json.load(open(p)); m.pop("crc32", None); json.dump(m, open(p, "w"), indent=2)' "$bad/$1/manifest.json"
}
set_field() { # set_field NAME LINE COLUMN VALUE
    awk -F, -v OFS=, -v l="$2" -v c="$3" -v x="$4" 'NR == l { $c = x } 1' "$out/deal/deals.csv" >"$bad/$1/deals.csv"
}
col() { head -1 "$out/deal/deals.csv" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
copy deal-token && set_field deal-token 5 1 x4
expect_error deal-token "deals.csv line 5, column deal: 'x4' is not an integer"
copy pool-float && set_field pool-float 9 "$(col pool1)" 1.5
expect_error pool-float "deals.csv line 9, column pool1: '1.5' is not an integer"
copy seating && set_field seating 7 "$(col seating)" 019
expect_error seating "deals.csv line 7, column seating: '019' is not a seating of 3 slots"
copy fields && sed '6s/$/,extra/' "$out/deal/deals.csv" >"$bad/fields/deals.csv"
expect_error fields "deals.csv line 6: "
copy quote && sed '12s/,/,"/' "$out/deal/deals.csv" >"$bad/quote/deals.csv"
expect_error quote "deals.csv line 12: a record that does not parse"
copy manifest && echo '{"config": ' >"$bad/manifest/manifest.json"
expect_error manifest "manifest.json line 2"
# A complete run's deals.csv cut short: refused, not summarized from the rows left.
copy truncated && head -c 5000 "$out/deal/deals.csv" >"$bad/truncated/deals.csv"
expect_error truncated "deals.csv: holds 5000 bytes but the run's manifest counts"
expect_error missing-dir "missing-dir: no such run directory"
# With its checksums, a changed cell of the same size is refused by them.
# (Line 7's seating swapped for another of the three digits: the same size, still valid.)
rm -rf "$bad/changed" && cp -r "$out/deal" "$bad/changed"
awk -F, -v OFS=, -v c="$(col seating)" 'NR == 7 { $c = ($c == "012" ? "021" : "012") } 1' \
    "$out/deal/deals.csv" >"$bad/changed/deals.csv"
expect_error changed "deals.csv: its bytes do not match the checksum its manifest records"
echo "check-analyze: malformed files give one-line errors"

# scripts/paired.py (standard library): the paired difference, and one-line errors
# for the same bad inputs.
paired() { "$py" scripts/paired.py "$@"; }
got=$(paired "$out/deal" 0 2)
[[ "$got" == *"slot 0 minus slot 2, tantos per deal (paired by deal), 2000 deals:"* ]] || {
    printf 'check-analyze: paired.py printed:\n%s\n' "$got" >&2
    exit 1
}
expect_paired_error() { # expect_paired_error WANT ARGS...: paired.py ARGS fails with WANT
    local want=$1 got
    shift
    if got=$(paired "$@" 2>&1); then
        echo "check-analyze: paired.py $*: accepted bad input" >&2
        exit 1
    fi
    if [ "$(printf '%s\n' "$got" | wc -l)" != 1 ] || [[ "$got" != "error: "*"$want"* ]]; then
        printf 'check-analyze: paired.py %s: expected one line with %s, got:\n%s\n' "$*" "$want" "$got" >&2
        exit 1
    fi
}
expect_paired_error "no such run directory" "$bad/missing-dir" 0
expect_paired_error "deals.csv: holds 5000 bytes but the run's manifest counts" "$bad/truncated" 0
expect_paired_error "deals.csv line 5, column deal: 'x4' is not an integer" "$bad/deal-token" 0
expect_paired_error "deals.csv line 12: a record that does not parse" "$bad/quote" 0
expect_paired_error "manifest.json line 2" "$bad/manifest" 0
expect_paired_error "SLOT 3: the run $out/deal has slots 0 to 2" "$out/deal" 3
expect_paired_error "SLOT 'x' is not a slot number" "$out/deal" x
expect_paired_error "OTHER is SLOT (1)" "$out/deal" 1 1
expect_paired_error "usage: scripts/paired.py RUN_DIR SLOT [OTHER | --across RUN_B [SLOT_B]]" "$out/deal"
# --across: a run against itself gives the within-run difference; runs of other
# deals are refused.
within=$(paired "$out/deal" 0 1 | grep -E '^[-+][0-9.]+ \[')
across=$(paired "$out/deal" 0 --across "$out/deal" 1 | grep -E '^[-+][0-9.]+ \[')
[ "$within" = "$across" ] || {
    echo "check-analyze: paired.py --across gave $across, within the run $within" >&2
    exit 1
}
[ "$(paired "$out/deal" 2 --across "$out/deal" | grep -E '^[-+][0-9.]+ \[')" = "+0.0000 [+0.0000, +0.0000]" ] || {
    echo "check-analyze: paired.py --across: a slot against itself is not 0" >&2
    exit 1
}
tresillo tournament --agents rule,random,random --deals 2000 --duplicate --seed 99 \
    --out "$out/deal-seed99" --force >/dev/null
expect_paired_error "deal 0 is not the deal of" "$out/deal" 0 --across "$out/deal-seed99"
expect_paired_error "did not play the same deals (2000 and 500)" "$out/deal" 0 --across "$out/lhombre"
expect_paired_error "is scored per deal" "$out/deal" 0 --across "$out/session"
echo "check-analyze: paired.py gives the paired difference, and one-line errors"

# deals.parquet (--format parquet): needs pyarrow, which scripts/requirements.txt
# does not install; .ci/run checks it in the Python package's environment (it
# passes that PYTHON here and runs scripts/check-parquet.sh itself).
if [ -n "${1:-}" ]; then
    echo "check-analyze: deals.parquet is scripts/check-parquet.sh's (run it with $py)"
elif "$py" -c 'import pyarrow, polars, duckdb' >/dev/null 2>&1; then
    bash scripts/check-parquet.sh "$py"
else
    echo "check-analyze: deals.parquet skipped here (no pyarrow, polars, duckdb in $venv); .ci/run checks it"
fi
