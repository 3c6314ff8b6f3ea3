// SPDX-License-Identifier: MIT
#include "sides.h"

#include "cli.h"
#include "program_bench.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* tslab reads a ttSize of 2^k MB as tt_bits = 16 + k (suite/stockfish_bench.c). */
#define MEGABYTE_BITS 16

bool bench_side_config(BenchSide *side, const CliGroup *words, Error *err) {
    memset(side, 0, sizeof *side);
    side->config = config_default();
    for (int i = 0; i < words->count; i++)
        if (!config_apply(&side->config, words->words[i], err))
            return false;
    config_to_text(&side->config, side->text, sizeof side->text);
    return true;
}

void bench_side_set_stall(BenchSide *side, int64_t stall_ms) {
    if (side->is_program)
        side->engine.program.stall = stall_ms;
}

void bench_side_set_depth(BenchSide *side, int depth) {
    side->config.depth = depth;
    if (!side->is_program)
        config_to_text(&side->config, side->text, sizeof side->text);
}

static bool is_directory(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A build directory's engine: DIR/engine, else DIR/bin/tslab-engine. */
static bool engine_in_directory(const char *dir, char *out, size_t size, Error *err) {
    static const char *const names[] = {"engine", "bin/tslab-engine"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int n = snprintf(out, size, "%s/%s", dir, names[i]);
        if (n > 0 && (size_t)n < size && access(out, X_OK) == 0)
            return true;
    }
    return error_set(err, "%s is a directory with neither engine nor bin/tslab-engine in it", dir);
}

/* bench's syntax, for the program's messages: where its setoption words were given. */
static const char *options_given_as(const char *name) {
    static const struct {
        const char *option, *words;
    } GIVEN[] = {{"-base-engine", "-base key=value words"},
                 {"-cand-engine", "-cand key=value words"},
                 {"-engine", "defaults: bench check sends it no option"}};
    for (size_t i = 0; i < sizeof GIVEN / sizeof GIVEN[0]; i++)
        if (!strcmp(name, GIVEN[i].option))
            return GIVEN[i].words;
    return NULL;
}

bool bench_side_program(BenchSide *side, const char *name, const char *cmd, const CliGroup *words,
                        Error *err) {
    memset(side, 0, sizeof *side);
    side->is_program = true;
    side->config = config_default();
    side->engine = engine_spec_default();
    snprintf(side->engine.name, sizeof side->engine.name, "%s", name);
    char path[PROGRAM_TEXT_MAX];
    if (is_directory(cmd)) {
        if (!engine_in_directory(cmd, path, sizeof path, err))
            return false;
        cmd = path;
    }
    ProgramSpec *x = &side->engine.program;
    bool handled;
    Error inner;
    if (!engine_spec_program_key(x, "cmd", cmd, &handled, &inner))
        return error_set(err, "%s: %s", name, inner.text);
    x->stall = BENCH_PROGRAM_STALL_DEFAULT_MS;
    x->options_given_as = options_given_as(name);
    for (int i = 0; words && i < words->count; i++) {
        const char *word = words->words[i], *equals = strchr(word, '=');
        if (!equals || equals == word)
            return error_set(err, "%s: '%s' is not key=value", name, word);
        char key[PROGRAM_TEXT_MAX];
        snprintf(key, sizeof key, "%.*s", (int)(equals - word), word);
        const OptionSpec *option = config_find(key);
        if (option && option->kind == OPTION_KIND_LIMIT)
            return error_set(err, "%s: %s= is a limit; -depth N sets the bench's depth", name, key);
        /* Known here: checked, and tt_bits gives the bench's ttSize. Unknown here: the program
         * (perhaps a newer build) judges it when it is set. */
        if (option && !config_apply(&side->config, word, &inner))
            return error_set(err, "%s: %s", name, inner.text);
        char program_key[PROGRAM_TEXT_MAX + 8];
        snprintf(program_key, sizeof program_key, "option.%s", key);
        if (!engine_spec_program_key(x, program_key, equals + 1, &handled, &inner))
            return error_set(err, "%s: %s", name, inner.text);
    }
    snprintf(side->text, sizeof side->text, "program %s%s%s", x->cmd, x->options[0] ? ", " : "",
             x->options);
    return true;
}

void bench_side_plan_input(BenchSide *side, const char *option, OutputPlan *plan,
                           const char *command) {
    ProgramIdentity id;
    Error err;
    const ProgramSpec *x = &side->engine.program;
    if (!side->is_program || !program_identity_stat(x->cmd, x->args, x->dir, &id, &err))
        return;
    snprintf(side->file, sizeof side->file, "%s", id.path);
    output_plan_input(plan, option, side->file);
    if (!output_plan_check(plan, &err))
        die("%s: %s", command, err.text);
}

/* A program's bench as a BenchRun: the moves read back and checked for shape. */
static bool program_rows(const BenchSide *side, const BookEntry *entries, int count,
                         const ProgramBenchRun *answers, BenchRun *run, Error *err) {
    run->rows = calloc((size_t)count, sizeof *run->rows);
    if (!run->rows)
        return error_set(err, "out of memory for %d positions", count);
    run->count = count;
    for (int i = 0; i < count; i++) {
        BenchRow *row = &run->rows[i];
        const ProgramBenchRow *answer = &answers->rows[i];
        Error inner;
        row->entry = entries[i];
        if (!move_from_text(answer->move, &row->result.move, &inner))
            return error_set(err, "%s: position %s: move '%s': %s", side->engine.program.cmd,
                             entries[i].id, answer->move, inner.text);
        row->result.score = answer->score;
        row->result.depth = answer->depth;
        row->result.stats.nodes = answer->nodes;
        run->total.nodes += answer->nodes;
    }
    return true;
}

/* A program's bench stopped by Ctrl-C, SIGTERM or SIGHUP: the processes are stopped and their
 * positions files removed before bench exits (without this, each process left one in
 * TMPDIR). bench is one process: the flag is its own. */
static atomic_bool stop_programs;
static volatile sig_atomic_t stop_signal;

static void on_stop(int signal_number) {
    stop_signal = signal_number;
    atomic_store(&stop_programs, true);
}

static const int STOP_SIGNALS[] = {SIGINT, SIGTERM, SIGHUP};
#define STOP_SIGNAL_COUNT (sizeof STOP_SIGNALS / sizeof STOP_SIGNALS[0])

/* Runs job with the stop signals caught, then puts their handlers back; a run a signal stopped
 * exits 128 + the signal, its files removed, nothing written. */
static bool run_program_bench(ProgramBenchJob *job, const BookEntry *entries, int count,
                              ProgramBenchRun *answers, Error *err) {
    struct sigaction action, saved[STOP_SIGNAL_COUNT];
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    atomic_store(&stop_programs, false);
    for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++)
        sigaction(STOP_SIGNALS[i], &action, &saved[i]);
    job->stop = &stop_programs;
    bool ok = program_bench_run(job, entries, count, answers, err);
    for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++)
        sigaction(STOP_SIGNALS[i], &saved[i], NULL);
    if (!ok && stop_signal) {
        fprintf(stderr,
                "bench: stopped by signal %d: the programs stopped, their positions "
                "files removed, nothing written\n",
                (int)stop_signal);
        exit(128 + stop_signal);
    }
    return ok;
}

bool bench_side_run(const BenchSide *side, const BookEntry *entries, int count, int threads,
                    BenchRun *run, Error *err) {
    if (!side->is_program)
        return bench_run(entries, count, &side->config, threads, run, err);
    memset(run, 0, sizeof *run);
    run->config = side->config;
    if (side->config.tt_bits < MEGABYTE_BITS)
        return error_set(err,
                         "tt_bits=%d: a program's bench takes its table size in whole MB "
                         "(tt_bits=%d and up)",
                         side->config.tt_bits, MEGABYTE_BITS);
    ProgramBenchJob job = {.spec = &side->engine,
                           .depth = side->config.depth,
                           .tt_megabytes = 1 << (side->config.tt_bits - MEGABYTE_BITS),
                           .processes = threads,
                           .progress = stderr}; /* a slow program's bench is not a hang */
    ProgramBenchRun answers;
    if (!run_program_bench(&job, entries, count, &answers, err))
        return false;
    bool ok = program_rows(side, entries, count, &answers, run, err);
    run->wall_seconds = answers.wall_seconds;
    run->cpu_seconds = answers.cpu_seconds;
    program_bench_destroy(&answers);
    if (!ok) {
        bench_run_destroy(run);
        return false;
    }
    run->signature = bench_signature(run->rows, count);
    return true;
}
