// SPDX-License-Identifier: MIT
// The tuning file of `abtest tune` (docs/tuning.md, "The tuning file"): the run's arguments and
// their hash, the hash of every input file (-params files, the book), the build that played and
// the base configuration's signature, the parameters as parsed, and one step per finished
// iteration (c_k, a_k, delta and theta per parameter, and the score), every number exact
// (cli/json_text.h). Reading checks the shape and every value's range; that the steps follow
// from the arguments (the same c_k, delta and theta when replayed) is the resume's check
// (lab/run/tune.c). Format 1 files (before hashes and builds) are read too, with nothing to
// compare their inputs with.
#pragma once

#include "provenance.h"
#include "settings.h"
#include "spsa.h"
#include "word_list.h"

#include <cJSON.h>

#define TUNE_FORMAT 2
#define TUNE_PARAMS_MAX 32
#define TUNE_INPUTS_MAX 8
#define TUNE_CHANGES_MAX 2048
#define TUNE_FILE_MAX (256u << 20) /* the most a reader takes */

/* One finished iteration. */
typedef struct {
    double c[TUNE_PARAMS_MAX], a[TUNE_PARAMS_MAX], delta[TUNE_PARAMS_MAX];
    double theta[TUNE_PARAMS_MAX]; /* after the update */
    double score;                  /* wins - losses of the engine at theta + c_k delta */
} TuneStep;

/* An input file and the FNV-1a of its bytes when the run began. */
typedef struct {
    char option[24]; /* "-params", "-openings file" */
    char path[SETTINGS_PATH_MAX];
    uint64_t hash;
} TuneInput;

typedef struct {
    int format;
    WordList arguments;
    TuneInput inputs[TUNE_INPUTS_MAX];
    int input_count;
    BuildIdentity build;
    EngineSignature signature;               /* of the -each configuration */
    char accepted_changes[TUNE_CHANGES_MAX]; /* -allow-engine-change on resume, one a line */
    SpsaParam params[TUNE_PARAMS_MAX];       /* value: theta after the last step */
    int count;
    int64_t iterations;
    TuneStep *steps; /* done of them (malloc'd) */
    int64_t done, capacity;
} TuneRecord;

/* Empty; tune_record_destroy releases what the others fill. */
void tune_record_init(TuneRecord *record);
void tune_record_destroy(TuneRecord *record);

/* Appends a step (grows the list). */
bool tune_record_push(TuneRecord *record, const TuneStep *step, Error *err);

/* One parameter as the file holds it: name, type, start, min, max, c_end, r_end, value. */
cJSON *tune_param_to_json(const SpsaParam *param);

/* The whole file. NULL when memory runs out. */
cJSON *tune_record_to_json(const TuneRecord *record);

/* Reads text (named path in messages) into record (tune_record_init'd), every field checked:
 * "PATH: what is wrong" otherwise. */
bool tune_record_parse(const char *text, size_t length, const char *path, TuneRecord *record,
                       Error *err);

/* The same from a parsed document (the report's reader: abtest report). */
bool tune_record_from_json(const cJSON *root, TuneRecord *record, Error *err);

/* The same from the file at path (a regular file of at most 256 MB). */
bool tune_record_load(const char *path, TuneRecord *record, Error *err);

/* Whether path holds a tuning file with iterations still to play (an OutputUnfinished). */
bool tune_file_unfinished(const char *path, char *hint, size_t size);
