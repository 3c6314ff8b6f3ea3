// SPDX-License-Identifier: MIT
#include "describe.h"

#include <string.h>

cJSON *describe_config_json(const SearchConfig *config) {
    cJSON *json = cJSON_CreateObject();
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        const char *field = (const char *)config + spec->offset;
        char text[32];
        switch (spec->type) {
        case OPTION_BOOL:
        case OPTION_CHOICE:
            cJSON_AddStringToObject(json, spec->name, config_value_text(config, spec, text));
            break;
        case OPTION_INT:
            cJSON_AddNumberToObject(json, spec->name, *(const int *)field);
            break;
        case OPTION_INT64:
            cJSON_AddNumberToObject(json, spec->name, (double)*(const int64_t *)field);
            break;
        }
    }
    return json;
}

cJSON *describe_stats_json(const SearchStats *stats) {
    cJSON *json = cJSON_CreateObject();
    for (size_t i = 0; i < STATS_FIELD_COUNT; i++)
        cJSON_AddNumberToObject(json, STATS_FIELDS[i].name,
                                (double)stats_get(stats, &STATS_FIELDS[i]));
    return json;
}

char *describe_win_text(const SearchResult *result, char *out) {
    out[0] = '\0';
    if (result->win != RESULT_NONE)
        sprintf(out, "%s win in %d", result->win == RESULT_TIGERS_WIN ? "tigers" : "sheep",
                result->win_in);
    return out;
}

char *describe_moves_text(const Move *moves, int count, char *out, size_t size) {
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < count && used + MOVE_TEXT_MAX + 1 < size; i++) {
        char text[MOVE_TEXT_MAX];
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "",
                                 move_to_text(moves[i], text));
    }
    return out;
}

cJSON *describe_search_json(const SearchResult *result) {
    cJSON *json = cJSON_CreateObject();
    char text[MOVE_TEXT_MAX];
    if (result->move == MOVE_NONE)
        cJSON_AddNullToObject(json, "move");
    else
        cJSON_AddStringToObject(json, "move", move_to_text(result->move, text));
    cJSON_AddNumberToObject(json, "score", result->score);
    cJSON_AddNumberToObject(json, "depth", result->depth);
    cJSON_AddNumberToObject(json, "nodes", (double)result->stats.nodes);
    if (result->win == RESULT_NONE) {
        cJSON_AddNullToObject(json, "win");
        cJSON_AddNullToObject(json, "win_in");
    } else {
        cJSON_AddStringToObject(json, "win", result->win == RESULT_TIGERS_WIN ? "tigers" : "sheep");
        cJSON_AddNumberToObject(json, "win_in", result->win_in);
    }
    cJSON *pv = cJSON_AddArrayToObject(json, "pv");
    for (int i = 0; i < result->pv_length; i++)
        cJSON_AddItemToArray(pv, cJSON_CreateString(move_to_text(result->pv[i], text)));
    cJSON_AddBoolToObject(json, "stopped", result->stopped);
    cJSON_AddNumberToObject(json, "seconds", result->seconds);
    cJSON_AddItemToObject(json, "stats", describe_stats_json(&result->stats));
    return json;
}

void describe_print_options(FILE *out) {
    fprintf(out, "search options (key=value; preset=plain turns every feature off; kinds: "
                 "docs/options.md):\n");
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        char allowed[96];
        fprintf(out, "  %-14s %-22s default %-8s %-10s %s\n", spec->name,
                config_allowed_text(spec, allowed, sizeof allowed), spec->default_text,
                config_kind_name(spec->kind), spec->help);
    }
    fprintf(out, "  preset         ");
    for (size_t i = 0; i < CONFIG_PRESET_COUNT; i++)
        fprintf(out, "%s%s", i ? "|" : "", CONFIG_PRESETS[i].name);
    fprintf(out, "\n");
}
