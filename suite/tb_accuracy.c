// SPDX-License-Identifier: MIT
#include "tb_accuracy.h"

#include "suite.h"

#include <string.h>

void bench_tb_accuracy(const BenchRun *run, const Tablebase *tb, BenchTbAccuracy *out) {
    memset(out, 0, sizeof *out);
    if (!tb)
        return;
    out->measured = true;
    for (int i = 0; i < run->count; i++) {
        const Board *b = &run->rows[i].entry.board;
        TbValue value;
        if (board_game_end(b) != GAME_END_NONE || !tb_probe(tb, b, &value))
            continue;
        out->positions++;
        out->wins += value.outcome == TB_WIN;
        out->losses += value.outcome == TB_LOSS;
        out->draws += value.outcome == TB_DRAW;
        TbValue after = tb_probe_after(tb, b, run->rows[i].result.move);
        bool kept = tb_move_keeps(value, after);
        out->kept += kept;
        out->optimal += tb_move_is_best(value, after);
        size_t used = strlen(out->misses), id = strlen(run->rows[i].entry.id);
        if (!kept && used + id + 2 < sizeof out->misses)
            snprintf(out->misses + used, sizeof out->misses - used, "%s%s", used ? " " : "",
                     run->rows[i].entry.id);
    }
}

static double percent(int part, int whole) { return whole ? 100.0 * part / whole : 0.0; }

void bench_tb_print(const BenchTbAccuracy *a, FILE *out) {
    if (!a->measured) {
        fprintf(out, "tablebase: not found, accuracy against perfect play not measured (make "
                     "tablebase)\n");
        return;
    }
    fprintf(out,
            "tablebase: %d sliding-phase positions (%d wins, %d losses, %d draws): the move keeps "
            "the value in %d (%.1f%%), optimal in %d (%.1f%%)",
            a->positions, a->wins, a->losses, a->draws, a->kept, percent(a->kept, a->positions),
            a->optimal, percent(a->optimal, a->positions));
    fprintf(out, a->misses[0] ? "; lost it: %s\n" : "\n", a->misses);
}

cJSON *bench_tb_json(const BenchTbAccuracy *a) {
    if (!a->measured)
        return cJSON_CreateNull();
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "positions", a->positions);
    cJSON_AddNumberToObject(json, "wins", a->wins);
    cJSON_AddNumberToObject(json, "losses", a->losses);
    cJSON_AddNumberToObject(json, "draws", a->draws);
    cJSON_AddNumberToObject(json, "kept", a->kept);
    cJSON_AddNumberToObject(json, "optimal", a->optimal);
    cJSON_AddNumberToObject(json, "accuracy", a->positions ? (double)a->kept / a->positions : 0);
    cJSON *misses = cJSON_AddArrayToObject(json, "misses");
    char copy[BENCH_TB_MISSES_MAX];
    snprintf(copy, sizeof copy, "%s", a->misses);
    for (char *save = NULL, *id = strtok_r(copy, " ", &save); id; id = strtok_r(NULL, " ", &save))
        cJSON_AddItemToArray(misses, cJSON_CreateString(id));
    return json;
}
