// SPDX-License-Identifier: MIT
// abtest's command line, in fastchess's grammar: single-dash options, key=value groups after
// -engine, -each, -openings and -sprt. fastchess options that mean nothing here get a pointer to
// what abtest does instead, never a misleading "did you mean".
#pragma once

#include "settings.h"

/* abtest-mpi's -rank-timeout default: silence this long makes a rank lost. Thirty heartbeats
 * (lab/mpi/rank_limits.h): a loaded host's scheduler or a slow link delays a message by far
 * less. */
#define ARGUMENTS_RANK_TIMEOUT_SECONDS 30

/* Parses argv (after the program name) into settings. On error returns false with a message
 * naming the option and what is wrong. `-help`/`-version` print and set *exit_now. */
bool arguments_parse(int argc, char **argv, MatchSettings *settings, bool *exit_now, Error *err);

/* An option of a command's own, beside the match's: taken in command-line order, each value
 * handed to take (which may keep the pointer: it points into argv). */
typedef struct {
    const char *option; /* "-param" */
    const char *value;  /* what it needs, for "needs ...": "a line", "a file", "a number" */
    bool (*take)(void *context, const char *value, Error *err);
} ArgumentsOwn;

/* A command that plays pairs with engines it makes itself (tune, booktest): its own options, and
 * those of the match's tables whose rows carry its trait (SETTINGS_FOR_TUNE, ...). The engines
 * are made from -each alone, named as given; the command sets the rest (its rounds, a book). */
typedef struct {
    const char *usage; /* its -help, whole */
    unsigned trait;    /* SETTINGS_FOR_TUNE or SETTINGS_FOR_BOOKTEST */
    const char *makes; /* why the match's other options are refused: "abtest tune makes ..." */
    const ArgumentsOwn *own;
    size_t own_count;
    const char *engine_names[MATCH_ENGINES];
} ArgumentsCommand;

/* Parses a command's argv into its own options (command->own, each given context) and settings:
 * the match's options its trait allows, the engines from -each, the default book (when it takes
 * -openings). The command completes and checks them (settings_check) after its own. An option of the match's that the command does not
 * take is refused with command->makes; an unknown one gets "did you mean" among those it does
 * take. -help prints arguments_command_usage and sets *exit_now. */
bool arguments_parse_command(const ArgumentsCommand *command, void *context, int argc,
                             char **argv, MatchSettings *settings, bool *exit_now, Error *err);

/* The command's usage, then the match's options it takes, listed from the tables. */
void arguments_command_usage(const ArgumentsCommand *command, FILE *out);

/* Applies key=value words (search options, a program's and the clock's keys) to the engine
 * spec, as they act after `-engine name=NAME`, whose messages they give. */
bool arguments_engine_words(EngineSpec *spec, char **words, int count, Error *err);

/* The built-in main job (README: abtest with no options), as the command line it is. */
bool arguments_main_job(MatchSettings *settings, Error *err);
