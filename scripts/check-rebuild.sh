#!/usr/bin/env bash
# A second cargo build after a first compiles nothing, with and without
# .git/packed-refs (issue 37: the CLI's build script once watched a path that a
# checkout may lack, and cargo reruns such a script on every build). The packed-refs
# file is put back as it was.
#
# Usage: scripts/check-rebuild.sh [CARGO ARGS...]   (from anywhere in the repository)
#   default: build --locked --release -p tresillo-cli. .ci/run passes its clippy
#   command, right after running it: the build script is the same, and re-checking the
#   CLI costs seconds where a release build of it costs minutes.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
common=$(git rev-parse --path-format=absolute --git-common-dir)
[ $# -gt 0 ] || set -- build --locked --release -p tresillo-cli
build() { cargo "$@" 2>&1; }
fresh() { # $1: what is being checked
    local log
    build "${args[@]}" >/dev/null # settles what the previous state left to do
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
