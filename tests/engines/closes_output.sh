#!/bin/sh
# An engine program that closes its output at its first `go` and goes on running (`sleep
# SECONDS`): abtest sees the end of its output from a process that has not exited.
#   closes_output.sh SECONDS
while read -r line; do
    case "$line" in
    uci) echo "id name closes-output"; echo uciok ;;
    isready) echo readyok ;;
    bench) echo "Nodes searched  : 1" ;;
    go*) exec >&-; sleep "$1"; exit 0 ;;
    quit) exit 0 ;;
    esac
done
