#!/usr/bin/env bash
# A/B test of two builds of the toolkit, as engine-testing labs do it: the same
# agent of each build, each played as a bot (`tresillo bot AGENT`, docs/PROTOCOL.md),
# on the same duplicate deals, until a sequential test (SPRT) decides whether the
# new build's agent is better, worse, or neither by the margin. The new build runs
# the tournament; slot 0 is the old build's agent, slot 1 the new build's, slot 2
# (and 3 at four players) the new build's OPPONENT.
#
# Usage: scripts/ab-builds.sh OLD_BIN NEW_BIN [AGENT [OPPONENT]] [-- SPRT_OPTIONS...]
#   OLD_BIN, NEW_BIN  two `tresillo` binaries (each must have `tresillo bot`)
#   AGENT             the agent spec both play (default: pimc)
#   OPPONENT          the third seat (default: rule)
#   SPRT_OPTIONS      passed to `tresillo sprt` (default: --margin 0.5; add
#                     --max-deals, --batch, --seed, --out DIR, --rules, ...)
# Example: scripts/ab-builds.sh ~/old/tresillo target/release/tresillo "pimc:worlds=16" -- --max-deals 4000
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '9,15p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
old=$1 new=$2
shift 2
agent=pimc opponent=rule
if [ $# -gt 0 ] && [ "$1" != "--" ]; then agent=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != "--" ]; then opponent=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
for b in "$old" "$new"; do
    if ! [ -x "$b" ]; then
        echo "error: $b is not an executable" >&2
        exit 2
    fi
    case $b in *[[:space:]]* | *\"*) echo "error: the path $b holds a space or a quote; copy the binary elsewhere" >&2; exit 2 ;; esac
    if ! "$b" bot --help 2>/dev/null | grep -q "as an external bot"; then
        echo "error: $b has no \`tresillo bot\` (a build before it cannot be a bot)" >&2
        exit 2
    fi
done
old_abs=$(cd "$(dirname "$old")" && pwd)/$(basename "$old")
new_abs=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")
# Each slot's label names its build (`name=`); deals.csv keeps the whole spec.
agents="ext:cmd=\"$old_abs bot $agent\":name=old,ext:cmd=\"$new_abs bot $agent\":name=new,$opponent"
players=3
for a in "$@"; do [ "$a" = "4" ] && [ "${prev:-}" = "--players" ] && players=4; prev=$a; done
[ "$players" = 4 ] && agents="$agents,$opponent"
echo "+ $new_abs sprt --agents '$agents' $*" >&2
exec "$new_abs" sprt --agents "$agents" "$@"
