// SPDX-License-Identifier: MIT
// Settings as results files record them, read back with every check of the command line.
#pragma once

#include "settings.h"

#define SETTINGS_DEFAULTED_MAX 1024

/* Settings as JSON (what results files record) and back (settings_json.c). Reading applies
 * every check of the command line, then settings_check. An engine's recorded options must set
 * every option of this version: with defaulted NULL (a job between ranks of one build) a missing
 * one is an error; else the missing ones take this version's default and are listed in defaulted
 * (SETTINGS_DEFAULTED_MAX bytes: "engine a: iir=off iir_depth=5"; "" when none), for the caller
 * to refuse or accept (a resume, with -allow-engine-change). */
cJSON *settings_to_json(const MatchSettings *settings);
bool settings_from_json(const cJSON *json, MatchSettings *settings, char *defaulted, Error *err);
