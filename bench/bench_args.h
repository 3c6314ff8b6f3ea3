// SPDX-License-Identifier: MIT
// The options bench's subcommands share (-depth, -positions, -threads, -json, -out, key=value)
// and the files they read and write by default.
#pragma once

#include "output.h"
#include "suite.h"

/* Options shared by the subcommands. */
typedef struct {
    SearchConfig config;
    int depth;                 /* -depth (0 = the command's default) */
    const char *positions;     /* -positions (NULL: the default suite, bench_load_suite) */
    char default_positions[PATHS_MAX];
    const char *json;          /* -json */
    const char *out;           /* -out (pin) */
    const char *file;          /* positional file (check) */
    int threads;               /* -threads */
    bool has_config_tokens;
    OutputPlan plan; /* -json and -out, checked against the inputs when parsed */
} BenchArgs;

/* A subcommand built on the shared options. */
typedef struct {
    const char *name;       /* "check"; "bench" for the suite run itself */
    const char *usage;      /* its synopsis */
    bool allow_out;         /* -out FILE (pin) */
    bool allow_file;        /* one positional FILE (check) */
    bool pinned;            /* the file says what to run (check): no -depth, -positions or
                               search options, in the parse or the usage */
    const CliFlag *extra;   /* its own options (compare's -base, -cand, -repeat) */
    size_t extra_count;
} BenchCommand;

/* Parses argv: -depth N, -positions FILE, -threads N, -json FILE, -out FILE (if allow_out), one
 * positional FILE (if allow_file), the command's own options and key=value search options.
 * Calls die() on errors, exit(0) after -help. */
void bench_parse_args(const BenchCommand *command, int argc, char **argv, BenchArgs *args);

/* The suite to run: -positions FILE as given, else the default suite (args->positions then
 * names what was read). Dies with the message on error. */
void bench_load_suite(BenchArgs *args, Book *book);

/* A default data file ("bench/signature.json") into out, or dies saying where it looked. */
void bench_default_file(const char *relative, char out[PATHS_MAX]);

/* given when the user named a file, else the default data file `relative` (in buffer). */
const char *bench_file_or_default(const char *given, const char *relative,
                                  char buffer[PATHS_MAX]);

/* Writes json to path (an output of the checked plan, or "-" for stdout) atomically, frees it,
 * and dies with the message on error. */
void bench_write_json(const OutputPlan *plan, cJSON *json, const char *path, const char *command);

/* Where tables go: stderr when the JSON owns stdout (-json -), else stdout. */
FILE *bench_table_stream(const char *json_path);

/* Parses a command whose other words are search options (key=value) into config, its usage
 * ending with the options' list; with no limit given, depth=default_depth. Returns false after
 * -help (nothing more to do); dies on bad input naming the word. */
bool bench_parse_search_command(CliCommand *command, int argc, char **argv, SearchConfig *config,
                                int default_depth);
