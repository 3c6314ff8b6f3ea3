// SPDX-License-Identifier: MIT
// The subcommands' own options as a table (as lib/search/config.c's table does for search options):
// one row per option drives parsing, range checks, "needs a value", "did you mean" and the
// usage lines, so no command repeats them in a loop of its own.
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    CLI_FLAG_SWITCH, /* no value: sets a bool */
    CLI_FLAG_TEXT,   /* a word: sets a const char * (pointing into argv) */
    CLI_FLAG_INT,    /* a whole number in min..max: sets an int */
    CLI_FLAG_INT64,  /* a whole number in min..max: sets an int64_t */
    CLI_FLAG_DOUBLE, /* a number in min..max: sets a double */
    CLI_FLAG_GROUP,  /* the key=value words that follow (-sprt elo0=0 elo1=5): sets a CliGroup */
} CliFlagType;

/* The words of a group option, pointing into argv. */
typedef struct {
    char **words;
    int count;
    bool given;
} CliGroup;

typedef struct {
    const char *name; /* "-threads" */
    CliFlagType type;
    void *target;      /* bool *, const char **, int *, int64_t *, double * or CliGroup * */
    double min, max;   /* numbers (whole ones: at most +-2^63, exact below 2^53) */
    const char *value; /* the value's name in the usage ("N", "FILE"); NULL for a switch */
    const char *help;  /* one line for the usage ("" keeps the option out of it) */
} CliFlag;

/* A word that is not an option (a depth, a key=value search option, a file): false with err
 * refuses it. */
typedef bool (*CliWordFn)(void *context, const char *word, Error *err);

typedef struct {
    const char *name;       /* in messages: "tbgen", "book" ("": a tool's own options) */
    const char *subcommand; /* after the program's name: "tbgen" ("" for its own options); hints
                               name the program as invoked ("see tslab-bench tbgen -help") */
    const char *synopsis;   /* the usage's first lines, each ending in '\n' */
    const CliFlag *flags;
    size_t count;
    CliWordFn word; /* NULL: words are refused */
    void *context;
    void (*usage_tail)(FILE *out); /* printed after the options (NULL: nothing) */
} CliCommand;

/* Parses argv (the words after the command's name). -help or --help prints the usage and sets
 * *help (parsing stops there). Errors name the command and the option: "tbgen: -threads:
 * 99 is out of range (1..64)", "perft: unknown option '-dept' (did you mean '-depth'?)". */
bool cli_flags_parse(const CliCommand *command, int argc, char **argv, bool *help, Error *err);

/* The synopsis, then one line per option: name, value and help, aligned. */
void cli_flags_usage(const CliCommand *command, FILE *out);

/* cli_flags_parse for a tool's main: on error dies with the message (exit 2); returns true when
 * -help was printed (the caller returns 0). */
bool cli_flags_parse_or_die(const CliCommand *command, int argc, char **argv);
