#!/bin/sh
# Builds a git revision's engine without touching the checkout: `make engine-at REV=... OUT=...`.
#   tools/engine_at.sh REV [OUT]
# The revision is checked out into a temporary git worktree, built there with `make` (the same
# flags as this checkout: CC, ARCH and OPT pass through the environment), installed into OUT
# (default build/engines/REV) with that revision's own tools/install.sh (so OUT/bin/tslab-engine
# finds that revision's bench suite in OUT/share/tslab), and the worktree is removed.
# Uncommitted changes are not part of a revision: build your checkout with `make` and use
# build/engine for them.
#
# REV and OUT are only ever arguments of commands, never part of a shell string: a branch may
# be named `x";touch y;"` or `$(touch y)`, and building a colleague's branch must not run it.
set -eu
if [ $# -lt 1 ] || [ -z "$1" ]; then
    echo "usage: make engine-at REV=<branch, tag or commit> [OUT=DIR]" >&2
    exit 2
fi
rev=$1
out=${2:-}
source=$(cd "$(dirname "$0")/.." && pwd)

# A name is printed as it is; a control character would let it rewrite the terminal.
case "$rev$out" in
*[[:cntrl:]]*)
    echo "engine-at: REV or OUT holds a control character" >&2
    exit 2
    ;;
esac
case "$rev" in
-*)
    printf "engine-at: REV '%s' starts with '-' (it would read as an option)\n" "$rev" >&2
    exit 2
    ;;
esac
if ! commit=$(git -C "$source" rev-parse --verify --quiet --end-of-options "$rev^{commit}"); then
    printf "engine-at: '%s' is not a revision of %s (a branch, tag or commit)\n" "$rev" \
        "$source" >&2
    exit 2
fi
# The default output is named after the revision when it is a valid ref name (main, v1.2,
# feature/x); after its commit otherwise (HEAD~2, a name with '..' or '@{').
if [ -z "$out" ]; then
    if git check-ref-format --allow-onelevel "$rev" >/dev/null 2>&1; then
        out="$source/build/engines/$rev"
    else
        out="$source/build/engines/$(printf '%.12s' "$commit")"
    fi
fi
case "$out" in
-*) out="./$out" ;; # never an option of mkdir
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/tslab-engine-at.XXXXXX")
cleanup() {
    git -C "$source" worktree remove --force "$work/tree" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
git -C "$source" worktree add --detach --quiet "$work/tree" "$commit"
printf "engine-at: building %s (%s) in a temporary worktree\n" "$rev" "$commit"
# The revision's own make with its defaults: nothing of this make's command line (MAKEFLAGS
# carries REV, OUT and BUILD=) reaches it but the compiler and its flags.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL
if ! make -C "$work/tree" -j"$(nproc 2>/dev/null || echo 2)" BUILD=build all \
    >"$work/build.log" 2>&1; then
    tail -n 20 "$work/build.log" >&2
    printf "engine-at: the build of %s failed (last lines above)\n" "$rev" >&2
    exit 2
fi
if [ ! -x "$work/tree/build/engine" ]; then
    printf "engine-at: %s has no build/engine (the engine protocol came later)\n" "$rev" >&2
    exit 2
fi
mkdir -p -- "$out"
out=$(cd -- "$out" && pwd)
sh "$work/tree/tools/install.sh" "$out" "$work/tree/build" >/dev/null
printf "engine-at: %s/bin/tslab-engine (%s)\n" "$out" "$(cd "$work/tree" && "$out/bin/tslab-engine" -version)"
