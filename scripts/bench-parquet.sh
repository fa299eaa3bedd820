#!/usr/bin/env bash
# Issue 25's measurements: a duplicate tournament of rule,rule,random written with
# --format csv, parquet and both, alternated ROUNDS times (the machine may be shared:
# the load average is printed with each run), each run's wall time and peak memory
# (/usr/bin/time -v), the files' sizes, then pandas loading each file and computing
# the mean tantos per slot (scripts/bench-parquet-load.py: time and peak memory).
#
#   bash scripts/bench-parquet.sh [DEALS [ROUNDS [OUT]]]     # 1000000 2 out/bench-parquet
#
# Needs the release build (cargo build --release -p tresillo-cli), GNU time, and a
# python3 with pandas and pyarrow (PYTHON=/path/to/python to choose one).
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-1000000}
rounds=${2:-2}
out=${3:-out/bench-parquet}
py=${PYTHON:-python3}
bin=${TRESILLO:-target/release/tresillo}
mkdir -p "$out"
echo "# $deals duplicate deals of rule,rule,random, $(nproc) cores, $(date -u +%FT%TZ)"
printf '%-8s %-6s %9s %9s %10s %8s  %s\n' format round wall_s cpu_s peak_mb cpu% "load average before"
for r in $(seq "$rounds"); do
    for f in csv parquet both; do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        /usr/bin/time -v "$bin" tournament --agents rule,rule,random --deals "$deals" --duplicate --seed 1 \
            --format "$f" --out "$out/$f" --force >/dev/null 2>"$out/time-$f.txt"
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$out/time-$f.txt")
        rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$out/time-$f.txt")
        cpu=$(awk -F': ' '/Percent of CPU/ { print $2 }' "$out/time-$f.txt")
        cpus=$(awk -F': ' '/(User|System) time/ { s += $2 } END { print s }' "$out/time-$f.txt")
        printf '%-8s %-6s %9s %9s %10s %8s  %s\n' "$f" "$r" "$wall" "$cpus" "$rss" "$cpu" "$load"
    done
done
cmp "$out/parquet/deals.parquet" "$out/both/deals.parquet"
cmp "$out/csv/deals.csv" "$out/both/deals.csv"
echo "# sizes (bytes): deals.csv $(stat -c %s "$out/csv/deals.csv"), deals.parquet $(stat -c %s "$out/parquet/deals.parquet")"
echo "# pandas $("$py" -c 'import pandas, pyarrow; print(pandas.__version__, "pyarrow", pyarrow.__version__)'): load and mean tantos per slot"
for r in $(seq "$rounds"); do
    "$py" scripts/bench-parquet-load.py "$out/csv/deals.csv"
    "$py" scripts/bench-parquet-load.py "$out/parquet/deals.parquet"
    "$py" scripts/bench-parquet-load.py "$out/parquet/deals.parquet" --arrow
done
