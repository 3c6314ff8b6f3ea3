#!/bin/sh
# Prints how many uncommitted changes the git checkout at DIR has: the lines of `git status
# --porcelain` (tracked files changed, untracked files that are not ignored); 0 outside git.
# One definition of "dirty" for the Makefile's -dirty, make engine-at and make install.
#   tools/tree_changes.sh DIR
git -C "$1" status --porcelain 2>/dev/null | wc -l
