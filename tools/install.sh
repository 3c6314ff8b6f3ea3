#!/bin/sh
# Installs built tools, their data and the docs under a prefix: what `make install` runs (the
# tests run it too, into a temporary prefix).
#   tools/install.sh PREFIX BUILD_DIR
# Layout: PREFIX/bin/tslab-{bench,abtest,engine} and tslab-abtest-mpi when it was built (MPI present);
# PREFIX/share/tslab/{bench,openings}/... (the tools' defaults, found relative to the program:
# <bin>/../share/tslab); PREFIX/share/doc/tslab/.
set -eu
prefix=$1
build=$2
source=$(cd "$(dirname "$0")/.." && pwd)

install -d "$prefix/bin" "$prefix/share/tslab/bench" "$prefix/share/tslab/openings" \
    "$prefix/share/doc/tslab"
installed=""
for tool in bench abtest engine abtest-mpi; do
    [ "$tool" = abtest-mpi ] && [ ! -x "$build/$tool" ] && continue
    install -m 755 "$build/$tool" "$prefix/bin/tslab-$tool"
    installed="$installed bin/tslab-$tool,"
done
install -m 644 "$source/bench/positions.txt" "$source/bench/signature.json" \
    "$prefix/share/tslab/bench/"
install -m 644 "$source/openings/default.txt" "$source/openings/README.md" \
    "$prefix/share/tslab/openings/"
install -m 644 "$source/README.md" "$source"/docs/*.md "$prefix/share/doc/tslab/"
# The tablebase when it has been built (make tablebase): generated, 88 MB, so only if present.
if [ -f "$source/tablebase/sliding.tstb" ]; then
    install -d "$prefix/share/tslab/tablebase"
    install -m 644 "$source/tablebase/sliding.tstb" "$prefix/share/tslab/tablebase/"
    installed="$installed share/tslab/tablebase,"
fi
echo "installed into $prefix:$installed share/tslab (defaults), share/doc/tslab"
# From a working tree with uncommitted changes the tools are not any commit's: say so, with the
# version they report (git <commit>-dirty), since their bench may differ from the pinned one.
changes=$(sh "$source/tools/tree_changes.sh" "$source")
if [ "$changes" -gt 0 ]; then
    printf "note: installed from a working tree with %s uncommitted change(s): the tools report \
'%s', and tslab-bench check compares them with this tree's bench/signature.json\n" \
        "$changes" "$("$build/engine" -version)" >&2
fi
