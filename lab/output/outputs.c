// SPDX-License-Identifier: MIT
#include "outputs.h"

#include "cli.h"
#include "output.h"
#include "paths.h"
#include "tb_place_file.h"
#include "textfile.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The state recorded in an existing results file: NULL when it is not one abtest can read, so
 * it holds nothing that -resume could continue. */
static char *recorded_state(const char *path, long long *pairs) {
    char *text;
    size_t length;
    Error ignored;
    if (!textfile_read(path, TEXTFILE_MAX_BYTES, true, &text, &length, &ignored))
        return NULL;
    cJSON *json = cJSON_ParseWithLength(text, length);
    free(text);
    const char *state = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "state"));
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(json, "pairs");
    char *copy = state ? strdup(state) : NULL;
    *pairs = cJSON_IsNumber(count) ? (long long)count->valuedouble : 0;
    cJSON_Delete(json);
    return copy;
}

bool outputs_results_unfinished(const char *path, char *hint, size_t size) {
    long long pairs = 0;
    char *state = recorded_state(path, &pairs);
    bool unfinished = state && (!strcmp(state, "running") || !strcmp(state, "interrupted"));
    free(state);
    if (unfinished)
        snprintf(hint, size, "(%lld pairs): continue it with `%s -resume %s`", pairs,
                 cli_program(), path);
    return unfinished;
}

/* The run's outputs and inputs. On resume the results file resumed is the one written (unless
 * -out names another), so it is an input only when it is not the output. -blunders reads the
 * sliding file (-tb's, or the default) and the placement layers of its directory. */
static void plan_of(const MatchSettings *s, RunOutputs *o) {
    OutputPlan *plan = &o->plan;
    *plan = (OutputPlan){0};
    o->sliding[0] = '\0';
    output_plan_add(plan, "-out", s->out_path, outputs_results_unfinished);
    output_plan_add(plan, "-pgnout", s->pgn_path, NULL);
    output_plan_add(plan, "-plot", s->plot_path, NULL);
    output_plan_add(plan, "-html", s->html_path, NULL);
    output_plan_input(plan, "-openings file", s->book_path);
    output_plan_input(plan, "-tb", s->tb_path);
    if (s->blunders_dir[0] && !s->tb_path[0]) {
        Error unused; /* none there: -blunders says so when it opens it */
        if (paths_tablebase(NULL, o->sliding, sizeof o->sliding, &unused))
            output_plan_input(plan, "-blunders (its sliding file)", o->sliding);
    }
    output_plan_input_dir(plan, "-blunders", s->blunders_dir, "the placement layers",
                          tb_place_is_layer_name);
    /* The engine programs: no output may replace the build under test. */
    for (int e = 0; e < s->engine_count && e < TOURNAMENT_RUN_ENGINES_MAX; e++) {
        const ProgramSpec *x = &s->engines[e].program;
        ProgramIdentity id;
        Error unused; /* not found: its start says so */
        o->programs[e][0] = '\0';
        if (engine_is_program(&s->engines[e]) &&
            program_identity_stat(x->cmd, x->args, x->dir, &id, &unused)) {
            snprintf(o->programs[e], sizeof o->programs[e], "%s", id.path);
            output_plan_input(plan, "-engine cmd", o->programs[e]);
        }
    }
    if (!s->out_path[0] || !paths_same_file(s->out_path, s->resume_path))
        output_plan_input(plan, "-resume", s->resume_path);
}

bool outputs_check_writable(const MatchSettings *s, RunOutputs *outputs, Error *err) {
    plan_of(s, outputs);
    return output_plan_check(&outputs->plan, err);
}

bool outputs_prepare_fresh(const RunOutputs *outputs, FILE *out, Error *err) {
    return output_plan_move_aside(&outputs->plan, out, err);
}
