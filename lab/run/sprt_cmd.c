// SPDX-License-Identifier: MIT
// `abtest sprt`: the SPRT calculator. For given counts it prints what fishtest's SPRT page shows:
// LLR, bounds, decision, Elo and nElo with intervals, LOS.
#include "sprt_cmd.h"

#include "cli.h"
#include "describe.h"
#include "flags.h"
#include "output.h"
#include "parse.h"
#include "sprt_keys.h"
#include "sprt_overshoot.h"
#include "sprt_report.h"
#include "textfile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SPRT_TRACE_BYTES_MAX (64 << 20) /* a trace file larger than this is refused */

static const char sprt_usage[] =
    "usage: abtest sprt (-penta LL,LD,DD+WL,WD,WW | -penta LL,LD,WL,DD,WD,WW | -wdl W,D,L)\n"
    "                   -sprt elo0=X elo1=Y [alpha=0.05] [beta=0.05]\n"
    "                   [model=normalized|logistic|bayeselo] [-json FILE]\n"
    "  (-sprt preset=NAME [KEY=VALUE...]: a named test, docs/sprt.md \"Presets\")\n"
    "  Prints, for the given counts (first engine's side), the LLR with its bounds and decision,\n"
    "  Elo +/- 95%, nElo +/- 95% and LOS, exactly as fishtest computes them.\n"
    "  model=bayeselo (legacy, cutechess era) estimates drawelo from W/D/L: give -wdl or the\n"
    "  six-count -penta.\n"
    "usage: abtest sprt -trace FILE [-batch N] -sprt elo0=X elo1=Y [...] [-json FILE]\n"
    "  A test replayed batch by batch with fishtest's overshoot correction: FILE holds one\n"
    "  cumulative LL,LD,DD+WL,WD,WW per line ('-': stdin), one line per batch of N pairs\n"
    "  (default: the first line's total); prints each batch's LLR, the ladder sums m0 sq0 m1\n"
    "  sq1, the expected overshoots o0 o1 and the state, then the corrected decision.\n"
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
        if (!sprt_plan(params, draw_ratio, elo, &pass, &games))
            die("sprt: -plan: no plan for true Elo %.3f at draw ratio %.2f", elo, draw_ratio);
        printf("%10.3f %8.4f %12.0f %12.0f\n", elo, pass, games, games / 2);
    }
    return 0;
}

/* Parses "a,b,c" into exactly `count` (or `alternative`) counts, each a whole number: an empty
 * field ("1,,2") or a stray comma is an error, not skipped. Returns the number of counts or 0. */
static int parse_counts(const char *option, const char *text, uint64_t *out, int count,
                        int alternative, Error *err) {
    char quoted[ERROR_EXCERPT_MAX];
    int n = 0;
    const char *field = text;
    for (;;) {
        const char *comma = strchr(field, ',');
        size_t length = comma ? (size_t)(comma - field) : strlen(field);
        char number[32];
        int64_t value;
        Error inner;
        if (n == 6) {
            error_set(err, "%s: too many counts in '%s'", option, error_excerpt(text, quoted));
            return 0;
        }
        if (length == 0 || length >= sizeof number) {
            error_set(err, "%s: count %d is empty or too long in '%s'", option, n + 1,
                      error_excerpt(text, quoted));
            return 0;
        }
        memcpy(number, field, length);
        number[length] = '\0';
        if (!parse_int64(number, 0, INT64_C(1000000000000), &value, &inner)) {
            error_set(err, "%s: count %d: %s", option, n + 1, inner.text);
            return 0;
        }
        out[n++] = (uint64_t)value;
        if (!comma)
            break;
        field = comma + 1;
    }
    if (n != count && n != alternative) {
        error_set(err, "%s: expected %d counts%s, found %d in '%s'", option, count,
                  alternative != count ? " (or 6)" : "", n, error_excerpt(text, quoted));
        return 0;
    }
    return n;
}

/* -trace: the test replayed batch by batch as fishtest's update_SPRT sees it. */
static int replay_trace(const SprtCommand *cmd) {
    Error err;
    char *text = NULL;
    size_t length = 0;
    const char *path = strcmp(cmd->trace_path, "-") ? cmd->trace_path : "/dev/stdin";
    if (!textfile_read(path, SPRT_TRACE_BYTES_MAX, false, &text, &length, &err))
        die("sprt: -trace %s", err.text);
    SprtOvershoot o;
    sprt_overshoot_init(&o);
    int64_t batch = cmd->batch;
    SprtDecision decision = SPRT_CONTINUE;
    cJSON *rows = cmd->json_path ? cJSON_CreateArray() : NULL;
    FILE *out = cmd->json_path && !strcmp(cmd->json_path, "-") ? stderr : stdout;
    fprintf(out, "%5s %-28s %10s %10s %9s %10s %9s %9s %9s %s\n", "step", "cumulative pentanomial",
            "LLR", "m0", "sq0", "m1", "sq1", "o0", "o1", "state");
    int step = 0, line_number = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        line_number++;
        line[strcspn(line, "\r#")] = '\0';
        char *start = line + strspn(line, " \t[");
        char *end = start + strlen(start);
        while (end > start && strchr(" \t]", end[-1]))
            *--end = '\0';
        for (char *p = start; *p; p++)
            if (*p == ' ')
                memmove(p, p + 1, strlen(p)); /* "1, 2, 3" reads as "1,2,3" */
        if (!*start)
            continue;
        uint64_t c[6];
        if (!parse_counts("-trace", start, c, 5, 5, &err))
            die("sprt: -trace %s line %d: %s", cmd->trace_path, line_number, err.text);
        Pentanomial penta = {.ll = c[0], .ld = c[1], .dd = c[2], .wd = c[3], .ww = c[4]};
        int64_t pairs = (int64_t)(c[0] + c[1] + c[2] + c[3] + c[4]);
        if (!batch)
            batch = pairs > 0 ? pairs : 1;
        SprtSample sample = sprt_sample_pentanomial(&penta);
        double llr = sprt_llr(&sample, &cmd->params), o0, o1;
        sprt_overshoot_update(&o, pairs, batch, llr);
        sprt_overshoot_margins(&o, &o0, &o1);
        decision = sprt_decide_corrected(llr, &cmd->params, &o);
        const char *state = decision == SPRT_H1   ? "accepted"
                            : decision == SPRT_H0 ? "rejected"
                                                  : "-";
        char counts[64];
        snprintf(counts, sizeof counts, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
                                        ", %" PRIu64 "]",
                 c[0], c[1], c[2], c[3], c[4]);
        fprintf(out, "%5d %-28s %10.6f %10.6f %9.6f %10.6f %9.6f %9.6f %9.6f %s%s\n", ++step,
                counts, llr, o.m0, o.sq0, o.m1, o.sq1, o0, o1, state,
                o.active ? "" : " (correction dropped)");
        if (rows) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddNumberToObject(row, "pairs", (double)pairs);
            cJSON_AddNumberToObject(row, "llr", llr);
            cJSON_AddNumberToObject(row, "m0", o.m0);
            cJSON_AddNumberToObject(row, "sq0", o.sq0);
            cJSON_AddNumberToObject(row, "m1", o.m1);
            cJSON_AddNumberToObject(row, "sq1", o.sq1);
            cJSON_AddNumberToObject(row, "o0", o0);
            cJSON_AddNumberToObject(row, "o1", o1);
            cJSON_AddStringToObject(row, "decision", sprt_decision_name(decision));
            cJSON_AddItemToArray(rows, row);
        }
        if (decision != SPRT_CONTINUE)
            break;
    }
    free(text);
    if (!step)
        die("sprt: -trace %s: no counts", cmd->trace_path);
    fprintf(out, "Decision with overshoot correction (batches of %" PRId64 " pairs): %s after %d "
                 "batches\n",
             batch, decision == SPRT_H1 ? "H1 accepted" : decision == SPRT_H0 ? "H0 accepted"
                                                                              : "continue",
             step);
    if (rows) {
        cJSON *json = cJSON_CreateObject();
        cJSON_AddNumberToObject(json, "batch", (double)batch);
        cJSON_AddStringToObject(json, "decision", sprt_decision_name(decision));
        cJSON_AddItemToObject(json, "trace", rows);
        bool ok = output_write_json(&cmd->outputs, json, cmd->json_path, &err);
        cJSON_Delete(json);
        if (!ok)
            die("sprt: %s", err.text);
    }
    return 0;
}

bool sprt_cmd_parse(int argc, char **argv, SprtCommand *cmd, Error *err) {
    memset(cmd, 0, sizeof *cmd);
    cmd->plan_draw_ratio = -1;
    const char *penta = NULL, *wdl = NULL;
    CliGroup sprt = {0};
    const CliFlag flags[] = {
        {"-penta", CLI_FLAG_TEXT, &penta, 0, 0, "COUNTS", "LL,LD,DD+WL,WD,WW or LL,LD,WL,DD,WD,WW"},
        {"-wdl", CLI_FLAG_TEXT, &wdl, 0, 0, "W,D,L", "game counts"},
        {"-sprt", CLI_FLAG_GROUP, &sprt, 0, 0, "elo0=X elo1=Y ...", "the test"},
        {"-plan", CLI_FLAG_DOUBLE, &cmd->plan_draw_ratio, 0, 0.999999, "DRAW_RATIO",
         "design figures at this pair draw ratio"},
        {"-trace", CLI_FLAG_TEXT, &cmd->trace_path, 0, 0, "FILE",
         "cumulative pentanomials ('-': stdin)"},
        {"-batch", CLI_FLAG_INT64, &cmd->batch, 1, 0x1p40, "N", "pairs per line of the trace"},
        {"-json", CLI_FLAG_TEXT, &cmd->json_path, 0, 0, "FILE", "also write the result as JSON"},
    };
    const CliCommand command = {.name = "",
                                .subcommand = "sprt",
                                .synopsis = sprt_usage,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (!cli_flags_parse(&command, argc, argv, &cmd->help, err))
        return false;
    if (cmd->help)
        return true;
    uint64_t c[6];
    if (penta) {
        cmd->penta_fields = parse_counts("-penta", penta, c, 5, 6, err);
        if (!cmd->penta_fields)
            return false;
        if (cmd->penta_fields == 5)
            cmd->penta = (Pentanomial){.ll = c[0], .ld = c[1], .dd = c[2], .wd = c[3], .ww = c[4]};
        else
            cmd->penta = (Pentanomial){c[0], c[1], c[2], c[3], c[4], c[5]};
        cmd->has_penta = true;
    }
    if (wdl) {
        if (!parse_counts("-wdl", wdl, c, 3, 3, err))
            return false;
        cmd->wdl = (Trinomial){.wins = c[0], .draws = c[1], .losses = c[2]};
        cmd->has_wdl = true;
    }
    if (!sprt.given)
        return error_set(err, "-sprt elo0= elo1= (or preset=NAME) is required (abtest sprt -help)");
    if (!sprt_params_parse(sprt.words, sprt.count, &cmd->params, err))
        return false;
    bool plan = cmd->plan_draw_ratio >= 0;
    if (plan && (cmd->has_penta || cmd->has_wdl))
        return error_set(err, "-plan designs a test before it runs: give it without counts "
                              "(-penta or -wdl), or the counts without -plan");
    if (cmd->trace_path && (plan || cmd->has_penta || cmd->has_wdl))
        return error_set(err, "-trace replays a test from its own counts: give it without "
                              "-penta, -wdl and -plan");
    if (cmd->trace_path && cmd->params.model == SPRT_MODEL_BAYESELO)
        return error_set(err, "-trace reads pentanomials: model=bayeselo needs W/D/L");
    if (cmd->batch && !cmd->trace_path)
        return error_set(err, "-batch belongs to -trace");
    if (!plan && !cmd->trace_path && cmd->has_penta == cmd->has_wdl)
        return error_set(err, "give exactly one of -penta, -wdl and -trace (or -plan)");
    if (cmd->params.model == SPRT_MODEL_BAYESELO && cmd->has_penta && cmd->penta_fields == 5)
        return error_set(err, "model=bayeselo estimates drawelo from W/D/L: give -wdl W,D,L or "
                              "the six-count -penta LL,LD,WL,DD,WD,WW");
    if (plan && cmd->params.model == SPRT_MODEL_BAYESELO)
        return error_set(err, "-plan needs a normalized or logistic model");
    cmd->outputs = (OutputPlan){0};
    output_plan_add(&cmd->outputs, "-json", cmd->json_path, NULL);
    if (cmd->trace_path && strcmp(cmd->trace_path, "-"))
        output_plan_input(&cmd->outputs, "-trace", cmd->trace_path);
    return output_plan_check(&cmd->outputs, err);
}

int abtest_sprt_main(int argc, char **argv) {
    SprtCommand cmd;
    Error err;
    if (!sprt_cmd_parse(argc, argv, &cmd, &err))
        die("sprt: %s", err.text);
    if (cmd.help)
        return 0;
    const SprtParams *params = &cmd.params;
    if (cmd.plan_draw_ratio >= 0)
        return print_plan(params, cmd.plan_draw_ratio);
    if (cmd.trace_path)
        return replay_trace(&cmd);
    const Pentanomial *penta = &cmd.penta;
    const Trinomial *wdl = &cmd.wdl;
    SprtSample sample = cmd.has_penta ? sprt_sample_pentanomial(penta) : sprt_sample_trinomial(wdl);
    if (cmd.has_penta && cmd.penta_fields == 5) /* WL and DD were given summed: W/D/L unknown */
        sample.has_wdl = false;
    SprtReport report = sprt_report_make(&sample, cmd.has_penta ? penta : NULL, params);

    FILE *out = cmd.json_path && !strcmp(cmd.json_path, "-") ? stderr : stdout;
    if (cmd.has_penta)
        fprintf(out,
                "Ptnml(0-2): [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
                "]: %" PRIu64 " pairs\n",
                penta->ll, penta->ld, penta->wl + penta->dd, penta->wd, penta->ww,
                penta->ll + penta->ld + penta->wl + penta->dd + penta->wd + penta->ww);
    else
        fprintf(out, "Games: %" PRIu64 ", Wins: %" PRIu64 ", Losses: %" PRIu64 ", Draws: %" PRIu64
                     "\n",
                wdl->wins + wdl->draws + wdl->losses, wdl->wins, wdl->losses, wdl->draws);
    sprt_report_llr_line(&report, out);
    fprintf(out, "Decision: %s (alpha %g, beta %g)\n",
            report.decision == SPRT_H1   ? "H1 accepted"
            : report.decision == SPRT_H0 ? "H0 accepted"
                                         : "continue",
            params->alpha, params->beta);
    sprt_report_elo_lines(&report, out);
    sprt_report_corrected_line(&report, out);
    if (cmd.json_path) {
        cJSON *json = cJSON_CreateObject();
        sprt_report_add_json(&report, json);
        if (cmd.has_penta) {
            cJSON *counts = cJSON_AddArrayToObject(json, "pentanomial");
            for (int i = 0; i < sample.k; i++)
                cJSON_AddItemToArray(counts, cJSON_CreateNumber(sample.counts[i]));
        } else {
            cJSON *counts = cJSON_AddObjectToObject(json, "wdl");
            cJSON_AddNumberToObject(counts, "wins", (double)wdl->wins);
            cJSON_AddNumberToObject(counts, "draws", (double)wdl->draws);
            cJSON_AddNumberToObject(counts, "losses", (double)wdl->losses);
        }
        bool ok = output_write_json(&cmd.outputs, json, cmd.json_path, &err);
        cJSON_Delete(json);
        if (!ok)
            die("sprt: %s", err.text);
    }
    return 0;
}
