#!/usr/bin/env bash
# Checks parallel-shards.sh and slurm-shards.sh: a small tournament run as shards
# and merged must give the same deals.csv and summary.csv as the unsplit run.
# slurm-shards.sh runs against a stand-in `sbatch` that runs the array tasks one
# after another, then the dependent merge job.
#
# Usage:
#   scripts/test-shard-scripts.sh          # after cargo build --release -p tresillo-cli
# Environment: TRESILLO (the binary, default target/release/tresillo).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
TRESILLO=${TRESILLO:-$here/../target/release/tresillo}
[[ -x "$TRESILLO" ]] || { echo "error: build first: cargo build --release -p tresillo-cli" >&2; exit 2; }
export TRESILLO
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tresillo-shards.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
args=(--agents rule,rule,random --deals 301 --seed 11 --duplicate)

"$TRESILLO" tournament "${args[@]}" --out "$tmp/whole" --threads 2 >/dev/null

same() {
    for f in deals.csv summary.csv; do
        cmp "$tmp/whole/$f" "$1/$f" || { echo "FAIL: $1/$f differs from the unsplit run" >&2; exit 1; }
    done
    echo "ok: $2"
}

# GNU parallel, or xargs -P when it is missing.
"$here/parallel-shards.sh" 3 "$tmp/par" "${args[@]}" >/dev/null
same "$tmp/par" "parallel-shards.sh, 3 shards"
NO_GNU_PARALLEL=1 JOBS=2 THREADS=1 "$here/parallel-shards.sh" 4 "$tmp/xargs" "${args[@]}" >/dev/null
same "$tmp/xargs" "parallel-shards.sh with xargs -P, 4 shards, 2 at once"
# The documented manual merge: OUT.shards/ holds only shard directories.
"$TRESILLO" merge "$tmp/manual" "$tmp/par.shards"/* >/dev/null
same "$tmp/manual" "tresillo merge OUT OUT.shards/* after parallel-shards.sh"
[[ -s "$tmp/par.shards/0/tournament.log" ]] || { echo "FAIL: no shard log in $tmp/par.shards/0" >&2; exit 1; }
# A rerun refuses to overwrite the merged run; FORCE=1 redoes it.
if "$here/parallel-shards.sh" 3 "$tmp/par" "${args[@]}" >/dev/null 2>&1; then
    echo "FAIL: a second run overwrote the merged run" >&2
    exit 1
fi
FORCE=1 "$here/parallel-shards.sh" 3 "$tmp/par" "${args[@]}" >/dev/null
same "$tmp/par" "parallel-shards.sh FORCE=1 rerun"
# Options the script owns are refused.
if "$here/parallel-shards.sh" 2 "$tmp/bad" "${args[@]}" --shard 0/2 2>/dev/null; then
    echo "FAIL: --shard accepted" >&2
    exit 1
fi
echo "ok: parallel-shards.sh refuses --shard"

# SLURM, with a stand-in sbatch.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'SBATCH'
#!/usr/bin/env bash
# Stand-in for sbatch: `--array=A-B` runs the script once per task id, in order;
# anything else runs it once. Prints a job id as --parsable does.
set -euo pipefail
array= script=
while [[ $# -gt 0 && -z "$script" ]]; do
    case "$1" in
        --array=*) array=${1#--array=} ;;
        -*) ;;
        *) script=$1 ;;
    esac
    shift
done
echo "sbatch: $script $*" >>"$SBATCH_LOG"
if [[ -n "$array" ]]; then
    for ((k = ${array%-*}; k <= ${array#*-}; k++)); do
        SLURM_ARRAY_TASK_ID=$k SLURM_CPUS_PER_TASK=2 bash "$script" "$@" 2>/dev/null >/dev/null
    done
else
    bash "$script" "$@" >/dev/null
fi
echo $RANDOM
SBATCH
chmod +x "$tmp/bin/sbatch"
export SBATCH_LOG=$tmp/sbatch.log
SBATCH="$tmp/bin/sbatch" "$here/slurm-shards.sh" 5 "$tmp/slurm" "${args[@]}"
same "$tmp/slurm" "slurm-shards.sh, 5 array tasks and a dependent merge"
grep -q -- "__task 5 $tmp/slurm" "$SBATCH_LOG" && grep -q -- "__merge 5 $tmp/slurm" "$SBATCH_LOG" \
    || { echo "FAIL: unexpected sbatch calls:" >&2; cat "$SBATCH_LOG" >&2; exit 1; }
echo "all shard script checks passed"
