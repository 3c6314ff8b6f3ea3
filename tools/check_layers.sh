#!/bin/sh
# The layering of docs/architecture.md, checked by `make test`. Each room (directory) may include
# only its own headers and those of the rooms listed after it, so the rooms form a ladder:
#   lib/util <- lib/game <- lib/tablebase <- lib/search   the library: no printing, no exit
#   cli                                                   the tools' shared helpers
#   suite                                                 the bench suite (bench and engine)
#   programs                                              engine programs (bench and abtest)
#   lab/stats                                             statistics
#   lab/match <- lab/output <- lab/report <- lab/run      a match, the lab's files, reports of
#     <- lab/mpi                                          many of them, abtest's commands, ranks
#   bench, engine                                         the other tools; neither includes
#                                                         lab/ or the other
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
LIB="lib/search lib/tablebase lib/game lib/util"
check lib/util
check lib/game lib/util
check lib/tablebase lib/game lib/util
check lib/search lib/tablebase lib/game lib/util
check cli $LIB
check suite cli $LIB
check programs cli $LIB
check lab/stats cli $LIB
check lab/match programs lab/stats cli $LIB
check lab/output lab/match programs lab/stats cli $LIB
check lab/report lab/output lab/match programs lab/stats cli $LIB
check lab/run lab/report lab/output lab/match programs lab/stats cli $LIB
check lab/mpi lab/run lab/report lab/output lab/match programs lab/stats cli $LIB
check bench suite programs cli $LIB
check engine suite cli $LIB

# Every source file lives in a room the build and this check know.
for file in lib/*.c lib/*.h lab/*.c lab/*.h; do
    [ -e "$file" ] || continue
    echo "layering: $file is outside the rooms (lib/*/, lab/*/)" >&2
    status=1
done

if grep -nE '\b(printf|fprintf|puts|fputs|putchar|exit|abort)[[:space:]]*\(' lib/*/*.c | grep -v '//'; then
    echo "layering: lib/ must report errors, not print or exit (above)" >&2
    status=1
fi
# One way to open an output (cli/output.h): a checked plan. Nothing else begins a file to write
# (temporaries from mkstemp, and /dev/null for a child, are not outputs).
if grep -nE '\boutfile_(begin|write)[[:space:]]*\(|\bfopen[[:space:]]*\([^)]*"[wa]|O_WRONLY|O_RDWR' \
        bench/*.c cli/*.c engine/*.c programs/*.c suite/*.c lab/*/*.c lib/*/*.c |
        grep -vE '^(cli/output\.c|lib/util/outfile\.c):' | grep -v '"/dev/null"'; then
    echo "layering: a file opened to write outside cli/output.c (above): open outputs with" \
         "output_begin, output_write_text, output_write_json or output_open_records" >&2
    status=1
fi
[ $status = 0 ] && echo "layering: every room includes only the rooms below it"
exit $status
