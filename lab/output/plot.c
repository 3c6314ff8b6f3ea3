// SPDX-License-Identifier: MIT
#include "plot.h"

#include "gnuplot.h"
#include "sprt_report.h"

#include <stdio.h>
#include <string.h>

#define PLOT_MIN_POINTS 2 /* a line needs two points */

static void outcome_text(const MatchSettings *s, const MatchTotals *t, RunState state,
                         char *out, size_t size) {
    const char *brackets = sprt_model_brackets(s->sprt.model);
    char sprt[96] = "";
    if (s->has_sprt)
        snprintf(sprt, sizeof sprt, "SPRT %c%.2f, %.2f%c %s: ", brackets[0], s->sprt.elo0,
                 s->sprt.elo1, brackets[1], sprt_model_name(s->sprt.model));
    if (state == RUN_SPRT)
        snprintf(out, size, "%s%s accepted after %lld pairs", sprt,
                 sprt_decision_name(t->decision), (long long)t->decision_pair);
    else if (state == RUN_ROUNDS)
        snprintf(out, size, "%s%lld pairs played%s", sprt, (long long)t->pairs,
                 s->has_sprt ? ", no decision" : "");
    else
        snprintf(out, size, "%sinterrupted after %lld pairs", sprt, (long long)t->pairs);
}

/* The match's trajectory and script, for gnuplot_draw. */
typedef struct {
    const MatchSettings *settings;
    const MatchTotals *totals;
    RunState state;
} MatchPlot;

static bool write_data(FILE *f, const void *context) {
    const MatchTotals *t = ((const MatchPlot *)context)->totals;
    for (int i = 0; i < t->trajectory_count; i++) {
        const TrajectoryPoint *p = &t->trajectory[i];
        fprintf(f, "%lld %.6f %.6f %.6f %.6f\n", (long long)p->pairs, p->llr, p->elo, p->elo_low,
                p->elo_high);
    }
    return !ferror(f);
}

static bool write_script(FILE *f, const char *png, const char *data, const void *context) {
    const MatchPlot *plot = context;
    const MatchSettings *s = plot->settings;
    const MatchTotals *t = plot->totals;
    RunState state = plot->state;
    char title[512], outcome[160];
    outcome_text(s, t, state, outcome, sizeof outcome);
    snprintf(title, sizeof title, "%s vs %s (the first engine's side) - %s", s->engines[0].name,
             s->engines[1].name, outcome);
    fprintf(f, "set terminal pngcairo size 1000,720 noenhanced\nset output ");
    gnuplot_put_quoted(f, png);
    /* The key sits right of the panels, where it cannot hide a line. */
    fprintf(f, "\nset multiplot layout 2,1 title ");
    gnuplot_put_quoted(f, title);
    fputc('\n', f);
    fprintf(f, "set grid\nset key outside right top\nset lmargin 10\nset rmargin 24\n"
               "set xlabel 'pairs'\nset xrange [0:*]\n");
    if (s->has_sprt) {
        double lower = sprt_lower_bound(&s->sprt), upper = sprt_upper_bound(&s->sprt);
        fprintf(f, "set ylabel 'LLR'\nset yrange [%f:%f]\n", 1.15 * lower, 1.15 * upper);
        fprintf(f, "plot ");
        gnuplot_put_quoted(f, data);
        fprintf(f, " using 1:2 with lines lw 2 lc rgb '#1f4e9c' title 'LLR', "
                   "%f with lines lw 2 dt 2 lc rgb '#c0392b' title 'H0 bound %.2f', "
                   "%f with lines lw 2 dt 2 lc rgb '#27ae60' title 'H1 bound %.2f'\n",
                lower, lower, upper, upper);
        fprintf(f, "set autoscale y\n");
    }
    fprintf(f, "set ylabel 'Elo (logistic)'\nplot ");
    gnuplot_put_quoted(f, data);
    fprintf(f, " using 1:4:5 with filledcurves fs transparent solid 0.25 lc rgb '#1f4e9c' "
               "title '95%% interval', '' using 1:3 with lines lw 2 lc rgb '#1f4e9c' title 'Elo', "
               "0 with lines lw 1 dt 3 lc rgb 'black' notitle\n");
    fprintf(f, "unset multiplot\n");
    return !ferror(f);
}

bool plot_write(const OutputPlan *outputs, const char *path, const MatchSettings *s,
                const MatchTotals *t, RunState state, Error *err) {
    if (t->trajectory_count < PLOT_MIN_POINTS)
        return error_set(err, "the run is too short to plot (%d point%s; one is added every "
                              "-ratinginterval %d pairs)",
                         t->trajectory_count, t->trajectory_count == 1 ? "" : "s",
                         s->rating_interval);
    MatchPlot plot = {s, t, state};
    return gnuplot_draw(outputs, path, write_data, write_script, &plot, err);
}
