#!/usr/bin/env bash
#SBATCH --job-name=tresillo
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --requeue
#SBATCH --output=slurm-%x-%A_%a.out
#
# Run one tournament as a SLURM array job, one shard per array task, and merge the
# shards in a job that starts when every task has succeeded. The merged run is
# byte-identical to the unsplit run (see docs/CLUSTER.md).
#
# Usage (on the login node, from the repository root):
#   scripts/slurm-shards.sh N OUT [tournament options...]
#
# Example (32 shards of 100 million deals):
#   SBATCH_OPTS="--partition=short" \
#   scripts/slurm-shards.sh 32 results/huge \
#       --agents rule,rule,rule --deals 100000000 --seed 1 --duplicate
#
# This submits
#   1. an array job 0..N-1: task k runs
#        tresillo tournament ... --shard k/N --out OUT.shards/k --resume
#      with --threads set to the task's CPUs (SLURM_CPUS_PER_TASK);
#   2. a merge job with --dependency=afterok on the array:
#        tresillo merge OUT OUT.shards/0 ... OUT.shards/N-1
# and prints both job ids. A task that is preempted or requeued resumes its shard
# from the last checkpoint (--resume), so no finished deal is played twice. If a
# task fails or is cancelled, SLURM cancels the merge job (--kill-on-invalid-dep=yes;
# without it the job would stay pending for ever, DependencyNeverSatisfied): fix the
# cause and, once no task of that array runs any more, run this script again with
# the same arguments. Finished shards return at once, the others resume from their
# checkpoints, and a new merge job merges. A merge can also be done by hand once
# every shard is finished:
#   tresillo merge OUT OUT.shards/*        # add --force to replace a merged run
#
# Environment:
#   TRESILLO     the binary (default: target/release/tresillo if built, else
#                `tresillo` on PATH); resolved to an absolute path at submission
#   SBATCH_OPTS  extra sbatch options for both jobs (partition, account, time...);
#                the #SBATCH lines above are the defaults (a node with fewer than
#                4 CPUs needs --cpus-per-task=C here)
#   SBATCH       the sbatch command (default: sbatch)
#
# The tournament options are those of `tresillo tournament` except --out, --shard,
# --threads, --resume and --force, which this script sets.
set -euo pipefail

mode=${1:-}

if [[ "$mode" == __task ]]; then
    # Inside one array task.
    shift
    n=$1 out=$2
    shift 2
    k=${SLURM_ARRAY_TASK_ID:?not inside a SLURM array task}
    threads=${SLURM_CPUS_PER_TASK:-1}
    echo "shard $k/$n on $(hostname) with $threads threads -> $out.shards/$k" >&2
    mkdir -p "$out.shards"
    exec "$TRESILLO" tournament "$@" --shard "$k/$n" --out "$out.shards/$k" --threads "$threads" --resume
fi

if [[ "$mode" == __merge ]]; then
    # The dependent merge job.
    n=$2 out=$3
    shards=()
    for ((k = 0; k < n; k++)); do shards+=("$out.shards/$k"); done
    exec "$TRESILLO" merge "$out" "${shards[@]}"
fi

if [[ $# -lt 2 ]]; then
    sed -n '8,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
n=$1 out=$2
shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive integer, got '$n'" >&2; exit 2; }
for a in "$@"; do
    case "$a" in
        --out | --out=* | --shard | --shard=* | --threads | --threads=* | --resume | --force)
            echo "error: $a is set by this script" >&2
            exit 2
            ;;
    esac
done
if [[ -z "${TRESILLO:-}" ]]; then
    root=$(cd "$(dirname "$0")/.." && pwd)
    if [[ -x "$root/target/release/tresillo" ]]; then TRESILLO="$root/target/release/tresillo"; else TRESILLO=tresillo; fi
fi
TRESILLO=$(command -v "$TRESILLO") || { echo "error: tresillo binary not found (set TRESILLO)" >&2; exit 2; }
[[ "$TRESILLO" == /* ]] || TRESILLO="$PWD/$TRESILLO"
export TRESILLO
[[ -e "$out/manifest.json" ]] && { echo "error: $out already holds a merged run" >&2; exit 2; }
mkdir -p "$out" "$out.shards"
out=$(cd "$out" && pwd)
SBATCH=${SBATCH:-sbatch}
# shellcheck disable=SC2206 # SBATCH_OPTS is a list of words on purpose
opts=(${SBATCH_OPTS:-})

array=$("$SBATCH" --parsable ${opts[@]+"${opts[@]}"} --array="0-$((n - 1))" --job-name=tresillo-shards \
    "$0" __task "$n" "$out" "$@")
array=${array%%;*}
merge=$("$SBATCH" --parsable ${opts[@]+"${opts[@]}"} --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --job-name=tresillo-merge --cpus-per-task=1 --output="$out/merge-%j.out" "$0" __merge "$n" "$out")
merge=${merge%%;*}
echo "submitted array job $array ($n shards into $out.shards) and merge job $merge (afterok:$array)"
