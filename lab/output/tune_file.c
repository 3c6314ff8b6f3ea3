// SPDX-License-Identifier: MIT
#include "tune_file.h"

#include "cli.h"
#include "json_read.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A score is a sum of wins - losses over at most a million pairs of two games. */
#define SCORE_MAX 2e6

void tune_record_init(TuneRecord *record) {
    memset(record, 0, sizeof *record);
    record->format = TUNE_FORMAT;
    provenance_build_from_json(NULL, &record->build, NULL); /* unknown until set */
}

void tune_record_destroy(TuneRecord *record) {
    word_list_clear(&record->arguments);
    free(record->steps);
    tune_record_init(record);
}

bool tune_record_push(TuneRecord *record, const TuneStep *step, Error *err) {
    if (record->done == record->capacity) {
        int64_t capacity = record->capacity ? 2 * record->capacity : 64;
        TuneStep *grown = realloc(record->steps, sizeof *grown * (size_t)capacity);
        if (!grown)
            return error_set(err, "out of memory for %lld iterations", (long long)capacity);
        record->steps = grown;
        record->capacity = capacity;
    }
    record->steps[record->done++] = *step;
    return true;
}

cJSON *tune_param_to_json(const SpsaParam *p) {
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "name", p->name);
    cJSON_AddStringToObject(item, "type", p->type == SPSA_INT ? "int" : "float");
    cJSON_AddNumberToObject(item, "start", p->start);
    cJSON_AddNumberToObject(item, "min", p->min);
    cJSON_AddNumberToObject(item, "max", p->max);
    cJSON_AddNumberToObject(item, "c_end", p->c_end);
    cJSON_AddNumberToObject(item, "r_end", p->r_end);
    cJSON_AddNumberToObject(item, "value", p->value);
    return item;
}

cJSON *tune_record_to_json(const TuneRecord *r) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "tslab abtest tune");
    cJSON_AddNumberToObject(root, "format", TUNE_FORMAT);
    cJSON_AddItemToObject(root, "build", provenance_build_to_json(&r->build));
    cJSON_AddItemToObject(root, "signature", provenance_signature_to_json(&r->signature));
    cJSON_AddItemToObject(root, "arguments", word_list_json(&r->arguments));
    cJSON_AddItemToObject(root, "arguments_hash", json_hex(r->arguments.hash));
    cJSON *inputs = cJSON_AddArrayToObject(root, "inputs");
    for (int i = 0; i < r->input_count; i++) {
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "option", r->inputs[i].option);
        cJSON_AddStringToObject(item, "path", r->inputs[i].path);
        cJSON_AddItemToObject(item, "hash", json_hex(r->inputs[i].hash));
        cJSON_AddItemToArray(inputs, item);
    }
    cJSON_AddNumberToObject(root, "iterations", (double)r->iterations);
    cJSON_AddNumberToObject(root, "done", (double)r->done);
    cJSON *params = cJSON_AddArrayToObject(root, "params");
    for (int i = 0; i < r->count; i++)
        cJSON_AddItemToArray(params, tune_param_to_json(&r->params[i]));
    cJSON *history = cJSON_AddArrayToObject(root, "history");
    for (int64_t k = 0; k < r->done; k++) {
        const TuneStep *s = &r->steps[k];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "k", (double)(k + 1));
        cJSON_AddItemToObject(item, "c", cJSON_CreateDoubleArray(s->c, r->count));
        cJSON_AddItemToObject(item, "a", cJSON_CreateDoubleArray(s->a, r->count));
        cJSON_AddItemToObject(item, "delta", cJSON_CreateDoubleArray(s->delta, r->count));
        cJSON_AddItemToObject(item, "theta", cJSON_CreateDoubleArray(s->theta, r->count));
        cJSON_AddNumberToObject(item, "score", s->score);
        cJSON_AddItemToArray(history, item);
    }
    cJSON_AddItemToObject(root, "accepted_changes", json_lines(r->accepted_changes));
    return root;
}

static const cJSON *member(const cJSON *object, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

static bool params_from_json(const cJSON *list, TuneRecord *r, Error *err) {
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) < 1 ||
        cJSON_GetArraySize(list) > TUNE_PARAMS_MAX)
        return error_set(err, "\"params\" is not a list of 1 to %d parameters", TUNE_PARAMS_MAX);
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        SpsaParam *p = &r->params[r->count++];
        char type[8];
        Error inner;
        if (!json_read_text(item, "name", p->name, sizeof p->name, &inner) ||
            !json_read_text(item, "type", type, sizeof type, &inner) ||
            !json_read_number(item, "min", -1e300, 1e300, &p->min, &inner) ||
            !json_read_number(item, "max", p->min, 1e300, &p->max, &inner) ||
            !json_read_number(item, "start", p->min, p->max, &p->start, &inner) ||
            !json_read_number(item, "value", p->min, p->max, &p->value, &inner) ||
            !json_read_number(item, "c_end", 0, 1e300, &p->c_end, &inner) ||
            !json_read_number(item, "r_end", 0, 1e300, &p->r_end, &inner))
            return error_set(err, "parameter %d: %s", r->count, inner.text);
        if (strcmp(type, "int") && strcmp(type, "float"))
            return error_set(err, "parameter %d: \"type\" is not int or float", r->count);
        p->type = strcmp(type, "int") ? SPSA_FLOAT : SPSA_INT;
    }
    return true;
}

static bool history_from_json(const cJSON *list, TuneRecord *r, Error *err) {
    if (!cJSON_IsArray(list))
        return error_set(err, "no \"history\" list");
    const cJSON *item;
    int64_t k = 0;
    cJSON_ArrayForEach(item, list) {
        TuneStep step;
        int64_t number;
        Error inner;
        k++;
        if (!json_read_whole(item, "k", (double)k, (double)k, &number, &inner) ||
            !json_read_numbers(item, "c", r->count, step.c, &inner) ||
            !json_read_numbers(item, "a", r->count, step.a, &inner) ||
            !json_read_numbers(item, "delta", r->count, step.delta, &inner) ||
            !json_read_numbers(item, "theta", r->count, step.theta, &inner) ||
            !json_read_number(item, "score", -SCORE_MAX, SCORE_MAX, &step.score, &inner))
            return error_set(err, "history entry %lld: %s", (long long)k, inner.text);
        for (int i = 0; i < r->count; i++) {
            const SpsaParam *p = &r->params[i];
            if (step.delta[i] != 1 && step.delta[i] != -1)
                return error_set(err, "history entry %lld: delta of %s is not +1 or -1",
                                 (long long)k, p->name);
            if (step.theta[i] < p->min || step.theta[i] > p->max)
                return error_set(err, "history entry %lld: theta of %s is not within [MIN, MAX]",
                                 (long long)k, p->name);
        }
        if (step.score != floor(step.score))
            return error_set(err, "history entry %lld: \"score\" is not a whole number",
                             (long long)k);
        if (!tune_record_push(r, &step, err))
            return false;
    }
    if (r->iterations && k > r->iterations)
        return error_set(err, "%lld iterations recorded, more than the %lld asked", (long long)k,
                         (long long)r->iterations);
    return true;
}

static bool inputs_from_json(const cJSON *list, TuneRecord *r, Error *err) {
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > TUNE_INPUTS_MAX)
        return error_set(err, "\"inputs\" is not a list of at most %d files", TUNE_INPUTS_MAX);
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        TuneInput *input = &r->inputs[r->input_count++];
        Error inner;
        if (!json_read_text(item, "option", input->option, sizeof input->option, &inner) ||
            !json_read_text(item, "path", input->path, sizeof input->path, &inner) ||
            !json_read_hex(item, "hash", &input->hash, &inner))
            return error_set(err, "input %d: %s", r->input_count, inner.text);
    }
    return true;
}

bool tune_record_from_json(const cJSON *root, TuneRecord *r, Error *err) {
    const cJSON *format = member(root, "format");
    if (!cJSON_IsNumber(format) || (format->valuedouble != 1 && format->valuedouble != TUNE_FORMAT))
        return error_set(err, "not a tuning file of format 1 or %d", TUNE_FORMAT);
    r->format = (int)format->valuedouble;
    if (!word_list_from_json(root, "arguments", &r->arguments, err) ||
        !params_from_json(member(root, "params"), r, err))
        return false;
    if (r->format >= 2) {
        const char *tool = cJSON_GetStringValue(member(root, "tool"));
        int64_t done;
        if (!tool || strcmp(tool, "tslab abtest tune"))
            return error_set(err, "\"tool\" is not \"tslab abtest tune\"");
        if (!word_list_check_hash(root, "arguments_hash", &r->arguments, err) ||
            !json_read_whole(root, "iterations", 1, 1e9, &r->iterations, err) ||
            !json_read_whole(root, "done", 0, 1e9, &done, err) ||
            !inputs_from_json(member(root, "inputs"), r, err) ||
            !provenance_build_from_json(member(root, "build"), &r->build, err) ||
            !provenance_signature_from_json(member(root, "signature"), &r->signature, err) ||
            !json_read_lines(root, "accepted_changes", r->accepted_changes,
                             sizeof r->accepted_changes, err))
            return false;
        if (!history_from_json(member(root, "history"), r, err))
            return false;
        if (done != r->done)
            return error_set(err, "\"done\" is %lld, the history holds %lld iterations",
                             (long long)done, (long long)r->done);
        return true;
    }
    return history_from_json(member(root, "history"), r, err);
}

static bool read_record(const cJSON *root, void *record, Error *err) {
    return tune_record_from_json(root, record, err);
}

bool tune_record_parse(const char *text, size_t length, const char *path, TuneRecord *record,
                       Error *err) {
    return json_read_document(text, length, path, read_record, record, err);
}

bool tune_record_load(const char *path, TuneRecord *record, Error *err) {
    return json_read_file(path, TUNE_FILE_MAX, read_record, record, err);
}

bool tune_file_unfinished(const char *path, char *hint, size_t size) {
    TuneRecord record;
    Error err;
    tune_record_init(&record);
    bool parsed = tune_record_load(path, &record, &err);
    /* Format 1 recorded no count: its iterations are in its arguments, and it is taken as
     * unfinished, so it is resumed rather than moved (the resume says when it is done). */
    bool unfinished = parsed && (!record.iterations || record.done < record.iterations);
    if (unfinished)
        snprintf(hint, size, "(%lld of %lld iterations): continue it with `%s tune -resume %s`",
                 (long long)record.done, (long long)record.iterations, cli_program(), path);
    tune_record_destroy(&record);
    return unfinished;
}
