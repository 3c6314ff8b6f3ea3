// SPDX-License-Identifier: MIT
// `abtest simulate -tournament gauntlet|roundrobin`: the command line and report of the
// tournament simulator (simulate_tournament.h).
#include "simulate_tournament_cmd.h"

#include "cli.h"
#include "flags.h"
#include "output.h"
#include "simulate.h"
#include "simulate_tournament.h"
#include "sprt_keys.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char tournament_usage[] =
    "usage: abtest simulate -tournament gauntlet -nelo N0,N1,... -sprt elo0=X elo1=Y [alpha= beta=]\n"
    "                       [-family holm|bonferroni|none] [-batch B] [-maxpairs M]\n"
    "       abtest simulate -tournament roundrobin -nelo N0,N1,... [-pairs P]\n"
    "       either with [-draws D] [-runs N] [-seed S] [-threads T] [-json FILE]\n"
    "  Virtual families of engines at true normalized Elos N0, N1, ... (against the first, the\n"
    "  base; pairs of two independent games at per-game draw ratio D, default 0.5). A gauntlet\n"
    "  tests every other engine against the base with its own SPRT, decided together under\n"
    "  the family-wise control (holm, the default: sequential Holm step-down; bonferroni;\n"
    "  none: separate SPRTs), a look every B pairs (default 1, as abtest plays), and reports\n"
    "  each candidate's P(H1), P(H0) and pairs, and how often any candidate at or below elo0\n"
    "  was accepted and any at or above elo1 rejected. A round robin plays every two engines\n"
    "  P pairs (default 200), fits the joint rating and reports how often each engine's 95%\n"
    "  interval held its true Elo. Figures with their binomial errors; seeded: the same seed\n"
    "  gives the same numbers on any number of threads.\n";

#define DEFAULT_RUNS 1000
#define DEFAULT_PAIRS 200
#define DEFAULT_MAX_PAIRS 1000000

static bool parse_list(const char *text, TournamentSetup *s, Error *err) {
    const char *p = text;
    s->count = 0;
    while (*p) {
        if (s->count == SIMULATE_ENGINES_MAX)
            return error_set(err, "-nelo: more than %d engines", SIMULATE_ENGINES_MAX);
        char *end;
        double value = strtod(p, &end);
        if (end == p || !isfinite(value) || fabs(value) > 1000)
            return error_set(err, "-nelo: '%s': engine %d is not a number in [-1000, 1000]", text,
                             s->count + 1);
        s->nelo[s->count++] = value;
        p = end;
        if (*p == ',' && p[1])
            p++;
        else if (*p)
            return error_set(err, "-nelo: '%s': numbers separated by commas", text);
    }
    if (s->count < 2)
        return error_set(err, "-nelo: '%s': a tournament needs 2 engines or more", text);
    double base = s->nelo[0];
    for (int e = 0; e < s->count; e++) {
        s->nelo[e] -= base; /* against the base */
        s->elo[e] = simulate_elo_of_nelo(s->nelo[e], s->draws);
    }
    return true;
}

typedef struct {
    TournamentSetup setup;
    bool gauntlet;
    const char *json_path;
} TournamentArgs;

static bool parse_args(int argc, char **argv, TournamentArgs *a, bool *help, Error *err) {
    memset(a, 0, sizeof *a);
    TournamentSetup *s = &a->setup;
    s->draws = 0.5;
    s->runs = DEFAULT_RUNS;
    s->pairs = DEFAULT_PAIRS;
    s->max_pairs = DEFAULT_MAX_PAIRS;
    s->batch = 1;
    s->threads = cli_cores();
    s->control = FAMILY_HOLM;
    int64_t seed = 1;
    const char *kind = NULL, *nelo = NULL, *family = NULL;
    CliGroup sprt = {0};
    const CliFlag flags[] = {
        {"-tournament", CLI_FLAG_TEXT, &kind, 0, 0, "gauntlet|roundrobin", "the family"},
        {"-nelo", CLI_FLAG_TEXT, &nelo, 0, 0, "N0,N1,...", "true nElo of each engine"},
        {"-sprt", CLI_FLAG_GROUP, &sprt, 0, 0, "elo0=X elo1=Y ...", "a gauntlet's test"},
        {"-family", CLI_FLAG_TEXT, &family, 0, 0, "holm|bonferroni|none",
         "a gauntlet's family-wise control (holm)"},
        {"-draws", CLI_FLAG_DOUBLE, &s->draws, 0, 0.999, "D", "per-game draw ratio (0.5)"},
        {"-pairs", CLI_FLAG_INT64, &s->pairs, 1, 100000000, "P", "a round robin's pairs a pairing"},
        {"-batch", CLI_FLAG_INT64, &s->batch, 1, 1000000, "B", "pairs between looks (1)"},
        {"-maxpairs", CLI_FLAG_INT64, &s->max_pairs, 1, 0x1p40, "M", "a candidate's end"},
        {"-runs", CLI_FLAG_INT64, &s->runs, 1, 100000000, "N", "virtual tournaments (1000)"},
        {"-seed", CLI_FLAG_INT64, &seed, 0, 0x1p63, "S", "of the random draws (1)"},
        {"-threads", CLI_FLAG_INT, &s->threads, 1, SIMULATE_MAX_THREADS, "T",
         "threads (all cores; the numbers do not depend on it)"},
        {"-json", CLI_FLAG_TEXT, &a->json_path, 0, 0, "FILE", "also write the result as JSON"},
    };
    const CliCommand command = {.name = "",
                                .subcommand = "simulate",
                                .synopsis = tournament_usage,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (!cli_flags_parse(&command, argc, argv, help, err) || *help)
        return *help;
    s->seed = (uint64_t)seed;
    if (!kind || (strcmp(kind, "gauntlet") && strcmp(kind, "roundrobin")))
        return error_set(err, "-tournament: '%s' is not gauntlet or roundrobin", kind ? kind : "");
    a->gauntlet = !strcmp(kind, "gauntlet");
    if (!nelo)
        return error_set(err, "-nelo N0,N1,... is required with -tournament");
    if (!parse_list(nelo, s, err))
        return false;
    if (family && !family_control_from_name(family, &s->control))
        return error_set(err, "-family: '%s' is not holm, bonferroni or none", family);
    if (!a->gauntlet && (sprt.given || family))
        return error_set(err, "a round robin is rated, not tested: -sprt and -family are a "
                              "gauntlet's");
    if (a->gauntlet && !sprt.given)
        return error_set(err, "a gauntlet needs -sprt elo0= elo1=");
    if (a->gauntlet && !sprt_params_parse(sprt.words, sprt.count, &s->params, err))
        return false;
    if (a->gauntlet && s->params.model == SPRT_MODEL_BAYESELO)
        return error_set(err, "model=bayeselo needs W/D/L, which simulated pairs do not have");
    if (a->gauntlet && s->params.overshoot)
        s->params.overshoot = false; /* the family's bounds are Wald's: said in the report */
    return true;
}

/* p and its binomial standard error over runs. */
/* A value as "%.2f" shows it, without a "-0.00". */
static double shown(double value) { return fabs(value) < 0.005 ? 0.0 : value; }

static void rate(double count, int64_t runs, double *p, double *error) {
    *p = count / (double)runs;
    *error = sqrt(*p * (1 - *p) / (double)runs);
}

static cJSON *gauntlet_report(FILE *out, const TournamentSetup *s, const TournamentResult *r) {
    const SprtParams *p = &s->params;
    fprintf(out,
            "Simulated gauntlet: %d candidates against the base, each SPRT [%g, %g] %s, alpha %g, "
            "beta %g, family-wise control %s (Wald's bounds, no overshoot correction), a look "
            "every %lld pairs, draw ratio %.2f, %lld runs, seed %llu\n",
            s->count - 1, p->elo0, p->elo1, sprt_model_name(p->model), p->alpha, p->beta,
            family_control_name(s->control), (long long)s->batch, s->draws, (long long)r->runs,
            (unsigned long long)s->seed);
    fprintf(out, "%-9s %9s %8s %-16s %-16s %6s %11s\n", "candidate", "true nElo", "true Elo",
            "P(H1)", "P(H0)", "open", "mean pairs");
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "tournament", "gauntlet");
    cJSON_AddStringToObject(json, "family", family_control_name(s->control));
    cJSON_AddItemToObject(json, "sprt", sprt_params_to_json(p));
    cJSON_AddNumberToObject(json, "runs", (double)r->runs);
    cJSON_AddNumberToObject(json, "batch", (double)s->batch);
    cJSON_AddNumberToObject(json, "draws", s->draws);
    cJSON *candidates = cJSON_AddArrayToObject(json, "candidates");
    for (int e = 1; e < s->count; e++) {
        double h1, h1_error, h0, h0_error;
        rate((double)r->h1[e], r->runs, &h1, &h1_error);
        rate((double)r->h0[e], r->runs, &h0, &h0_error);
        char h1_text[32], h0_text[32];
        snprintf(h1_text, sizeof h1_text, "%.4f +/- %.4f", h1, h1_error);
        snprintf(h0_text, sizeof h0_text, "%.4f +/- %.4f", h0, h0_error);
        fprintf(out, "%-9d %9.2f %8.2f %-16s %-16s %6lld %11.0f\n", e, shown(s->nelo[e]),
                shown(s->elo[e]),
                h1_text, h0_text, (long long)r->open[e], r->mean_pairs[e]);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddNumberToObject(c, "nelo", s->nelo[e]);
        cJSON_AddNumberToObject(c, "elo", s->elo[e]);
        cJSON_AddNumberToObject(c, "p_h1", h1);
        cJSON_AddNumberToObject(c, "p_h0", h0);
        cJSON_AddNumberToObject(c, "open", (double)r->open[e]);
        cJSON_AddNumberToObject(c, "mean_pairs", r->mean_pairs[e]);
        cJSON_AddItemToArray(candidates, c);
    }
    double null_rate, null_error, good_rate, good_error;
    rate((double)r->null_accepted, r->runs, &null_rate, &null_error);
    rate((double)r->good_rejected, r->runs, &good_rate, &good_error);
    fprintf(out, "family: a candidate at or below elo0 accepted in %.4f +/- %.4f of runs (alpha "
                 "%g); one at or above elo1 rejected in %.4f +/- %.4f (beta %g)\n",
            null_rate, null_error, p->alpha, good_rate, good_error, p->beta);
    fprintf(out, "pairs a run (every candidate): %.0f\n", r->mean_total_pairs);
    cJSON_AddNumberToObject(json, "null_accepted", null_rate);
    cJSON_AddNumberToObject(json, "good_rejected", good_rate);
    cJSON_AddNumberToObject(json, "mean_total_pairs", r->mean_total_pairs);
    return json;
}

static cJSON *round_robin_report(FILE *out, const TournamentSetup *s, const TournamentResult *r) {
    fprintf(out,
            "Simulated round robin: %d engines, %lld pairs a pairing, draw ratio %.2f, %lld runs, "
            "seed %llu; the joint rating's 95%% interval against the true Elo (engine 1 at 0)\n",
            s->count, (long long)s->pairs, s->draws, (long long)r->runs,
            (unsigned long long)s->seed);
    fprintf(out, "%-6s %9s %8s %s\n", "engine", "true nElo", "true Elo", "covered");
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "tournament", "roundrobin");
    cJSON_AddNumberToObject(json, "runs", (double)r->runs);
    cJSON_AddNumberToObject(json, "pairs", (double)s->pairs);
    cJSON_AddNumberToObject(json, "draws", s->draws);
    cJSON *engines = cJSON_AddArrayToObject(json, "engines");
    for (int e = 1; e < s->count; e++) {
        double covered, error;
        rate((double)r->covered[e], r->runs, &covered, &error);
        fprintf(out, "%-6d %9.2f %8.2f %.4f +/- %.4f\n", e + 1, shown(s->nelo[e]), shown(s->elo[e]),
                covered, error);
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "nelo", s->nelo[e]);
        cJSON_AddNumberToObject(item, "elo", s->elo[e]);
        cJSON_AddNumberToObject(item, "coverage", covered);
        cJSON_AddItemToArray(engines, item);
    }
    return json;
}

int abtest_simulate_tournament_main(int argc, char **argv) {
    TournamentArgs a;
    Error err;
    bool help;
    if (!parse_args(argc, argv, &a, &help, &err))
        die("simulate: %s", err.text);
    if (help)
        return 0;
    OutputPlan outputs; /* checked before the simulation */
    if (!output_plan_single(&outputs, "-json", a.json_path, &err))
        die("simulate: %s", err.text);
    TournamentResult r;
    bool ok = a.gauntlet ? simulate_gauntlet(&a.setup, &r, &err)
                         : simulate_round_robin(&a.setup, &r, &err);
    if (!ok)
        die("simulate: %s", err.text);
    FILE *out = a.json_path && !strcmp(a.json_path, "-") ? stderr : stdout;
    cJSON *json = a.gauntlet ? gauntlet_report(out, &a.setup, &r)
                             : round_robin_report(out, &a.setup, &r);
    ok = !a.json_path || output_write_json(&outputs, json, a.json_path, &err);
    cJSON_Delete(json);
    if (!ok)
        die("simulate: %s", err.text);
    return 0;
}
