// SPDX-License-Identifier: MIT
// `abtest simulate -ladder E1,E2,...`: the command line and report of the ladder simulator
// (scaling.h).
#include "simulate_ladder_cmd.h"

#include "cli.h"
#include "flags.h"
#include "output.h"
#include "scaling.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ladder_usage[] =
    "usage: abtest simulate -ladder E1,E2,... [-pairs P] [-draws D] [-runs N] [-seed S]\n"
    "                       [-json FILE]\n"
    "  Virtual ladders (abtest -ladder): steps a doubling of the limit apart whose true\n"
    "  logistic Elos are E1, E2, ... (2 to 8 steps), P pairs a step (default 400) of two\n"
    "  independent games at per-game draw ratio D (default 0.5). Each step's Elo and interval\n"
    "  are estimated as abtest estimates a match's, the slope (Elo per doubling) fitted as a\n"
    "  ladder fits it; reports the true slope, the fitted slopes' mean and RMSE, the mean half\n"
    "  width of their 95% intervals, and how often the interval held the true slope, with its\n"
    "  binomial error. Seeded: the same seed, the same numbers.\n";

static bool parse_elos(const char *text, ScalingSetup *s, Error *err) {
    const char *p = text;
    s->steps = 0;
    while (*p) {
        if (s->steps == SCALING_STEPS_MAX)
            return error_set(err, "-ladder: more than %d steps", SCALING_STEPS_MAX);
        char *end;
        double value = strtod(p, &end);
        if (end == p || !isfinite(value) || fabs(value) > 1000)
            return error_set(err, "-ladder: '%s': step %d is not an Elo in [-1000, 1000]", text,
                             s->steps + 1);
        s->elo[s->steps++] = value;
        p = end;
        if (*p == ',' && p[1])
            p++;
        else if (*p)
            return error_set(err, "-ladder: '%s': Elos separated by commas", text);
    }
    if (s->steps < 2)
        return error_set(err, "-ladder: '%s': a ladder has 2 steps or more", text);
    return true;
}

int abtest_simulate_ladder_main(int argc, char **argv) {
    ScalingSetup s = {.draws = 0.5, .pairs = 400, .runs = 1000};
    int64_t seed = 1;
    const char *elos = NULL, *json_path = NULL;
    const CliFlag flags[] = {
        {"-ladder", CLI_FLAG_TEXT, &elos, 0, 0, "E1,E2,...", "true Elo of each step"},
        {"-pairs", CLI_FLAG_INT64, &s.pairs, 1, 100000000, "P", "pairs a step (400)"},
        {"-draws", CLI_FLAG_DOUBLE, &s.draws, 0, 0.999, "D", "per-game draw ratio (0.5)"},
        {"-runs", CLI_FLAG_INT64, &s.runs, 1, 100000000, "N", "virtual ladders (1000)"},
        {"-seed", CLI_FLAG_INT64, &seed, 0, 0x1p63, "S", "of the random draws (1)"},
        {"-json", CLI_FLAG_TEXT, &json_path, 0, 0, "FILE", "also write the result as JSON"},
    };
    const CliCommand command = {.name = "",
                                .subcommand = "simulate",
                                .synopsis = ladder_usage,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    bool help;
    Error err;
    if (!cli_flags_parse(&command, argc, argv, &help, &err))
        die("simulate: %s", err.text);
    if (help)
        return 0;
    s.seed = (uint64_t)seed;
    if (!elos || !parse_elos(elos, &s, &err))
        die("simulate: %s", elos ? err.text : "-ladder E1,E2,... is required");
    OutputPlan outputs; /* checked before the simulation */
    if (!output_plan_single(&outputs, "-json", json_path, &err))
        die("simulate: %s", err.text);
    ScalingResult r;
    const char *why = NULL;
    if (!scaling_simulate(&s, &r, &why))
        die("simulate: -ladder: %s", why);
    double coverage_error = r.fitted ? sqrt(r.coverage * (1 - r.coverage) / (double)r.fitted) : 0;
    printf("Simulated ladder: %d steps a doubling apart at Elo", s.steps);
    for (int k = 0; k < s.steps; k++)
        printf("%s%+g", k ? ", " : " ", s.elo[k]);
    printf("; %lld pairs a step, draw ratio %.2f, %lld runs, seed %llu\n", (long long)s.pairs,
           s.draws, (long long)s.runs, (unsigned long long)s.seed);
    printf("true slope %+.3f Elo a doubling; fitted: mean %+.3f, RMSE %.3f, 95%% interval +/- "
           "%.3f on average\n",
           r.true_slope, r.mean_slope, r.rmse, r.mean_half_width);
    printf("the 95%% interval held the true slope in %.4f +/- %.4f of %lld runs\n", r.coverage,
           coverage_error, (long long)r.fitted);
    if (json_path) {
        cJSON *json = cJSON_CreateObject();
        cJSON_AddNumberToObject(json, "true_slope", r.true_slope);
        cJSON_AddNumberToObject(json, "runs", (double)r.fitted);
        cJSON_AddNumberToObject(json, "mean_slope", r.mean_slope);
        cJSON_AddNumberToObject(json, "rmse", r.rmse);
        cJSON_AddNumberToObject(json, "mean_half_width", r.mean_half_width);
        cJSON_AddNumberToObject(json, "coverage", r.coverage);
        cJSON_AddNumberToObject(json, "coverage_error", coverage_error);
        bool ok = output_write_json(&outputs, json, json_path, &err);
        cJSON_Delete(json);
        if (!ok)
            die("simulate: %s", err.text);
    }
    return 0;
}
