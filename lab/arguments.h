// SPDX-License-Identifier: MIT
// abtest's command line, in fastchess's grammar: single-dash options, key=value groups after
// -engine, -each, -openings and -sprt. fastchess options that mean nothing here get a pointer to
// what abtest does instead, never a misleading "did you mean".
#pragma once

#include "settings.h"

/* Parses argv (after the program name) into settings. On error returns false with a message
 * naming the option and what is wrong. `-help`/`-version` print and set *exit_now. */
bool arguments_parse(int argc, char **argv, MatchSettings *settings, bool *exit_now, Error *err);

/* Checks an engine name: 1..31 characters from [A-Za-z0-9._+-]. Names go into per-game lines
 * that OpenBench splits on spaces and colons and into the game records' quoted tags. */
bool arguments_check_name(const char *name, Error *err);

/* Applies one key of an engine program (cmd, args, dir, option.NAME, proto, bench, timemargin,
 * startup, stall) to e, checked as on the command line; *handled is false for any other key.
 * Results files are read back through it. */
bool arguments_external_key(ExternalSpec *e, const char *key, const char *value, bool *handled,
                            Error *err);
