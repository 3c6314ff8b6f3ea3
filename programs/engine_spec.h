// SPDX-License-Identifier: MIT
// One engine of a match: its name, its search configuration (an in-process engine) and, for an
// engine program, the program's keys (cmd= args= dir= option.NAME= bench= startup= stall=), and
// for either kind its timing keys (tc= st= timemargin= nodestime=). Each group of keys is one
// table that drives the command line, the defaults, the echoed command, the comparison on resume
// and the results file both ways.
#pragma once

#include "clock.h"
#include "config.h"
#include "program_identity.h"
#include "textbuf.h"

#include <cJSON.h>

#define MATCH_NAME_MAX 32
#define PROGRAM_TEXT_MAX 512
#define PROGRAM_OPTIONS_MAX 1024
/* Defaults of an engine program's deadlines (docs/abtest.md, "Build against build"). */
#define PROGRAM_DEFAULT_TIMEMARGIN_MS 100
#define PROGRAM_DEFAULT_STARTUP_MS 10000
#define PROGRAM_DEFAULT_STALL_MS 60000
#define PROGRAM_BENCH_OFF (-1) /* bench=off */

/* An engine program (cmd= on the command line); cmd is empty for an in-process engine. */
typedef struct {
    char cmd[PROGRAM_TEXT_MAX];        /* the program, run as execvp runs it */
    char args[PROGRAM_TEXT_MAX];       /* its arguments: words, "..." grouping */
    char dir[PROGRAM_TEXT_MAX];        /* its working directory ("": abtest's) */
    char options[PROGRAM_OPTIONS_MAX]; /* "NAME=VALUE ...": one setoption each, in order */
    int64_t bench;      /* the node count its `bench` must report (0: not checked;
                           PROGRAM_BENCH_OFF: not asked, for a program without `bench`) */
    int64_t startup;    /* ms to answer uci and isready */
    int64_t stall;      /* ms a search without time limit (or bench) may take */
    /* Not a key: how the tool took its options, for messages (NULL: abtest's option.NAME=VALUE;
     * bench's program sides: the words after the option that names the program). */
    const char *options_given_as;
    /* Not an option: what the program was when the run first started (its bench and its
     * file), recorded in the results file so that a resumed run refuses another build. */
    ProgramIdentity seen;
} ProgramSpec;

/* nodestime=auto: abtest measures the engine's nodes per millisecond on this machine before the
 * first game (lab/match/calibrate.h) and the run is then the nodestime run it would have been
 * with that number typed in. The measurement is recorded with how it was made, so that a
 * resumed run uses it and never measures again. */
#define NODESTIME_SAMPLES_MAX 9
#define NODESTIME_HOST_MAX 64
typedef struct {
    bool on;               /* nodestime=auto was given */
    int samples;           /* rounds measured (0: not yet) */
    double sample[NODESTIME_SAMPLES_MAX]; /* nodes per ms of each round, in round order */
    double low, high;      /* the median's interval (order statistics, calibrate.h) */
    int searches;          /* fixed searches a round, from the book's positions */
    int64_t movetime_ms;   /* each search's wall time */
    double load;           /* the 1-minute load average as it began (-1: unknown) */
    double cpu_share;      /* an in-process engine's searches: CPU time over wall time (a
                              share under 1 is a busy machine); -1 for a program */
    int cores;             /* the machine's */
    char host[NODESTIME_HOST_MAX];
    char utc[32];          /* when: "2026-12-04T16:20:00Z" (CLI_UTC_TEXT_MAX) */
} NodestimeAuto;

/* How an engine's moves are timed, for in-process engines and programs alike: the clock abtest
 * keeps for it (fastchess's tc= or st=), the overrun it forgives, and whether the clock runs on
 * nodes searched. */
typedef struct {
    TimeControl tc;     /* tc= or st= (all zero: no clock; the limits are depth, nodes, movetime) */
    int64_t timemargin; /* ms past the clock (or a program's movetime) before the flag falls */
    int64_t nodestime;  /* nodes per ms (fishtest's nodestime): a move costs its nodes divided by
                           this, never wall time, so a clocked match is reproducible (0: wall) */
    NodestimeAuto measured; /* nodestime=auto: nodestime is the median of its samples */
} EngineTiming;

typedef struct {
    char name[MATCH_NAME_MAX];
    SearchConfig config; /* limits included (depth, nodes, movetime); an engine program uses
                            the limits only */
    ProgramSpec program;
    EngineTiming timing;
} EngineSpec;

static inline bool engine_is_program(const EngineSpec *spec) { return spec->program.cmd[0]; }

/* Whether abtest keeps a clock for the engine (tc= or st=). */
static inline bool engine_has_clock(const EngineSpec *spec) {
    const TimeControl *tc = &spec->timing.tc;
    return tc->time_ms || tc->increment_ms || tc->fixed_ms;
}

/* Whether the engine's moves take wall time that decides what it plays: a clock on wall time, or
 * movetime=. Such a match is not reproducible. (nodestime=auto counts as nodes: measured before
 * the first game, it is a number when play starts.) */
static inline bool engine_on_wall_time(const EngineSpec *spec) {
    return (engine_has_clock(spec) && !spec->timing.nodestime && !spec->timing.measured.on) ||
           spec->config.movetime;
}

/* An unnamed in-process engine with the default search and every program key at its default. */
EngineSpec engine_spec_default(void);

/* The program's keys for a usage line: "cmd=PROGRAM [args=\"...\"] [dir=D] ...". */
void engine_spec_usage(TextBuf *buf);

/* The program or timing key closest to a mistyped key (within max_distance edits), or NULL. */
const char *engine_spec_closest_key(const char *key, size_t max_distance);

/* Checks an engine name: 1..31 characters from [A-Za-z0-9._+-]. Names go into per-game lines
 * that OpenBench splits on spaces and colons and into the game records' quoted tags. */
bool engine_spec_check_name(const char *name, Error *err);

/* Applies one timing key (tc, st, timemargin, nodestime), checked; *handled is false for any
 * other key. tc= and st= are one clock: giving both is refused. */
bool engine_spec_timing_key(EngineTiming *timing, const char *key, const char *value,
                            bool *handled, Error *err);

/* The timing keys for a usage line: "[tc=[MOVES/]SECONDS[+INC] | st=SECONDS] ...". */
void engine_spec_timing_usage(TextBuf *buf);

/* The timing keys that differ from their defaults, as command-line tokens (" tc=10+0.1 ..."). */
void engine_spec_timing_tokens(const EngineTiming *timing, TextBuf *buf);

/* Whether two engines are timed alike; on a difference *key names the first key. Two engines
 * with nodestime=auto are alike whatever their measurements (a measurement is not a key). */
bool engine_spec_same_timing(const EngineTiming *a, const EngineTiming *b, const char **key);

/* Adds the timing keys to an engine's JSON object ("tc", "st": texts, "" when none;
 * "timemargin", "nodestime": numbers; with nodestime=auto, "nodestime_auto": the measurement),
 * and reads them back with the command line's checks. A file without them (written before
 * clocks) reads as no clock, and its program's "timemargin". */
void engine_spec_timing_to_json(const EngineTiming *timing, cJSON *engine);
bool engine_spec_timing_from_json(const cJSON *engine, EngineTiming *timing, Error *err);

/* Applies one program key (cmd, args, dir, option.NAME, proto, bench, startup, stall),
 * checked; *handled is false for any other key (a search option, say). */
bool engine_spec_program_key(ProgramSpec *x, const char *key, const char *value, bool *handled,
                             Error *err);

/* An engine program takes its limits from abtest and every other option as option.NAME=VALUE;
 * an in-process engine takes search options and no program key. A clock (tc= or st=) excludes
 * movetime=, and nodestime= needs a clock. False naming the first key that breaks this. */
bool engine_spec_check_kind(const EngineSpec *spec, Error *err);

/* The program's keys that differ from their defaults, as command-line tokens (" cmd=... "). */
void engine_spec_program_tokens(const ProgramSpec *x, TextBuf *buf);

/* Whether two programs are the same (every key; seen is a record, not a key). On a
 * difference, *key names the first key that differs. */
bool engine_spec_same_program(const ProgramSpec *a, const ProgramSpec *b, const char **key);

/* As a results file records a program (every key and seen), and back with the command
 * line's checks. NULL JSON reads as no program (an in-process engine). */
cJSON *engine_spec_program_to_json(const ProgramSpec *x);
bool engine_spec_program_from_json(const cJSON *json, ProgramSpec *x, Error *err);
