// SPDX-License-Identifier: MIT
// `abtest sprt`: the SPRT calculator. For given counts it prints what fishtest's SPRT page shows:
// LLR, bounds, decision, Elo and nElo with intervals, LOS.
#include "sprt_cmd.h"

#include "cli.h"
#include "parse.h"
#include "report.h"
#include "sprt_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char sprt_usage[] =
    "usage: abtest sprt (-penta LL,LD,DD+WL,WD,WW | -penta LL,LD,WL,DD,WD,WW | -wdl W,D,L)\n"
    "                   -sprt elo0=X elo1=Y [alpha=0.05] [beta=0.05]\n"
    "                   [model=normalized|logistic|bayeselo] [-json FILE]\n"
    "  Prints, for the given counts (first engine's side), the LLR with its bounds and decision,\n"
    "  Elo +/- 95%, nElo +/- 95% and LOS, exactly as fishtest computes them.\n"
    "  model=bayeselo (legacy, cutechess era) estimates drawelo from W/D/L: give -wdl or the\n"
    "  six-count -penta.\n"
    "usage: abtest sprt -sprt elo0=X elo1=Y [...] -plan DRAW_RATIO\n"
    "  Design figures instead (fishtest's SPRT calculator formulas): for true strengths around\n"
    "  the bounds, the chance of accepting H1 and the expected games and pairs.\n";

/* -plan: P(H1) and expected length for true Elo values around the bounds. */
static int print_plan(const SprtParams *params, double draw_ratio) {
    double e0, e1;
    if (!sprt_plan_bounds(params, draw_ratio, &e0, &e1))
        die("sprt: -plan needs a draw ratio in [0, 1) and a normalized or logistic model");
    const char *brackets = sprt_model_brackets(params->model);
    printf("Plan: %c%.2f, %.2f%c %s at draw ratio %.2f = {%.3f, %.3f} logistic, alpha %g, "
           "beta %g\n",
           brackets[0], params->elo0, params->elo1, brackets[1], sprt_model_name(params->model),
           draw_ratio, e0, e1, params->alpha, params->beta);
    printf("%10s %8s %12s %12s\n", "true Elo", "P(H1)", "E[games]", "E[pairs]");
    double width = e1 - e0;
    const double steps[] = {-1, 0, 0.5, 1, 2};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        double elo = e0 + steps[i] * width, pass, games;
        sprt_plan(params, draw_ratio, elo, &pass, &games);
        printf("%10.3f %8.4f %12.0f %12.0f\n", elo, pass, games, games / 2);
    }
    return 0;
}

/* Parses "a,b,c" into exactly `count` (or `alternative`) non-negative integers. */
static int parse_counts(const char *option, const char *text, uint64_t *out, int count,
                        int alternative) {
    char copy[512];
    if (strlen(text) >= sizeof copy)
        die("sprt: %s: too long", option);
    strcpy(copy, text);
    int n = 0;
    Error err;
    for (char *field = strtok(copy, ","); field; field = strtok(NULL, ",")) {
        int64_t value;
        if (n == 6)
            die("sprt: %s: too many counts in '%s'", option, text);
        if (!parse_int64(field, 0, INT64_C(1000000000000), &value, &err))
            die("sprt: %s: count %d: %s", option, n + 1, err.text);
        out[n++] = (uint64_t)value;
    }
    if (n != count && n != alternative)
        die("sprt: %s: expected %d counts%s, found %d in '%s'", option, count,
            alternative != count ? " (or 6)" : "", n, text);
    return n;
}

/* Reads elo0= elo1= alpha= beta= model= tokens into params. */
static void parse_sprt_tokens(int argc, char **argv, int *index, SprtParams *params) {
    bool has_elo0 = false, has_elo1 = false;
    Error err;
    for (; *index + 1 < argc && argv[*index + 1][0] != '-'; (*index)++) {
        const char *token = argv[*index + 1];
        const char *value = strchr(token, '=');
        if (!value)
            die("sprt: -sprt: '%s' is not key=value", token);
        value++;
        size_t key_length = (size_t)(value - 1 - token);
        double *target = NULL;
        if (!strncmp(token, "elo0", key_length) && key_length == 4)
            target = &params->elo0, has_elo0 = true;
        else if (!strncmp(token, "elo1", key_length) && key_length == 4)
            target = &params->elo1, has_elo1 = true;
        else if (!strncmp(token, "alpha", key_length) && key_length == 5)
            target = &params->alpha;
        else if (!strncmp(token, "beta", key_length) && key_length == 4)
            target = &params->beta;
        else if (!strncmp(token, "model", key_length) && key_length == 5) {
            if (!sprt_model_from_name(value, &params->model))
                die("sprt: -sprt model: '%s' is not allowed (allowed: normalized|logistic|bayeselo)",
                    value);
            continue;
        } else {
            die("sprt: -sprt: unknown key in '%s' (allowed: elo0, elo1, alpha, beta, model)", token);
        }
        if (!parse_double(value, -1e9, 1e9, target, &err))
            die("sprt: -sprt %.*s: %s", (int)key_length, token, err.text);
    }
    if (!has_elo0 || !has_elo1)
        die("sprt: -sprt needs elo0= and elo1=");
}

int abtest_sprt_main(int argc, char **argv) {
    SprtParams params = {.alpha = 0.05, .beta = 0.05, .model = SPRT_MODEL_NORMALIZED};
    bool has_penta = false, has_wdl = false, has_sprt = false;
    Pentanomial penta = {0};
    Trinomial wdl = {0};
    const char *json_path = NULL;
    int penta_fields = 0;
    double plan_draw_ratio = -1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-help") || !strcmp(argv[i], "--help")) {
            fputs(sprt_usage, stdout);
            return 0;
        }
        bool last = i + 1 >= argc;
        if (!strcmp(argv[i], "-penta")) {
            if (last)
                die("sprt: -penta needs counts");
            uint64_t c[6];
            penta_fields = parse_counts("-penta", argv[++i], c, 5, 6);
            if (penta_fields == 5)
                penta = (Pentanomial){.ll = c[0], .ld = c[1], .dd = c[2], .wd = c[3], .ww = c[4]};
            else
                penta = (Pentanomial){c[0], c[1], c[2], c[3], c[4], c[5]};
            has_penta = true;
        } else if (!strcmp(argv[i], "-wdl")) {
            if (last)
                die("sprt: -wdl needs counts");
            uint64_t c[6];
            parse_counts("-wdl", argv[++i], c, 3, 3);
            wdl = (Trinomial){.wins = c[0], .draws = c[1], .losses = c[2]};
            has_wdl = true;
        } else if (!strcmp(argv[i], "-sprt")) {
            parse_sprt_tokens(argc, argv, &i, &params);
            has_sprt = true;
        } else if (!strcmp(argv[i], "-plan")) {
            Error err;
            if (last || !parse_double(argv[++i], 0, 0.999999, &plan_draw_ratio, &err))
                die("sprt: -plan needs a draw ratio in [0, 1)%s%s", last ? "" : ": ",
                    last ? "" : err.text);
        } else if (!strcmp(argv[i], "-json")) {
            if (last)
                die("sprt: -json needs a file name ('-' for stdout)");
            json_path = argv[++i];
        } else {
            die("sprt: unknown argument '%s' (try abtest sprt -help)", argv[i]);
        }
    }
    if (!has_sprt)
        die("sprt: -sprt elo0= elo1= is required\n%s", sprt_usage);
    Error err;
    if (!sprt_params_check(&params, &err))
        die("sprt: -sprt: %s", err.text);
    if (plan_draw_ratio >= 0 && !has_penta && !has_wdl)
        return print_plan(&params, plan_draw_ratio);
    if (has_penta == has_wdl)
        die("sprt: give exactly one of -penta and -wdl (or -plan)\n%s", sprt_usage);
    SprtSample sample = has_penta ? sprt_sample_pentanomial(&penta) : sprt_sample_trinomial(&wdl);
    if (has_penta && penta_fields == 5) /* WL and DD were given summed: W/D/L are unknown */
        sample.has_wdl = false;
    if (params.model == SPRT_MODEL_BAYESELO && !sample.has_wdl)
        die("sprt: model=bayeselo estimates drawelo from W/D/L: give -wdl W,D,L or the six-count "
            "-penta LL,LD,WL,DD,WD,WW");
    SprtReport report = sprt_report_make(&sample, has_penta ? &penta : NULL, &params);

    FILE *out = json_path && !strcmp(json_path, "-") ? stderr : stdout;
    if (has_penta)
        fprintf(out,
                "Ptnml(0-2): [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
                "]: %" PRIu64 " pairs\n",
                penta.ll, penta.ld, penta.wl + penta.dd, penta.wd, penta.ww,
                penta.ll + penta.ld + penta.wl + penta.dd + penta.wd + penta.ww);
    else
        fprintf(out, "Games: %" PRIu64 ", Wins: %" PRIu64 ", Losses: %" PRIu64 ", Draws: %" PRIu64
                     "\n",
                wdl.wins + wdl.draws + wdl.losses, wdl.wins, wdl.losses, wdl.draws);
    sprt_report_llr_line(&report, out);
    fprintf(out, "Decision: %s (alpha %g, beta %g)\n",
            report.decision == SPRT_H1   ? "H1 accepted"
            : report.decision == SPRT_H0 ? "H0 accepted"
                                         : "continue",
            params.alpha, params.beta);
    sprt_report_elo_lines(&report, out);
    if (json_path) {
        cJSON *json = cJSON_CreateObject();
        sprt_report_add_json(&report, json);
        if (has_penta) {
            cJSON *counts = cJSON_AddArrayToObject(json, "pentanomial");
            for (int i = 0; i < sample.k; i++)
                cJSON_AddItemToArray(counts, cJSON_CreateNumber(sample.counts[i]));
        } else {
            cJSON *counts = cJSON_AddObjectToObject(json, "wdl");
            cJSON_AddNumberToObject(counts, "wins", (double)wdl.wins);
            cJSON_AddNumberToObject(counts, "draws", (double)wdl.draws);
            cJSON_AddNumberToObject(counts, "losses", (double)wdl.losses);
        }
        if (!report_write_json(json, json_path, &err))
            die("sprt: %s", err.text);
        cJSON_Delete(json);
    }
    return 0;
}
