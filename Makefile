# tslab build. `make` builds lib/ as a static library and the tools into build/;
# `make test` runs every cmocka test binary; see `make help`.

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
# -O3 and, with gcc, link-time optimisation (inlining across lib/'s files): against -O2 the bench
# suite takes x0.920 the CPU time and perft 8 x0.571 (docs/performance.md). LTO objects need
# gcc's archiver.
# clang builds (CI's second compiler, the fuzzers) take -O3 alone: their LTO needs LLVM's
# linker plugin, which Debian's clang does not bring. Sanitize builds set their own OPT and drop
# NDEBUG, so invariants are asserted there.
CC_IS_CLANG := $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1))
ifeq ($(CC_IS_CLANG),)
LTO     := -flto=auto
AR      := gcc-ar
endif
OPT     ?= -O3 -DNDEBUG $(LTO)
# The tools are built where they run, so tune for this CPU (popcount in one instruction).
# Results never depend on it; `make ARCH=` builds a portable binary.
ARCH    ?= -march=native
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
           -Wundef -Wpedantic
# The rooms (docs/architecture.md): headers are included by name, and each room's directory is on
# the include path. suite/ (the bench suite) and programs/ (the engine-program driver) are shared
# by two tools each: bench and engine, bench and abtest.
LIB_ROOMS := lib/util lib/game lib/search lib/tablebase
LAB_ROOMS := lab/stats lab/match lab/output lab/report lab/run
CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(ARCH) $(WARN) $(LIB_ROOMS:%=-I%) -Icli \
           -Isuite -Iprograms $(LAB_ROOMS:%=-I%) -Ibench -Iengine $(EXTRA_CFLAGS)
LDLIBS  := -lm -lpthread

# Objects depend on the compiler and its flags: a stamp file holds them and changes when they do,
# so `make CC=clang` or `make ARCH=` after `make` rebuilds everything instead of mixing objects.
FLAGS_STAMP := $(BUILD)/flags.stamp
BUILD_FLAGS := $(CC) $(CFLAGS)
$(shell mkdir -p $(BUILD) && { echo '$(BUILD_FLAGS)' | cmp -s - $(FLAGS_STAMP) || \
    echo '$(BUILD_FLAGS)' > $(FLAGS_STAMP); })

# The git commit the tools report (-version, results files): compiled into cli/version.o only, so
# a new commit relinks the tools without recompiling the rest. "-dirty": uncommitted changes, or
# files git neither tracks nor ignores (tools/tree_changes.sh). make engine-at REV=WORKTREE sets
# it from outside (its copy of the tree has no .git).
GIT_COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) || c=unknown; \
    if [ "$$c" != unknown ] && [ "$$(sh tools/tree_changes.sh .)" -gt 0 ]; then \
    c="$$c-dirty"; fi; echo "$$c")
COMMIT_STAMP := $(BUILD)/commit.stamp
$(shell { echo '$(GIT_COMMIT)' | cmp -s - $(COMMIT_STAMP) || echo '$(GIT_COMMIT)' > $(COMMIT_STAMP); })

# The identity of the code a build plays with, which results, tuning and booktest files record
# and a resume compares (docs/abtest.md, "What a file records about its build"): a hash of every
# source file of the tools, the compiler's version and the flags. The same code rebuilt has the
# same identity whatever the commit (a docs-only commit keeps it); an edit, another compiler or
# other flags change it. Compiled into cli/version.o beside the commit.
SOURCE_FILES := $(sort $(wildcard lib/*/*.[ch] cli/*.[ch] suite/*.[ch] programs/*.[ch] lab/*/*.[ch] \
    bench/*.[ch] engine/*.[ch]))
SOURCE_ID := $(shell { cat $(SOURCE_FILES); $(CC) --version 2>/dev/null | head -n 1; \
    echo '$(BUILD_FLAGS)'; } | sha256sum | cut -c1-16)
SOURCE_STAMP := $(BUILD)/source.stamp
$(shell { echo '$(SOURCE_ID)' | cmp -s - $(SOURCE_STAMP) || echo '$(SOURCE_ID)' > $(SOURCE_STAMP); })

PKG_CJSON_CFLAGS  := $(shell pkg-config --cflags libcjson 2>/dev/null)
PKG_CJSON_LIBS    := $(or $(shell pkg-config --libs libcjson 2>/dev/null),-lcjson)
PKG_CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
PKG_CMOCKA_LIBS   := $(or $(shell pkg-config --libs cmocka 2>/dev/null),-lcmocka)

LIB_SRC   := $(wildcard $(LIB_ROOMS:%=%/*.c))
CLI_SRC   := $(wildcard cli/*.c)
SUITE_SRC := $(wildcard suite/*.c)
PROGRAMS_SRC := $(wildcard programs/*.c)
BENCH_SRC := $(wildcard bench/*.c)
LAB_SRC   := $(filter-out lab/run/abtest.c,$(wildcard $(LAB_ROOMS:%=%/*.c)))
ENGINE_SRC := $(filter-out engine/engine.c,$(wildcard engine/*.c))
TEST_SRC  := $(wildcard tests/test_*.c)

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SUITE_OBJ := $(SUITE_SRC:%.c=$(BUILD)/obj/%.o)
PROGRAMS_OBJ := $(PROGRAMS_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)
LAB_OBJ   := $(LAB_SRC:%.c=$(BUILD)/obj/%.o)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/obj/%.o)
# The default bench suite and its signature, compiled into the suite room (suite/embedded.h), so
# that `engine bench` works from any directory, as fishtest's and OpenBench's workers run it.
EMBED_DATA := bench/positions.txt bench/signature.json
EMBED_SRC := $(BUILD)/gen/embedded_data.c
EMBED_OBJ := $(BUILD)/obj/gen/embedded_data.o
SUITE_OBJ += $(EMBED_OBJ)
BENCH_LIB_OBJ := $(filter-out $(BUILD)/obj/bench/bench.o,$(BENCH_OBJ))  # without main()
LIBTSLAB  := $(BUILD)/libtslab.a
TOOLS     := $(BUILD)/bench $(BUILD)/abtest $(BUILD)/engine
TESTS     := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

# abtest across machines (lab/mpi/, docs/distributed.md): built when mpicc is present, with the
# same compiler and flags as the rest; only its include and link flags come from mpicc. Without
# MPI everything else builds, and build/abtest never links it.
MPICC     ?= $(shell command -v mpicc 2>/dev/null)
MPI_SRC   := $(wildcard lab/mpi/*.c)
MPI_OBJ   := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
ifneq ($(MPICC),)
MPI_CFLAGS := $(shell $(MPICC) --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell $(MPICC) --showme:link 2>/dev/null)
TOOLS      += $(BUILD)/abtest-mpi
endif

# Packages the build needs, and a command that proves each is present.
DEB_PACKAGES := build-essential pkg-config libcjson-dev libcmocka-dev gnuplot-nox clang \
                libclang-rt-dev libopenmpi-dev openmpi-bin python3 chromium

.PHONY: all test test-run test-one sanitize fuzz fuzz-run clean install deps run perft-deep docs bench-check pgo \
        perf help engine-at tablebase tablebase-check tablebase-ready \
        tablebase-placement tablebase-placement-check

all: $(LIBTSLAB) $(TOOLS)

# `make EXE=PATH` also puts the engine at PATH, as OpenBench's client builds an engine
# (`make -j EXE=PATH`, then runs PATH); its bench needs no data files (suite/embedded.h).
ifneq ($(EXE),)
all: $(EXE)
$(EXE): $(BUILD)/engine
	@mkdir -p $(dir $@)
	cp $< $@
endif

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CJSON_CFLAGS) $(OBJ_DEFINES) -MMD -MP -c $< -o $@

$(EMBED_SRC): $(EMBED_DATA) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh bench/positions.txt BENCH_EMBEDDED_POSITIONS \
	    bench/signature.json BENCH_EMBEDDED_SIGNATURE > $@.tmp && mv $@.tmp $@

$(EMBED_OBJ): $(EMBED_SRC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/cli/version.o: $(COMMIT_STAMP) $(SOURCE_STAMP)
$(BUILD)/obj/cli/version.o: OBJ_DEFINES = -DTSLAB_GIT_COMMIT='"$(GIT_COMMIT)"' \
    -DTSLAB_SOURCE_ID='"$(SOURCE_ID)"'

$(LIBTSLAB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# Each tool links the rooms it uses, and no other tool's (tools/check_layers.sh checks the
# includes): bench the suite and the program driver (bench compare -base-engine), abtest the
# program driver and lab/, the engine the suite alone.
$(BUILD)/bench: $(BENCH_OBJ) $(SUITE_OBJ) $(PROGRAMS_OBJ) $(CLI_OBJ) $(LIBTSLAB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_CJSON_LIBS) $(LDLIBS)

$(BUILD)/abtest: $(BUILD)/obj/lab/run/abtest.o $(LAB_OBJ) $(PROGRAMS_OBJ) $(CLI_OBJ) $(LIBTSLAB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_CJSON_LIBS) $(LDLIBS)

$(BUILD)/engine: $(BUILD)/obj/engine/engine.o $(ENGINE_OBJ) $(SUITE_OBJ) $(CLI_OBJ) $(LIBTSLAB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_CJSON_LIBS) $(LDLIBS)

$(BUILD)/obj/lab/mpi/%.o: OBJ_DEFINES = $(MPI_CFLAGS)

$(BUILD)/abtest-mpi: $(MPI_OBJ) $(LAB_OBJ) $(PROGRAMS_OBJ) $(CLI_OBJ) $(LIBTSLAB)
	$(CC) $(CFLAGS) -o $@ $^ $(MPI_LIBS) $(PKG_CJSON_LIBS) $(LDLIBS)

# The tests and fuzzers link every room but the tools' mains.
ROOMS_OBJ := $(LAB_OBJ) $(BENCH_LIB_OBJ) $(SUITE_OBJ) $(PROGRAMS_OBJ) $(CLI_OBJ) $(LIBTSLAB)

$(BUILD)/tests/%: tests/%.c $(ROOMS_OBJ) $(TOOLS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CJSON_CFLAGS) $(PKG_CMOCKA_CFLAGS) -DTSLAB_SOURCE_DIR='"$(CURDIR)"' \
	    -DTSLAB_BUILD_DIR='"$(abspath $(BUILD))"' -Ibench \
	    -MMD -MP -o $@ $< $(ROOMS_OBJ) $(PKG_CMOCKA_LIBS) $(PKG_CJSON_LIBS) $(LDLIBS)

# The misbehaving engine program of tests/test_program.c and test_frameworks.c (and the
# program test_hostile_engines.c points an edited results file at; test_bench.c's program
# without a per-position bench; test_calibrate.c's program that never finishes a search).
$(BUILD)/tests/test_program $(BUILD)/tests/test_frameworks $(BUILD)/tests/test_hostile_engines \
    $(BUILD)/tests/test_bench $(BUILD)/tests/test_calibrate: $(BUILD)/tests/mock_engine

# The tests that use the tablebase (abtest -tb, egdb, bench's accuracy) need it: built once
# (about a minute on 2 cores), then kept across builds and `make clean`; built again when this
# build cannot open it (a file of an older format version, or damaged).
TABLEBASE := tablebase/sliding.tstb
tablebase-ready: $(BUILD)/bench
	@$(BUILD)/bench tbprobe -info -tb $(TABLEBASE) >/dev/null 2>&1 || $(BUILD)/bench tbgen

# Runs every test binary; fails if any fails, after running them all. Each suite's wall time
# is printed after it (CI has a 30-minute budget: the slow suites are the ones to shorten).
# TEST_SKIP="distributed install" builds those suites but does not run them, and says so.
TEST_SKIP ?=
test-run: $(TESTS) $(TOOLS) tablebase-ready
	@failed=0; for t in $(TESTS); do \
	    case " $(TEST_SKIP:test_%=%) " in *" $${t##*/test_} "*) \
	        echo "== $$t: skipped (TEST_SKIP)"; continue;; esac; \
	    echo "== $$t"; start=$$(date +%s); $$t || failed=1; \
	    echo "-- $$t: $$(( $$(date +%s) - start )) s"; \
	done; \
	if ! $(BUILD)/bench options -markdown | cmp -s - docs/options.md; then \
	    echo "docs/options.md is out of date with lib/search/config.c: run make docs"; failed=1; fi; \
	python3 tools/docs_tables.py --check $(BUILD)/abtest docs/experiments.md || failed=1; \
	python3 tools/docs_outputs.py --check $(BUILD) || failed=1; \
	sh tools/check_layers.sh || failed=1; \
	python3 tools/check_headers.py || failed=1; \
	python3 tools/check_cycles.py || failed=1; \
	if [ $$failed -ne 0 ]; then echo "make test: some tests FAILED"; exit 1; fi; \
	echo "make test: all test binaries passed"

test: deps
	@$(MAKE) --no-print-directory test-run

# One suite, built and run: `make test-one T=clock` (or T=test_clock) runs tests/test_clock.c's
# binary; cmocka's CMOCKA_TEST_ABORT and the binary's own arguments work as for any test.
test-one: $(TOOLS) tablebase-ready
	@test -n "$(T)" || { echo "make test-one: give T=NAME, one of:" \
	    $(patsubst tests/test_%.c,%,$(TEST_SRC)); exit 2; }
	@test -f tests/test_$(T:test_%=%).c || { echo "make test-one: no tests/test_$(T:test_%=%).c"; \
	    exit 2; }
	@$(MAKE) --no-print-directory $(BUILD)/tests/test_$(T:test_%=%)
	$(BUILD)/tests/test_$(T:test_%=%)

# Tests under AddressSanitizer + UndefinedBehaviorSanitizer, in their own build tree; then the
# threaded tools (the match runner with an interrupt and a resume, bench's parallel suite) under
# ThreadSanitizer, which cannot be combined with ASan.
TSAN_RUN := TSAN_OPTIONS="halt_on_error=1" build/tsan
sanitize: deps
	@$(MAKE) --no-print-directory BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer" \
	    EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	    TSLAB_PERFT_MAX=100000000 test-run
	@$(MAKE) --no-print-directory BUILD=build/tsan OPT="-O1 -g" EXTRA_CFLAGS="-fsanitize=thread" \
	    build/tsan/abtest build/tsan/bench build/tsan/engine
	rm -f build/tsan/match.json
	$(TSAN_RUN)/abtest -engine name=base killers=off -engine name=cand -each nodes=500 \
	    -openings file=tests/data/book_small.txt -rounds 40 -concurrency 3 -quiet \
	    -out build/tsan/match.json -debug-stopafter 15 >/dev/null; test $$? -eq 130
	$(TSAN_RUN)/abtest -resume build/tsan/match.json -quiet >/dev/null
	$(TSAN_RUN)/bench -depth 6 -threads 3 >/dev/null 2>&1
	rm -f build/tsan/tune.json
	$(TSAN_RUN)/abtest tune -param 'futility, int, 150, 0, 300, 10, 0.02' -iterations 2 \
	    -pairs 3 -each preset=tslab-0.3 nodes=200 -openings file=tests/data/book_small.txt \
	    -concurrency 3 -out build/tsan/tune.json >/dev/null
	@# The tablebase solver's workers (atomic claims and counters) and its checker, on the
	@# 2-capture game, and the placement solver over it; then games adjudicated by the full
	@# tablebase and searches probing it.
	$(TSAN_RUN)/bench tbgen -captures 2 -threads 3 -out build/tsan/small.tstb >/dev/null
	$(TSAN_RUN)/bench tbverify -captures 2 -tb build/tsan/small.tstb -threads 3 -samples 10 -depth 5 >/dev/null
	rm -rf build/tsan/placement
	$(TSAN_RUN)/bench tbplace -captures 2 -tb build/tsan/small.tstb -dir build/tsan/placement \
	    -in-hand 1 -threads 3 >/dev/null
	rm -f build/tsan/tb.json
	$(TSAN_RUN)/abtest -engine name=egdb egdb=on -engine name=base -each nodes=500 \
	    -openings file=tests/data/book_small.txt -rounds 6 -concurrency 3 -quiet -tb \
	    -out build/tsan/tb.json >/dev/null
	@# The engine's reader and search threads (stop during a search, go infinite, a command that
	@# waits for a search), then abtest's workers each talking to a program of their own (whose
	@# bench, the whole suite under TSan, takes 49 s on an idle 2-core machine: stall= leaves
	@# room for a loaded one).
	printf 'go depth 9\nstop\ngo infinite\nisready\nstop\ngo nodes 20000\nposition startpos\ngo depth 6\n' | \
	    $(TSAN_RUN)/engine >/dev/null
	rm -f build/tsan/programs.json
	$(TSAN_RUN)/abtest -engine name=program cmd=build/tsan/engine stall=600000 -engine name=inproc \
	    -each nodes=500 -openings file=tests/data/book_small.txt -rounds 6 -concurrency 3 -quiet \
	    -out build/tsan/programs.json >/dev/null
	@# bench compare with a program side: a thread per program process, reading its bench.
	$(TSAN_RUN)/bench compare -base -cand-engine build/tsan/engine -depth 4 -threads 3 -repeat 1 \
	    >/dev/null
	@# Programs that stop reading their input (tests/engines/deaf.py): writes that time out,
	@# stalls and restarts on two threads at once; then a Ctrl-C while they wait on a write.
	@# startup= is generous: the program answers at once, but Python's start under TSan on a
	@# loaded 2-core machine took over 300 ms (16 of 18 runs, three at a time), failing a restart.
	rm -f build/tsan/deaf.json build/tsan/deaf_int.json
	$(TSAN_RUN)/abtest -engine name=deaf cmd=tests/engines/deaf.py stall=300 startup=30000 \
	    -engine name=inproc -each nodes=100 -openings file=tests/data/book_small.txt \
	    -rounds 900 -concurrency 2 -quiet -recover -out build/tsan/deaf.json >/dev/null 2>&1
	TSAN_OPTIONS="halt_on_error=1" timeout --preserve-status -s INT 4 build/tsan/abtest \
	    -engine name=deaf cmd=tests/engines/deaf.py \
	    -engine name=inproc -each nodes=100 -openings file=tests/data/book_small.txt \
	    -rounds 100000 -concurrency 2 -quiet -out build/tsan/deaf_int.json >/dev/null 2>&1; \
	    test $$? -eq 130
ifneq ($(MPICC),)
	@# abtest-mpi: rank 0's comm thread beside the runner's threads, until an SPRT decision
	@# with pairs in flight. Shared memory only: OpenMPI's TCP transport trips TSan inside
	@# OpenMPI itself (a lock-order report in mca_btl_tcp_add_procs).
	@$(MAKE) --no-print-directory BUILD=build/tsan OPT="-O1 -g" EXTRA_CFLAGS="-fsanitize=thread" \
	    build/tsan/abtest-mpi
	rm -f build/tsan/mpi.json
	TSAN_OPTIONS="halt_on_error=1" mpirun -x TSAN_OPTIONS --allow-run-as-root --oversubscribe \
	    --mca btl self,vader -np 2 build/tsan/abtest-mpi -engine name=cand \
	    -engine name=base killers=off -each nodes=500 -openings file=tests/data/book_small.txt \
	    -sprt elo0=0 elo1=10 -concurrency 2 -quiet -out build/tsan/mpi.json >/dev/null
	@# A rank frozen (SIGSTOP) at the first checkpoint: rank 0's comm thread gives its pairs
	@# back to the runner's threads, and the job ends by MPI_Abort once the run is saved.
	rm -f build/tsan/frozen.json build/tsan/frozen.out
	@# The rank is found by pid, as a child of the mpirun started here whose environment says
	@# rank 1, never by name across the machine.
	TSAN_OPTIONS="halt_on_error=1" mpirun -x TSAN_OPTIONS --allow-run-as-root --oversubscribe \
	    --mca btl self,vader -np 2 build/tsan/abtest-mpi -engine name=frozen \
	    -engine name=base killers=off -each nodes=200 -openings file=tests/data/book_small.txt \
	    -rounds 100 -concurrency 2 -rank-timeout 2 -quiet -out build/tsan/frozen.json \
	    >build/tsan/frozen.out 2>&1 & job=$$!; \
	for i in $$(seq 600); do [ -f build/tsan/frozen.json ] && break; sleep 0.1; done; \
	for p in /proc/[0-9]*; do \
	    [ "$$(awk '{print $$4}' $$p/stat 2>/dev/null)" = "$$job" ] || continue; \
	    tr '\0' '\n' < $$p/environ | grep -qx OMPI_COMM_WORLD_RANK=1 && kill -STOP $${p#/proc/}; \
	done; wait $$job
	grep -q 'taken as lost' build/tsan/frozen.out
	grep -Eq '"pairs":[[:space:]]+100,' build/tsan/frozen.json
	@# abtest-mpi tune: rank 0 plays its share of each iteration on a thread of its own while
	@# it hears the other rank, whose share plays beside its heartbeat.
	rm -f build/tsan/tune_mpi.json
	TSAN_OPTIONS="halt_on_error=1" mpirun -x TSAN_OPTIONS --allow-run-as-root --oversubscribe \
	    --mca btl self,vader -np 2 build/tsan/abtest-mpi tune \
	    -param 'futility, int, 150, 0, 300, 10, 0.02' -iterations 2 -pairs 4 \
	    -each preset=tslab-0.3 nodes=200 -openings file=tests/data/book_small.txt \
	    -concurrency 2 -out build/tsan/tune_mpi.json >/dev/null
endif
	@echo "make sanitize: ASan/UBSan tests and TSan runs passed"

# libFuzzer targets, one per parser (tests/fuzz/fuzz_*.c), built with clang under ASan + UBSan
# in build/fuzz and run FUZZ_SECONDS each (CI: a short bounded run) from the seeds in
# tests/fuzz/corpus/NAME; new inputs go to build/fuzz/corpus/NAME, crashes to build/fuzz/.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all
fuzz: deps
	@$(MAKE) --no-print-directory CC=clang BUILD=build/fuzz OPT="-O1 -g" ARCH= \
	    EXTRA_CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" fuzz-run

fuzz-run: $(FUZZ_TARGETS:%=$(BUILD)/%)
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(BUILD)/corpus/$$t; \
	    echo "== $$t ($(FUZZ_SECONDS) s)"; \
	    $(BUILD)/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	        -print_final_stats=1 -artifact_prefix=$(BUILD)/$$t- \
	        $(BUILD)/corpus/$$t tests/fuzz/corpus/$$t 2>&1 | \
	        grep -E "stat::number_of_executed_units|stat::new_units_added|ERROR|SUMMARY|Test unit" \
	        || true; \
	    found=$$(ls $(BUILD)/$$t-crash-* $(BUILD)/$$t-leak-* $(BUILD)/$$t-timeout-* 2>/dev/null); \
	    if [ -n "$$found" ]; then echo "make fuzz: $$t FOUND A FAILURE: $$found"; exit 1; fi; \
	done; echo "make fuzz: no crash, leak or timeout in $(FUZZ_TARGETS)"

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(ENGINE_OBJ) $(ROOMS_OBJ)
	$(CC) $(CFLAGS) $(PKG_CJSON_CFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ $< \
	    $(ENGINE_OBJ) $(ROOMS_OBJ) $(PKG_CJSON_LIBS) $(LDLIBS)

# Perft counts of the reference file above the test suite's limit (minutes), a line per entry.
perft-deep: $(BUILD)/tests/test_perft
	TSLAB_PERFT_MAX=100000000000 TSLAB_PERFT_PROGRESS=1 $(BUILD)/tests/test_perft

# The main job on built-in defaults: abtest's built-in SPRT (killers off vs on), all cores.
run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/abtest

# Every pinned bench move and score unchanged (bench/signature.json; docs/bench.md).
bench-check: $(TOOLS)
	$(BUILD)/bench check -threads 2

# Speed, for tracking over time (never asserted): a row of docs/performance.md's table (perft and
# its ratio to the anchor, suite nodes per CPU second, abtest pairs/s; medians with their range).
# tools/perft_anchor.c is the lean one-file perft that bench perft is compared with.
# Instructions per node come from a portable build of bench in $(BUILD)/portable: valgrind
# cannot run every instruction -march=native allows (SIGILL on AVX-512).
perf: $(TOOLS) $(BUILD)/perft_anchor
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/portable ARCH=-march=x86-64-v2 \
	    $(BUILD)/portable/bench
	@python3 tools/perf_table.py $(BUILD) 3 $(BUILD)/portable

$(BUILD)/perft_anchor: tools/perft_anchor.c $(FLAGS_STAMP)
	$(CC) $(CFLAGS) -o $@ $<

# Profile-guided build (gcc), as Ethereal and Weiss do: an instrumented build runs the bench
# suite on one thread (the training), then everything is rebuilt from the profile. Into its own
# directory (PGO_BUILD), so build/ is untouched; same moves, scores and nodes (bench check).
# The measured gain is in docs/performance.md.
PGO_BUILD ?= build/pgo
pgo:
	@[ -z "$(CC_IS_CLANG)" ] || { echo "make pgo: needs gcc (clang's profiles take llvm-profdata)"; exit 1; }
	rm -rf $(PGO_BUILD)
	$(MAKE) --no-print-directory BUILD=$(PGO_BUILD) EXTRA_CFLAGS="-fprofile-generate $(EXTRA_CFLAGS)" $(PGO_BUILD)/bench
	$(PGO_BUILD)/bench -threads 1 > /dev/null
	$(MAKE) --no-print-directory BUILD=$(PGO_BUILD) \
	    EXTRA_CFLAGS="-fprofile-use -fprofile-partial-training -Wno-missing-profile $(EXTRA_CFLAGS)" all
	$(PGO_BUILD)/bench check -threads 2
	@echo "make pgo: profile-guided tools in $(PGO_BUILD)/"

# The sliding-phase tablebase (docs/tablebase.md): solved by retrograde analysis into
# tablebase/sliding.tstb, where the tools look for it (generated, never committed; 88 MB, about
# a minute on 2 cores). tablebase-check solves it again and checks every entry against its
# successors, samples against a forward search, and symmetric images.
tablebase: $(TOOLS)
	$(BUILD)/bench tbgen

tablebase-check: $(TOOLS)
	$(BUILD)/bench tbgen
	$(BUILD)/bench tbverify

# The placement phase over the sliding file, layer by layer (docs/tablebase.md): IN_HAND=4 the
# last four placements (minutes), IN_HAND=20 the whole game (hours; resumable at any layer).
# Never run by CI.
IN_HAND ?= 4
tablebase-placement: $(TOOLS) tablebase-ready
	$(BUILD)/bench tbplace -in-hand $(IN_HAND)

tablebase-placement-check: $(TOOLS) tablebase-ready
	$(BUILD)/bench tbverify -placement $(IN_HAND)
	python3 tools/check_placement.py $(BUILD)/bench $(IN_HAND)

# Documents generated from the code's tables, and the ledger's tables from results/.
docs: $(TOOLS)
	$(BUILD)/bench options -markdown > docs/options.md
	python3 tools/docs_tables.py $(BUILD)/abtest docs/experiments.md
	python3 tools/docs_outputs.py $(BUILD)

# The engine of a git revision, built in a temporary worktree (the checkout is not touched) and
# installed into OUT (default build/engines/REV): OUT/bin/tslab-engine (docs/abtest.md, "Build
# against build"). REV and OUT reach the script as its arguments through the environment, never
# pasted into the recipe's shell text: a branch may be named `x";touch y;"`. $(value) keeps make
# from expanding them either.
engine-at: export TSLAB_ENGINE_AT_REV := $(value REV)
engine-at: export TSLAB_ENGINE_AT_OUT := $(value OUT)
engine-at:
	@sh tools/engine_at.sh "$$TSLAB_ENGINE_AT_REV" "$$TSLAB_ENGINE_AT_OUT"

deps:
	@missing=""; \
	command -v $(CC) >/dev/null 2>&1 || missing="$$missing build-essential"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	pkg-config --exists libcjson 2>/dev/null || missing="$$missing libcjson-dev"; \
	pkg-config --exists cmocka 2>/dev/null || missing="$$missing libcmocka-dev"; \
	command -v gnuplot >/dev/null 2>&1 || missing="$$missing gnuplot-nox"; \
	command -v clang >/dev/null 2>&1 || missing="$$missing clang"; \
	[ -f "$$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] || \
	    missing="$$missing libclang-rt-dev"; \
	command -v mpicc >/dev/null 2>&1 || missing="$$missing libopenmpi-dev"; \
	command -v mpirun >/dev/null 2>&1 || missing="$$missing openmpi-bin"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "make deps: missing:$$missing"; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PACKAGES); \
	else \
	    echo "make deps: run: sudo apt-get install -y $(DEB_PACKAGES)"; exit 1; \
	fi

# Tools as tslab-*, their data (the defaults they find beside themselves) and the docs.
install: all
	sh tools/install.sh $(DESTDIR)$(PREFIX) $(BUILD)

clean:
	rm -rf build

help:
	@echo "make            build lib/ and the tools into $(BUILD)/"
	@echo "make run        the main job on built-in defaults"
	@echo "make test       install missing packages, build and run every test"
	@echo "make test-one T=NAME  build and run one suite, tests/test_NAME.c (T=clock)"
	@echo "make test-run TEST_SKIP=\"A B\"  every suite but tests/test_A.c, test_B.c (built, not run)"
	@echo "make sanitize   the tests under ASan + UBSan"
	@echo "make fuzz       every parser under libFuzzer (FUZZ_SECONDS=60 each)"
	@echo "make perft-deep the reference perft counts above the test limit"
	@echo "make bench-check every pinned bench move and score unchanged"
	@echo "make perf       a speed row: perft, suite nodes per CPU second, abtest pairs/s (docs/performance.md)"
	@echo "make pgo        profile-guided build (gcc) into $(PGO_BUILD)/, trained on the bench suite"
	@echo "make engine-at REV=R [OUT=D]  build revision R's engine in a worktree into D/bin/tslab-engine"
	@echo "                 (REV=WORKTREE: the working tree as it is, uncommitted changes included)"
	@echo "make tablebase  solve the sliding phase into tablebase/sliding.tstb (docs/tablebase.md)"
	@echo "make tablebase-check  solve it and check every entry (docs/tablebase.md)"
	@echo "make tablebase-placement [IN_HAND=4]  solve the placement layers up to IN_HAND sheep in hand"
	@echo "make tablebase-placement-check [IN_HAND=4]  check them (tbverify, tools/check_placement.py)"
	@echo "make docs       regenerate docs/options.md from the option table, docs/experiments.md's tables from results/,"
	@echo "                and the config: lines and SPSA listing the docs show (tools/docs_outputs.py)"
	@echo "make install PREFIX=...  install tools as tslab-*, their data and the docs"
	@echo "make EXE=PATH   build, and put the engine at PATH too (as OpenBench's client builds)"
	@echo "make deps       install missing Debian packages (as root) or print the command"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
