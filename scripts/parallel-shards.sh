#!/usr/bin/env bash
# Run one tournament as N shards in parallel on this machine, then merge them.
# The merged run is byte-identical to the unsplit run (see docs/CLUSTER.md).
#
# Usage:
#   scripts/parallel-shards.sh N OUT [tournament options...]
#
# Example (four shards of a million deals, merged into results/big):
#   scripts/parallel-shards.sh 4 results/big \
#       --agents rule,rule,rule --deals 1000000 --seed 1 --duplicate
#
# Shard k of N runs `tresillo tournament ... --shard k/N --out OUT.shards/k` (its
# printed summary in OUT.shards/k/tournament.log); then
# `tresillo merge OUT OUT.shards/*` writes deals.csv, summary.csv, stats.json and
# manifest.json into OUT (the same command merges by hand). The tournament options are those of `tresillo tournament`
# except --out and --shard, which this script sets.
#
# Shards run under GNU parallel when it is installed, and under `xargs -P` when it
# is not (the script says which). Shards start with --resume, so running the script
# again after an interruption continues each shard where it stopped.
#
# Environment:
#   TRESILLO         the binary (default: target/release/tresillo if built, else
#                    `tresillo` on PATH)
#   JOBS             shards at once (default: N)
#   THREADS          threads per shard (default: cores / JOBS, at least 1)
#   FORCE=1          start the shards over and overwrite OUT's merged run
#   NO_GNU_PARALLEL=1  use xargs -P even when GNU parallel is installed
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

# One shard (the script calls itself this way through parallel or xargs).
if [[ "${1:-}" == __shard ]]; then
    shift
    k=$1 n=$2 out=$3
    shift 3
    mode=--resume
    [[ "${FORCE:-0}" == 1 ]] && mode=--force
    # The shard's output goes inside its run directory, so that OUT.shards/ holds
    # nothing but shards and `tresillo merge OUT OUT.shards/*` works.
    mkdir -p "$out.shards/$k"
    echo "shard $k/$n -> $out.shards/$k" >&2
    "$TRESILLO" tournament "$@" --shard "$k/$n" --out "$out.shards/$k" --threads "$THREADS" "$mode" \
        >"$out.shards/$k/tournament.log"
    exit 0
fi

[[ $# -ge 2 ]] || usage
n=$1 out=$2
shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive integer, got '$n'" >&2; exit 2; }
for a in "$@"; do
    case "$a" in
        --out | --out=* | --shard | --shard=* | --resume | --force)
            echo "error: $a is set by this script (give OUT as the second argument; FORCE=1 to start over)" >&2
            exit 2
            ;;
    esac
done

if [[ -z "${TRESILLO:-}" ]]; then
    root=$(cd "$(dirname "$0")/.." && pwd)
    if [[ -x "$root/target/release/tresillo" ]]; then TRESILLO="$root/target/release/tresillo"; else TRESILLO=tresillo; fi
fi
command -v "$TRESILLO" >/dev/null || { echo "error: $TRESILLO not found (build it: cargo build --release -p tresillo-cli, or set TRESILLO)" >&2; exit 2; }
cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
JOBS=${JOBS:-$n}
THREADS=${THREADS:-$(( cores / JOBS > 0 ? cores / JOBS : 1 ))}
export TRESILLO THREADS FORCE

merge_flags=()
if [[ "${FORCE:-0}" == 1 ]]; then
    merge_flags=(--force)
elif [[ -e "$out/manifest.json" ]]; then
    echo "error: $out already holds a merged run; FORCE=1 to redo it" >&2
    exit 2
fi
mkdir -p "$out.shards"

if command -v parallel >/dev/null && [[ "${NO_GNU_PARALLEL:-0}" != 1 ]]; then
    echo "running $n shards with GNU parallel, $JOBS at once, $THREADS threads each" >&2
    # -q: pass the arguments as they are, without a shell re-reading them.
    seq 0 $((n - 1)) | parallel -q --will-cite --halt now,fail=1 -j "$JOBS" "$0" __shard {} "$n" "$out" "$@"
else
    echo "GNU parallel not found (or NO_GNU_PARALLEL=1): running $n shards with xargs -P $JOBS, $THREADS threads each" >&2
    seq 0 $((n - 1)) | xargs -P "$JOBS" -I{} "$0" __shard {} "$n" "$out" "$@"
fi

shards=()
for ((k = 0; k < n; k++)); do shards+=("$out.shards/$k"); done
"$TRESILLO" merge "$out" "${shards[@]}" ${merge_flags[@]+"${merge_flags[@]}"}
