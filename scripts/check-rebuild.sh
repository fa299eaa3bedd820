#!/usr/bin/env bash
# A second cargo build after a first compiles nothing, with and without
# .git/packed-refs (issue 37: the CLI's build script once watched a path that a
# checkout may lack, and cargo reruns such a script on every build). The packed-refs
# file is put back as it was.
#
# Usage: scripts/check-rebuild.sh [--strict] [CARGO ARGS...]   (from anywhere in the repository)
#   default: build --locked --release -p tresillo-cli. Without --strict, a build first
#   settles what the previous state left to do; with it (.ci/run, right after its
#   own build with the same arguments) the very next build must compile nothing: a
#   first build that leaves itself out of date (a build script that changes what it
#   watches, as `git status` rewriting a fresh clone's index once did) fails.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
common=$(git rev-parse --path-format=absolute --git-common-dir)
strict=0
if [ "${1:-}" = --strict ]; then
    strict=1
    shift
fi
[ $# -gt 0 ] || set -- build --locked --release -p tresillo-cli
build() { cargo "$@" 2>&1; }
fresh() { # $1: what is being checked
    local log
    if [ "$strict" = 1 ]; then
        strict=0 # the first check only: the later ones follow a build of this script's
    else
        build "${args[@]}" >/dev/null # settles what the previous state left to do
    fi
    log=$(build "${args[@]}")
    if grep -qE '^\s*(Compiling|Checking|Building)' <<<"$log"; then
        echo "error: a second build compiled again ($1):"
        echo "$log"
        exit 1
    fi
    echo "a second build compiles nothing ($1)"
}
args=("$@")
fresh "as checked out"
if [ -e "$common/packed-refs" ]; then
    moved=$(mktemp)
    mv "$common/packed-refs" "$moved"
    trap 'mv "$moved" "$common/packed-refs"' EXIT
    fresh "without .git/packed-refs"
else
    fresh "without .git/packed-refs (this checkout has none)"
fi
