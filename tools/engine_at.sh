#!/bin/sh
# Builds a git revision's engine without touching the checkout: `make engine-at REV=... OUT=...`.
#   tools/engine_at.sh REV [OUT]
# The revision is checked out into a temporary git worktree, built there with `make` (the same
# flags as this checkout: CC, ARCH and OPT pass through the environment), installed into OUT
# (default build/engines/REV) with that revision's own tools/install.sh (so OUT/bin/tslab-engine
# finds that revision's bench suite in OUT/share/tslab), and the worktree is removed.
# Uncommitted changes are not part of a revision: REV=WORKTREE builds the working tree as it is
# (tracked files with their changes and untracked ones that git does not ignore), copied apart,
# reporting git <HEAD>-dirty. REV=HEAD on a tree with changes is refused (which was meant is not
# clear); any other name of HEAD's commit builds the commit, with a note that the changes are
# left out.
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
head=$(git -C "$source" rev-parse --verify --quiet HEAD) || head=""
changes=$(sh "$source/tools/tree_changes.sh" "$source")
if [ "$rev" = WORKTREE ]; then
    if [ -z "$head" ]; then
        echo "engine-at: REV=WORKTREE needs a checkout with at least one commit" >&2
        exit 2
    fi
    commit=$head
elif ! commit=$(git -C "$source" rev-parse --verify --quiet --end-of-options "$rev^{commit}"); then
    printf "engine-at: '%s' is not a revision of %s (a branch, tag or commit)\n" "$rev" \
        "$source" >&2
    exit 2
elif [ "$commit" = "$head" ] && [ "$changes" -gt 0 ]; then
    if [ "$rev" = HEAD ] || [ "$rev" = @ ]; then
        printf "engine-at: REV=%s: the working tree has %s uncommitted change(s) that a build of \
HEAD (%.12s) leaves out; REV=WORKTREE builds the tree as it is, or commit them first\n" \
            "$rev" "$changes" "$commit" >&2
        exit 2
    fi
    printf "engine-at: note: %s is HEAD (%.12s); the working tree's %s uncommitted change(s) \
are not in this build (REV=WORKTREE builds them)\n" "$rev" "$commit" "$changes" >&2
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
# The commit the build reports; the revision's Makefile finds it itself in a worktree.
version_commit=""
if [ "$rev" = WORKTREE ]; then
    # A copy of the files as they are, outside the checkout: the checkout's build/ is never
    # touched. Deleted tracked files are listed by ls-files but absent: skipped.
    mkdir "$work/tree"
    git -C "$source" ls-files -z --cached --others --exclude-standard |
        (cd "$source" && tar --null --ignore-failed-read -T - -cf -) 2>"$work/copy.log" |
        tar -xf - -C "$work/tree"
    version_commit=$(printf '%.12s' "$commit")
    [ "$changes" -gt 0 ] && version_commit="$version_commit-dirty"
    printf "engine-at: building the working tree (HEAD %s, %s uncommitted change(s)) in a \
temporary copy\n" "$commit" "$changes"
else
    git -C "$source" worktree add --detach --quiet "$work/tree" "$commit"
    printf "engine-at: building %s (%s) in a temporary worktree\n" "$rev" "$commit"
fi
# The revision's own make with its defaults: nothing of this make's command line (MAKEFLAGS
# carries REV, OUT and BUILD=) reaches it but the compiler and its flags.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL
if ! make -C "$work/tree" -j"$(nproc 2>/dev/null || echo 2)" BUILD=build \
    ${version_commit:+GIT_COMMIT="$version_commit"} all >"$work/build.log" 2>&1; then
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
