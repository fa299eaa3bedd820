#!/usr/bin/env bash
# A second `cargo build --release -p tresillo-cli` after a first compiles nothing,
# with and without .git/packed-refs (issue 37: the CLI's build script once watched a
# path that a checkout may lack, and cargo reruns such a script on every build).
# Run after a release build (.ci/run does); the packed-refs file is put back as it was.
#
# Usage: scripts/check-rebuild.sh   (from anywhere in the repository)
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
common=$(git rev-parse --path-format=absolute --git-common-dir)
build() { cargo build --locked --release -p tresillo-cli 2>&1; }
fresh() { # $1: what is being checked
    local log
    build >/dev/null # settles what the previous state left to do
    log=$(build)
    if grep -qE '^\s*(Compiling|Building)' <<<"$log"; then
        echo "error: a second build compiled again ($1):"
        echo "$log"
        exit 1
    fi
    echo "a second build compiles nothing ($1)"
}
fresh "as checked out"
if [ -e "$common/packed-refs" ]; then
    moved=$(mktemp)
    mv "$common/packed-refs" "$moved"
    trap 'mv "$moved" "$common/packed-refs"' EXIT
    fresh "without .git/packed-refs"
else
    fresh "without .git/packed-refs (this checkout has none)"
fi
