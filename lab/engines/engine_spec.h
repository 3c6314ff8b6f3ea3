// SPDX-License-Identifier: MIT
// One engine of a match: its name, its search configuration (an in-process engine) and, for an
// engine program, the program's keys (cmd= args= dir= option.NAME= bench= timemargin= startup=
// stall=). The keys are one table that drives the command line, the defaults, the echoed
// command, the comparison on resume and the results file both ways.
#pragma once

#include "config.h"
#include "textbuf.h"

#include <cJSON.h>

#define MATCH_NAME_MAX 32
#define EXTERNAL_TEXT_MAX 512
#define EXTERNAL_OPTIONS_MAX 1024
/* Defaults of an engine program's deadlines (docs/abtest.md, "Build against build"). */
#define EXTERNAL_DEFAULT_TIMEMARGIN_MS 100
#define EXTERNAL_DEFAULT_STARTUP_MS 10000
#define EXTERNAL_DEFAULT_STALL_MS 60000

/* An engine program (cmd= on the command line); cmd is empty for an in-process engine. */
typedef struct {
    char cmd[EXTERNAL_TEXT_MAX];        /* the program, run as execvp runs it */
    char args[EXTERNAL_TEXT_MAX];       /* its arguments: words, "..." grouping */
    char dir[EXTERNAL_TEXT_MAX];        /* its working directory ("": abtest's) */
    char options[EXTERNAL_OPTIONS_MAX]; /* "NAME=VALUE ...": one setoption each, in order */
    int64_t bench;      /* the node count its `bench` must report (0: not checked) */
    int64_t timemargin; /* ms past movetime before the move is lost on time */
    int64_t startup;    /* ms to answer uci and isready */
    int64_t stall;      /* ms a search without time limit (or bench) may take */
    /* Not an option: the count its `bench` gave when the run first started, recorded in the
     * results file so that a resumed run refuses another program or build (0: not yet known). */
    int64_t bench_seen;
} ExternalSpec;

typedef struct {
    char name[MATCH_NAME_MAX];
    SearchConfig config; /* limits included (depth, nodes, movetime); an engine program uses
                            the limits only */
    ExternalSpec external;
} EngineSpec;

static inline bool engine_is_external(const EngineSpec *spec) { return spec->external.cmd[0]; }

/* An unnamed in-process engine with the default search and every program key at its default. */
EngineSpec engine_spec_default(void);

/* The program's keys for a usage line: "cmd=PROGRAM [args=\"...\"] [dir=D] ...". */
void engine_spec_usage(TextBuf *buf);

/* The program key closest to a mistyped key (within two edits), or NULL. */
const char *engine_spec_closest_key(const char *key);

/* Checks an engine name: 1..31 characters from [A-Za-z0-9._+-]. Names go into per-game lines
 * that OpenBench splits on spaces and colons and into the game records' quoted tags. */
bool engine_spec_check_name(const char *name, Error *err);

/* Applies one program key (cmd, args, dir, option.NAME, proto, bench, timemargin, startup,
 * stall), checked; *handled is false for any other key (a search option, say). */
bool engine_spec_program_key(ExternalSpec *x, const char *key, const char *value, bool *handled,
                             Error *err);

/* An engine program takes its limits from abtest and every other option as option.NAME=VALUE;
 * an in-process engine takes search options and no program key. False naming the first key
 * that breaks this. */
bool engine_spec_check_kind(const EngineSpec *spec, Error *err);

/* The program's keys that differ from their defaults, as command-line tokens (" cmd=... "). */
void engine_spec_program_tokens(const ExternalSpec *x, TextBuf *buf);

/* Whether two programs are the same (every key; bench_seen is a record, not a key). On a
 * difference, *key names the first key that differs. */
bool engine_spec_same_program(const ExternalSpec *a, const ExternalSpec *b, const char **key);

/* As a results file records a program (every key and bench_seen), and back with the command
 * line's checks. NULL JSON reads as no program (an in-process engine). */
cJSON *engine_spec_program_to_json(const ExternalSpec *x);
bool engine_spec_program_from_json(const cJSON *json, ExternalSpec *x, Error *err);
