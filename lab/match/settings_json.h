// SPDX-License-Identifier: MIT
// Settings as results files record them, read back with every check of the command line.
#pragma once

#include "settings.h"

/* Settings as JSON (what results files record) and back (settings_json.c). Reading applies
 * every check of the command line, then settings_check. */
cJSON *settings_to_json(const MatchSettings *settings);
bool settings_from_json(const cJSON *json, MatchSettings *settings, Error *err);
