// SPDX-License-Identifier: MIT
// abtest's command line, in fastchess's grammar: single-dash options, key=value groups after
// -engine, -each, -openings and -sprt. fastchess options that mean nothing here get a pointer to
// what abtest does instead, never a misleading "did you mean".
#pragma once

#include "settings.h"

/* Parses argv (after the program name) into settings. On error returns false with a message
 * naming the option and what is wrong. `-help`/`-version` print and set *exit_now. */
bool arguments_parse(int argc, char **argv, MatchSettings *settings, bool *exit_now, Error *err);

/* The built-in main job (README: abtest with no options), as the command line it is. */
bool arguments_main_job(MatchSettings *settings, Error *err);
