#!/bin/sh
# An engine program whose `bench` prints "Nodes searched  : TOTAL" (TOTAL as given: -5, 1e23...),
# or, for TOTAL `exit`, exits with status 3 instead.
#   bench_says.sh TOTAL
while read -r line; do
    case "$line" in
    uci) echo "id name bench-says"; echo uciok ;;
    isready) echo readyok ;;
    bench) [ "$1" = exit ] && exit 3; echo "Nodes searched  : $1" ;;
    quit) exit 0 ;;
    esac
done
