#!/bin/sh
# An engine program that answers `go` with an endless flood of info lines and never a bestmove.
while read -r line; do
    case "$line" in
    uci) echo "id name flood"; echo uciok ;;
    isready) echo readyok ;;
    bench) echo "Nodes searched  : 1" ;;
    go*) exec yes "info depth 1 nodes 1" ;;
    quit) exit 0 ;;
    esac
done
