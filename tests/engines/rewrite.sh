#!/bin/sh
# ENGINE with its output rewritten:
#   huge-nodes      every "nodes N" of its info lines becomes nodes 18446744073709551615 (2^64 - 1)
#   spaced-bestmove "bestmove" comes after two spaces and a tab (UCI allows any whitespace)
#   other-bench     its bench total, whatever it is, becomes 4343
#   bad-bench-line  the score of its per-position bench lines becomes unreadable (x-41)
#   rewrite.sh ENGINE MODE
case "$2" in
huge-nodes) expression='s/ nodes [0-9]*/ nodes 18446744073709551615/' ;;
spaced-bestmove) expression='s/^bestmove/  	bestmove/' ;;
other-bench) expression='s/^Nodes searched  : [0-9]*/Nodes searched  : 4343/' ;;
bad-bench-line) expression='s/^\(info string bench position .* score \)/\1x/' ;;
*) echo "rewrite.sh: unknown mode '$2'" >&2; exit 2 ;;
esac
exec "$1" | sed -u "$expression"
