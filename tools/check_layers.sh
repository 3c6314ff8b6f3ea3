#!/bin/sh
# The layering rules of docs/architecture.md, checked by `make test`:
#   lib/   includes only lib/ and system headers, and never prints or exits;
#   cli/   includes only cli/, lib/ and system headers;
#   bench/ and lab/ never include each other's headers.
#   engine/ (the protocol) builds on bench/ (its bench command), cli/ and lib/.
set -eu
cd "$(dirname "$0")/.."
status=0

# Project headers included by the files of a directory ("name.h").
included() { grep -ho '#include "[^"]*"' "$1"/*.c "$1"/*.h | sed 's/#include "\(.*\)"/\1/' | sort -u; }

check() { # directory, then the directories its includes may come from
    dir=$1; shift
    for header in $(included "$dir"); do
        found=no
        for allowed in "$dir" "$@"; do
            [ -f "$allowed/$header" ] && found=yes
        done
        if [ $found = no ]; then
            echo "layering: $dir/ includes \"$header\", which is not in $dir/${*:+ or }$*" >&2
            status=1
        fi
    done
}
check lib
check cli lib
check bench cli lib
check lab cli lib
check engine bench cli lib
check lab/mpi lab cli lib

if grep -nE '\b(printf|fprintf|puts|fputs|putchar|exit|abort)[[:space:]]*\(' lib/*.c | grep -v '//'; then
    echo "layering: lib/ must report errors, not print or exit (above)" >&2
    status=1
fi
[ $status = 0 ] && echo "layering: lib, cli, bench, lab and engine include only what they may"
exit $status
