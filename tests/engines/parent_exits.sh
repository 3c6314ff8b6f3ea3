#!/bin/sh
# An engine program that exits at its first `go` (status 4) while a child of its, `sleep
# SECONDS`, still holds its output open: no end of file ever reaches abtest.
#   parent_exits.sh SECONDS
while read -r line; do
    case "$line" in
    uci) echo "id name parent-exits"; echo uciok ;;
    isready) echo readyok ;;
    bench) echo "Nodes searched  : 1" ;;
    go*) sleep "$1" & exit 4 ;;
    quit) exit 0 ;;
    esac
done
