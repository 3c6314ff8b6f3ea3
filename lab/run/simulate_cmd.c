// SPDX-License-Identifier: MIT
// `abtest simulate`: the command line of the SPRT simulator (simulate.h), its report, the
// operating-characteristic sweep and its chart.
#include "simulate.h"

#include "cli.h"
#include "describe.h"
#include "flags.h"
#include "gnuplot.h"
#include "output.h"
#include "parse.h"
#include "simulate_cmd.h"
#include "simulate_ladder_cmd.h"
#include "simulate_tournament_cmd.h"
#include "sprt_cmd.h"
#include "sprt_keys.h"
#include "sprt_report.h"

#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RUNS 1000
#define DEFAULT_DRAWS 0.5
#define DEFAULT_MAX_PAIRS 1000000

static const char simulate_usage[] =
    "usage: abtest simulate -sprt elo0=X elo1=Y [alpha= beta= model= overshoot=on|off]\n"
    "                       (-elo E | -nelo N | -penta p0,p1,p2,p3,p4) [-draws D]\n"
    "                       [-runs N] [-seed S] [-threads T] [-maxpairs M] [-batch B]\n"
    "                       [-json FILE]\n"
    "       abtest simulate -sprt ... -oc STEPS [-draws D] [-runs N] [-plot file=F.png] ...\n"
    "       abtest simulate -tournament gauntlet|roundrobin ... (abtest simulate -tournament\n"
    "       gauntlet -help)\n"
    "       abtest simulate -ladder E1,E2,... ... (abtest simulate -ladder 0,0 -help)\n"
    "  Plays N virtual SPRTs (default 1000) with pair outcomes drawn from a pentanomial\n"
    "  distribution: a true logistic Elo (-elo) or normalized Elo (-nelo) at a per-game draw\n"
    "  ratio (-draws, default 0.5; games independent), or given pair probabilities (-penta).\n"
    "  Each runs through abtest's own SPRT code, pair by pair, with the overshoot correction as\n"
    "  -sprt says (default on), until a decision or -maxpairs (default 1000000). -batch B looks\n"
    "  at the LLR only every B pairs (and feeds the correction per batch), as fishtest sees its\n"
    "  workers' batches; default 1, as abtest plays. Reports P(H1),\n"
    "  pairs to a decision (mean, median, 90th, 99th percentile) beside -plan's expectation,\n"
    "  and the bias, RMSE and 95% coverage of the plain and the SPRT-corrected Elo.\n"
    "  -oc STEPS sweeps the true strength from elo0 - w to elo1 + w (w = elo1 - elo0, in the\n"
    "  model's unit) and prints P(H1) and the mean length at each point; -plot draws it.\n"
    "  Seeded: the same seed gives the same numbers on any number of threads.\n";

typedef struct {
    SprtParams params;
    double elo, nelo, draws, penta[5];
    bool has_elo, has_nelo, has_penta;
    int64_t runs, max_pairs, batch;
    uint64_t seed;
    int threads, oc_steps;
    const char *json_path, *plot_path;
    OutputPlan outputs; /* -json and -plot, checked before any simulation */
} SimulateArgs;

static bool parse_probabilities(const char *text, double out[5], Error *err) {
    double total = 0;
    const char *p = text;
    for (int i = 0; i < 5; i++) {
        char *end;
        out[i] = strtod(p, &end);
        if (end == p || !(out[i] >= 0) || !isfinite(out[i]))
            return error_set(err, "-penta: probability %d of '%s' is not a number >= 0", i + 1,
                             text);
        total += out[i];
        p = end;
        if (i < 4 && *p++ != ',')
            return error_set(err, "-penta: expected 5 comma-separated probabilities in '%s'", text);
    }
    if (*p || total <= 0)
        return error_set(err, "-penta: expected 5 probabilities with a positive sum in '%s'", text);
    for (int i = 0; i < 5; i++)
        out[i] /= total;
    return true;
}

/* Parses the arguments; false with the reason. -help prints the usage and sets *help. */
static bool parse_args(int argc, char **argv, SimulateArgs *a, bool *help, Error *err) {
    memset(a, 0, sizeof *a);
    a->draws = DEFAULT_DRAWS;
    a->runs = DEFAULT_RUNS;
    a->max_pairs = DEFAULT_MAX_PAIRS;
    a->batch = 1;
    a->threads = cli_cores();
    a->elo = a->nelo = NAN;
    int64_t seed = 1;
    const char *penta = NULL, *plot = NULL;
    CliGroup sprt = {0};
    const CliFlag flags[] = {
        {"-sprt", CLI_FLAG_GROUP, &sprt, 0, 0, "elo0=X elo1=Y ...", "the test"},
        {"-elo", CLI_FLAG_DOUBLE, &a->elo, -1000, 1000, "E", "true logistic Elo"},
        {"-nelo", CLI_FLAG_DOUBLE, &a->nelo, -1000, 1000, "N", "true normalized Elo"},
        {"-penta", CLI_FLAG_TEXT, &penta, 0, 0, "p0,...,p4", "pair probabilities"},
        {"-draws", CLI_FLAG_DOUBLE, &a->draws, 0, 0.999, "D", "per-game draw ratio (0.5)"},
        {"-runs", CLI_FLAG_INT64, &a->runs, 1, 100000000, "N", "virtual SPRTs (1000)"},
        {"-batch", CLI_FLAG_INT64, &a->batch, 1, 1000000, "B", "pairs between looks (1)"},
        {"-maxpairs", CLI_FLAG_INT64, &a->max_pairs, 1, 0x1p40, "M", "a run's end (1000000)"},
        {"-seed", CLI_FLAG_INT64, &seed, 0, 0x1p63, "S", "of the random draws (1)"},
        {"-threads", CLI_FLAG_INT, &a->threads, 1, SIMULATE_MAX_THREADS, "T",
         "threads (all cores; the numbers do not depend on it)"},
        {"-oc", CLI_FLAG_INT, &a->oc_steps, 2, 200, "STEPS", "sweep the true strength"},
        {"-json", CLI_FLAG_TEXT, &a->json_path, 0, 0, "FILE", "also write the result as JSON"},
        {"-plot", CLI_FLAG_TEXT, &plot, 0, 0, "file=F.png", "draw the -oc sweep"},
    };
    const CliCommand command = {.name = "",
                                .subcommand = "simulate",
                                .synopsis = simulate_usage,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (!cli_flags_parse(&command, argc, argv, help, err) || *help)
        return !*help ? false : true;
    a->seed = (uint64_t)seed;
    /* Given at all, even at 0: the presence picks the source (NAN: not given). */
    a->has_elo = !isnan(a->elo);
    a->has_nelo = !isnan(a->nelo);
    if (penta) {
        if (!parse_probabilities(penta, a->penta, err))
            return false;
        a->has_penta = true;
    }
    if (plot)
        a->plot_path = !strncmp(plot, "file=", 5) ? plot + 5 : plot;
    if (!sprt.given)
        return error_set(err, "-sprt elo0= elo1= (or preset=NAME) is required (abtest simulate -help)");
    if (!sprt_params_parse(sprt.words, sprt.count, &a->params, err))
        return false;

    if (a->params.model == SPRT_MODEL_BAYESELO)
        return error_set(err, "simulate: model=bayeselo needs W/D/L, which pairs drawn from a "
                              "pentanomial do not have; use normalized or logistic");
    int sources = a->has_elo + a->has_nelo + a->has_penta;
    if (a->oc_steps ? sources != 0 : sources != 1)
        return error_set(err, a->oc_steps ? "-oc sweeps the strength itself: give no -elo, -nelo "
                                            "or -penta"
                                          : "give exactly one of -elo, -nelo and -penta");
    if (a->plot_path && !a->oc_steps)
        return error_set(err, "-plot draws the -oc sweep");
    a->outputs = (OutputPlan){0};
    output_plan_add(&a->outputs, "-json", a->json_path, NULL);
    output_plan_add(&a->outputs, "-plot", a->plot_path, NULL);
    return output_plan_check(&a->outputs, err);
}

/* The logistic Elo of a strength in the SPRT model's unit. */
static double logistic_of(const SimulateArgs *a, double strength) {
    return a->params.model == SPRT_MODEL_LOGISTIC ? strength : simulate_elo_of_nelo(strength, a->draws);
}

static bool setup_for(const SimulateArgs *a, double logistic_elo, SimulateSetup *s, Error *err) {
    *s = (SimulateSetup){a->params, {0}, 0, a->runs, a->max_pairs, a->batch, a->seed, a->threads};
    if (a->has_penta) {
        memcpy(s->probabilities, a->penta, sizeof a->penta);
    } else if (!simulate_pentanomial_from_elo(logistic_elo, a->draws, s->probabilities)) {
        return error_set(err, "Elo %.2f is out of reach at draw ratio %.3f", logistic_elo,
                         a->draws);
    }
    s->true_elo = simulate_elo_of(s->probabilities);
    return true;
}

static void print_report(FILE *out, const SimulateArgs *a, const SimulateSetup *s,
                         const SimulateResult *r) {
    const SprtParams *p = &a->params;
    const char *brackets = sprt_model_brackets(p->model);
    fprintf(out,
            "Simulated SPRT %c%.2f, %.2f%c %s, alpha %g, beta %g, overshoot %s: %" PRId64
            " runs, seed %llu",
            brackets[0], p->elo0, p->elo1, brackets[1], sprt_model_name(p->model), p->alpha,
            p->beta, p->overshoot ? "on" : "off", r->runs, (unsigned long long)a->seed);
    if (a->batch > 1)
        fprintf(out, ", LLR every %" PRId64 " pairs", a->batch);
    fprintf(out, "\n");
    fprintf(out, "Pairs drawn from [%.4f, %.4f, %.4f, %.4f, %.4f]: true Elo %.2f logistic",
            s->probabilities[0], s->probabilities[1], s->probabilities[2], s->probabilities[3],
            s->probabilities[4], s->true_elo);
    if (a->has_nelo)
        fprintf(out, " (nElo %.2f at draw ratio %.2f)", a->nelo, a->draws);
    else if (a->has_elo)
        fprintf(out, " (draw ratio %.2f)", a->draws);
    fprintf(out, "\n");
    double n = (double)r->runs, p1 = (double)r->h1 / n;
    fprintf(out,
            "P(H1): %.4f +/- %.4f (1.96 standard errors); H0 %.4f; undecided at %" PRId64
            " pairs %.4f\n",
            p1, 1.959964 * sqrt(p1 * (1 - p1) / n), (double)r->h0 / n, a->max_pairs,
            (double)r->undecided / n);
    fprintf(out,
            "Pairs to a decision: mean %.0f, median %" PRId64 ", 90%% %" PRId64 ", 99%% %" PRId64,
            r->mean_pairs, r->median_pairs, r->p90_pairs, r->p99_pairs);
    double pass, games;
    if (!a->has_penta && sprt_plan(p, a->draws, s->true_elo, &pass, &games))
        fprintf(out, " (-plan: P(H1) %.4f, E[pairs] %.0f)", pass, games / 2);
    fprintf(out, "\n");
    fprintf(out, "Elo estimates (logistic, decided runs)  bias     RMSE  95%% coverage\n");
    fprintf(out, "  plain                               %+7.2f  %7.2f  %.4f\n", r->plain_bias,
            r->plain_rmse, r->plain_coverage);
    fprintf(out, "  SPRT-corrected                      %+7.2f  %7.2f  %.4f\n", r->corrected_bias,
            r->corrected_rmse, r->corrected_coverage);
}

static cJSON *result_json(const SimulateSetup *s, const SimulateResult *r) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "true_elo", s->true_elo);
    cJSON *probabilities = cJSON_AddArrayToObject(json, "probabilities");
    for (int i = 0; i < 5; i++)
        cJSON_AddItemToArray(probabilities, cJSON_CreateNumber(s->probabilities[i]));
    cJSON_AddNumberToObject(json, "runs", (double)r->runs);
    cJSON_AddNumberToObject(json, "batch", (double)s->batch);
    cJSON_AddNumberToObject(json, "h1", (double)r->h1);
    cJSON_AddNumberToObject(json, "h0", (double)r->h0);
    cJSON_AddNumberToObject(json, "undecided", (double)r->undecided);
    cJSON_AddNumberToObject(json, "p_h1", (double)r->h1 / (double)r->runs);
    cJSON_AddNumberToObject(json, "mean_pairs", r->mean_pairs);
    cJSON_AddNumberToObject(json, "median_pairs", (double)r->median_pairs);
    cJSON_AddNumberToObject(json, "p90_pairs", (double)r->p90_pairs);
    cJSON_AddNumberToObject(json, "p99_pairs", (double)r->p99_pairs);
    cJSON_AddNumberToObject(json, "plain_bias", r->plain_bias);
    cJSON_AddNumberToObject(json, "plain_rmse", r->plain_rmse);
    cJSON_AddNumberToObject(json, "plain_coverage", r->plain_coverage);
    cJSON_AddNumberToObject(json, "corrected_bias", r->corrected_bias);
    cJSON_AddNumberToObject(json, "corrected_rmse", r->corrected_rmse);
    cJSON_AddNumberToObject(json, "corrected_coverage", r->corrected_coverage);
    return json;
}

/* The sweep's points for the chart. */
typedef struct {
    const SimulateArgs *args;
    double *strength, *p_h1, *mean_pairs;
    int count;
} OcCurve;

static bool oc_data(FILE *f, const void *context) {
    const OcCurve *c = context;
    for (int i = 0; i < c->count; i++)
        fprintf(f, "%.6f %.6f %.1f\n", c->strength[i], c->p_h1[i], c->mean_pairs[i]);
    return !ferror(f);
}

static bool oc_script(FILE *f, const char *png, const char *data, const void *context) {
    const OcCurve *c = context;
    const SprtParams *p = &c->args->params;
    fprintf(f, "set terminal pngcairo size 900,560 noenhanced\nset output ");
    gnuplot_put_quoted(f, png);
    fprintf(f,
            "\nset grid\nset key left top\nset xlabel '%s (true)'\nset ylabel 'P(H1)'\n"
            "set yrange [0:1]\nset y2label 'mean pairs to a decision'\nset y2tics\n"
            "set ytics nomirror\n",
            p->model == SPRT_MODEL_LOGISTIC ? "Elo" : "nElo");
    fprintf(f,
            "set title 'SPRT [%.2f, %.2f] %s, overshoot %s, draw ratio %.2f, %lld runs a "
            "point'\n",
            p->elo0, p->elo1, sprt_model_name(p->model), p->overshoot ? "on" : "off",
            c->args->draws, (long long)c->args->runs);
    fprintf(f, "set arrow from %f,0 to %f,1 nohead dt 2\nset arrow from %f,0 to %f,1 nohead dt 2\n",
            p->elo0, p->elo0, p->elo1, p->elo1);
    fprintf(f, "plot ");
    gnuplot_put_quoted(f, data);
    fprintf(f, " using 1:2 with linespoints lw 2 title 'P(H1)', '' using 1:3 axes x1y2 with "
               "lines dt 3 title 'mean pairs'\n");
    return !ferror(f);
}

static int run_sweep(const SimulateArgs *a) {
    double width = a->params.elo1 - a->params.elo0;
    int steps = a->oc_steps;
    OcCurve curve = {a, calloc((size_t)steps, sizeof(double)),
                     calloc((size_t)steps, sizeof(double)), calloc((size_t)steps, sizeof(double)),
                     0};
    if (!curve.strength || !curve.p_h1 || !curve.mean_pairs)
        die("simulate: out of memory");
    cJSON *points = a->json_path ? cJSON_CreateArray() : NULL;
    printf("%10s %10s %8s %10s %10s\n", sprt_model_name(a->params.model), "logistic", "P(H1)",
           "mean pairs", "-plan pairs");
    for (int i = 0; i < steps; i++) {
        double strength = a->params.elo0 - width + 3 * width * i / (steps - 1);
        SimulateSetup s;
        SimulateResult r;
        Error err;
        if (!setup_for(a, logistic_of(a, strength), &s, &err) || !simulate_run(&s, &r, &err))
            die("simulate: %s", err.text);
        double pass = 0, games = 0;
        sprt_plan(&a->params, a->draws, s.true_elo, &pass, &games);
        printf("%10.3f %10.3f %8.4f %10.0f %10.0f\n", strength, s.true_elo,
               (double)r.h1 / (double)r.runs, r.mean_pairs, games / 2);
        fflush(stdout);
        curve.strength[i] = strength;
        curve.p_h1[i] = (double)r.h1 / (double)r.runs;
        curve.mean_pairs[i] = r.mean_pairs;
        curve.count++;
        if (points) {
            cJSON *point = result_json(&s, &r);
            cJSON_AddNumberToObject(point, "strength", strength);
            cJSON_AddItemToArray(points, point);
        }
    }
    Error err;
    if (points) {
        cJSON *json = cJSON_CreateObject();
        cJSON_AddItemToObject(json, "oc", points);
        bool ok = output_write_json(&a->outputs, json, a->json_path, &err);
        cJSON_Delete(json);
        if (!ok)
            die("simulate: %s", err.text);
    }
    if (a->plot_path && !gnuplot_draw(&a->outputs, a->plot_path, oc_data, oc_script, &curve, &err))
        die("simulate: -plot: %s", err.text);
    if (a->plot_path)
        printf("plot: %s\n", a->plot_path);
    free(curve.strength);
    free(curve.p_h1);
    free(curve.mean_pairs);
    return 0;
}

int abtest_simulate_main(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "-tournament"))
            return abtest_simulate_tournament_main(argc, argv);
        else if (!strcmp(argv[i], "-ladder"))
            return abtest_simulate_ladder_main(argc, argv);
    SimulateArgs a;
    Error err;
    bool help;
    if (!parse_args(argc, argv, &a, &help, &err))
        die("simulate: %s", err.text);
    if (help)
        return 0;
    if (a.oc_steps)
        return run_sweep(&a);
    double strength = a.has_nelo ? a.nelo : a.elo;
    double logistic = a.has_nelo ? simulate_elo_of_nelo(strength, a.draws) : strength;
    SimulateSetup s;
    SimulateResult r;
    if (!setup_for(&a, logistic, &s, &err) || !simulate_run(&s, &r, &err))
        die("simulate: %s", err.text);
    /* With -json - the JSON takes stdout and the report goes to stderr, as abtest sprt does. */
    print_report(a.json_path && !strcmp(a.json_path, "-") ? stderr : stdout, &a, &s, &r);
    if (a.json_path) {
        cJSON *json = result_json(&s, &r);
        bool ok = output_write_json(&a.outputs, json, a.json_path, &err);
        cJSON_Delete(json);
        if (!ok)
            die("simulate: %s", err.text);
    }
    return 0;
}
