// SPDX-License-Identifier: MIT
// The -sprt group's keys (elo0= elo1= alpha= beta= model= overshoot=) as one table with one
// default, read and written by every user: the match's command line and results file, `abtest
// sprt` and `abtest simulate`. A new key is a row here and its use in sprt.c.
#pragma once

#include "sprt.h"
#include "textbuf.h"

#include <cJSON.h>

/* The defaults of the keys not given: fishtest's error rates, its normalized model, and the
 * overshoot correction on (docs/sprt.md says why). elo0 and elo1 are always given. */
SprtParams sprt_params_default(void);

/* Reads a -sprt group's key=value tokens into params (from sprt_params_default()): every key
 * known, each value checked, elo0= and elo1= present unless preset=NAME is (the preset first,
 * the keys beside it overriding it), then sprt_params_check. Errors start with
 * "-sprt". */
bool sprt_params_parse(char *const *tokens, int count, SprtParams *params, Error *err);

/* The presets (docs/sprt.md, "Presets"): preset=NAME sets elo0, elo1, alpha, beta and the
 * model of params; unknown names are refused with the list, "gain-stc, gain-ltc, ...". */
bool sprt_preset_apply(const char *name, SprtParams *params, Error *err);
void sprt_presets_list(TextBuf *buf);

/* The group as command-line tokens: " elo0=0 elo1=10 alpha=0.05 ...", every key. */
void sprt_params_tokens(const SprtParams *params, TextBuf *buf);

/* Whether two tests are the same (every key). */
bool sprt_params_same(const SprtParams *a, const SprtParams *b);

/* As a results file records them, and back with the command line's checks. A file written
 * before a key existed lacks it: the key then takes its value of that time (overshoot: off). */
cJSON *sprt_params_to_json(const SprtParams *params);
bool sprt_params_from_json(const cJSON *json, SprtParams *params, Error *err);

/* Adds the numeric keys (elo0, elo1, alpha, beta) to json, in the table's order: the results
 * file's summary beside the LLR (sprt_report.c). */
void sprt_params_add_numbers(const SprtParams *params, cJSON *json);

/* "elo0, elo1, alpha, beta, model, overshoot": for messages. */
void sprt_keys_list(TextBuf *buf);

/* The group in a usage line: "elo0=X elo1=Y [alpha=0.05] [beta=0.05] [model=...] [...]". */
void sprt_keys_usage(TextBuf *buf);
