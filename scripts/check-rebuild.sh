#!/usr/bin/env bash
# A second cargo build after a first compiles nothing, with and without
# .git/packed-refs (issue 37: the CLI's build script once watched a path that a
# checkout may lack, and cargo reruns such a script on every build). The packed-refs
# file is put back as it was.
#
# Usage: scripts/check-rebuild.sh [--strict] [--checkout-only|--packed-refs-only] [CARGO ARGS...]
#   (from anywhere in the repository)
#   default: build --locked --release -p tresillo-cli. Without --strict, a build first
#   settles what the previous state left to do; with it (.ci/run, right after its
#   own build with the same arguments) the very next build must compile nothing: a
#   first build that leaves itself out of date (a build script that changes what it
#   watches, as `git status` rewriting a fresh clone's index once did) fails.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
common=$(git rev-parse --path-format=absolute --git-common-dir)
strict=0 only=both
while [ $# -gt 0 ]; do
    case $1 in
        --strict) strict=1 ;;
        --checkout-only) only=checkout ;; # the checkout as it is (CI: right after its build)
        --packed-refs-only) only=packed ;; # without .git/packed-refs (CI: at its end, since
            # taking the file away and putting it back reruns the build script twice)
        *) break ;;
    esac
    shift
done
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
[ "$only" = packed ] || fresh "as checked out"
[ "$only" = checkout ] && exit 0
if [ -e "$common/packed-refs" ]; then
    moved=$(mktemp)
    mv "$common/packed-refs" "$moved"
    trap 'mv "$moved" "$common/packed-refs"' EXIT
    fresh "without .git/packed-refs"
else
    fresh "without .git/packed-refs (this checkout has none)"
fi
