#!/bin/sh
# Builds a git revision's engine without touching the checkout: `make engine-at REV=... OUT=...`.
#   tools/engine_at.sh REV OUT
# The revision is checked out into a temporary git worktree, built there with `make` (the same
# flags as this checkout: CC, ARCH and OPT pass through), installed into OUT with that
# revision's own tools/install.sh (so OUT/bin/tslab-engine finds that revision's bench suite in
# OUT/share/tslab), and the worktree is removed. Uncommitted changes are not part of a revision:
# build your checkout with `make` and use build/engine for them.
set -eu
rev=$1
out=$2
source=$(cd "$(dirname "$0")/.." && pwd)
if ! commit=$(git -C "$source" rev-parse --verify --quiet "$rev^{commit}"); then
    echo "engine-at: '$rev' is not a revision of $source (a branch, tag or commit)" >&2
    exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tslab-engine-at.XXXXXX")
cleanup() {
    git -C "$source" worktree remove --force "$work/tree" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
git -C "$source" worktree add --detach --quiet "$work/tree" "$commit"
echo "engine-at: building $rev ($commit) in a temporary worktree"
if ! make -C "$work/tree" -j"$(nproc 2>/dev/null || echo 2)" all >"$work/build.log" 2>&1; then
    tail -n 20 "$work/build.log" >&2
    echo "engine-at: the build of $rev failed (last lines above)" >&2
    exit 2
fi
if [ ! -x "$work/tree/build/engine" ]; then
    echo "engine-at: $rev has no build/engine (the engine protocol came later)" >&2
    exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
sh "$work/tree/tools/install.sh" "$out" "$work/tree/build" >/dev/null
echo "engine-at: $out/bin/tslab-engine ($(cd "$work/tree" && "$out/bin/tslab-engine" -version))"
