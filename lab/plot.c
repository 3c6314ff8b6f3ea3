// SPDX-License-Identifier: MIT
#include "plot.h"

#include "paths.h"
#include "sprt_report.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT_MIN_POINTS 2 /* a line needs two points */

extern char **environ;

/* Writes text as a gnuplot single-quoted string: inside one, only a quote is special, written
 * twice; backquotes and @ macros are not expanded there. */
void plot_put_quoted(FILE *f, const char *text) {
    fputc('\'', f);
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            fputc('\'', f);
        fputc(*p == '\n' ? ' ' : *p, f);
    }
    fputc('\'', f);
}

/* What the run concluded, for the title. */
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

/* The match's trajectory and script, for plot_draw. */
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
    plot_put_quoted(f, png);
    /* The key sits right of the panels, where it cannot hide a line. */
    fprintf(f, "\nset multiplot layout 2,1 title ");
    plot_put_quoted(f, title);
    fputc('\n', f);
    fprintf(f, "set grid\nset key outside right top\nset lmargin 10\nset rmargin 24\n"
               "set xlabel 'pairs'\nset xrange [0:*]\n");
    if (s->has_sprt) {
        double lower = sprt_lower_bound(&s->sprt), upper = sprt_upper_bound(&s->sprt);
        fprintf(f, "set ylabel 'LLR'\nset yrange [%f:%f]\n", 1.15 * lower, 1.15 * upper);
        fprintf(f, "plot ");
        plot_put_quoted(f, data);
        fprintf(f, " using 1:2 with lines lw 2 lc rgb '#1f4e9c' title 'LLR', "
                   "%f with lines lw 2 dt 2 lc rgb '#c0392b' title 'H0 bound %.2f', "
                   "%f with lines lw 2 dt 2 lc rgb '#27ae60' title 'H1 bound %.2f'\n",
                lower, lower, upper, upper);
        fprintf(f, "set autoscale y\n");
    }
    fprintf(f, "set ylabel 'Elo (logistic)'\nplot ");
    plot_put_quoted(f, data);
    fprintf(f, " using 1:4:5 with filledcurves fs transparent solid 0.25 lc rgb '#1f4e9c' "
               "title '95%% interval', '' using 1:3 with lines lw 2 lc rgb '#1f4e9c' title 'Elo', "
               "0 with lines lw 1 dt 3 lc rgb 'black' notitle\n");
    fprintf(f, "unset multiplot\n");
    return !ferror(f);
}

/* A private temporary file (mkstemp: unpredictable name, created exclusively, mode 0600). */
static FILE *temporary(char *name, size_t size) {
    const char *dir = getenv("TMPDIR");
    snprintf(name, size, "%s/tslab-plot-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(name);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(name);
    }
    return f;
}

/* Runs gnuplot on the script, without a shell; its messages go to /dev/null. */
static int run_gnuplot(char *script, bool *missing) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"gnuplot", script, NULL};
    pid_t pid;
    int spawned = posix_spawnp(&pid, "gnuplot", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    *missing = spawned == ENOENT;
    if (spawned != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool plot_draw(const char *path, PlotDataWriter write_points, PlotScriptWriter write_commands,
               const void *context, Error *err) {
    char data[PATHS_MAX], script[PATHS_MAX];
    FILE *f = temporary(data, sizeof data);
    if (!f)
        return error_set(err, "cannot create a temporary file: %s", strerror(errno));
    bool ok = write_points(f, context);
    ok = fclose(f) == 0 && ok;
    FILE *g = ok ? temporary(script, sizeof script) : NULL;
    if (!g) {
        unlink(data);
        return error_set(err, "cannot write temporary files for gnuplot: %s", strerror(errno));
    }
    ok = write_commands(g, path, data, context);
    ok = fclose(g) == 0 && ok;
    bool missing = false;
    int status = ok ? run_gnuplot(script, &missing) : -1;
    unlink(data);
    unlink(script);
    if (!ok)
        return error_set(err, "cannot write temporary files for gnuplot");
    if (missing)
        return error_set(err, "gnuplot is not installed (make deps installs gnuplot-nox)");
    if (status != 0)
        return error_set(err, "gnuplot failed to draw %s", path);
    return true;
}

bool plot_write(const char *path, const MatchSettings *s, const MatchTotals *t, RunState state,
                Error *err) {
    if (t->trajectory_count < PLOT_MIN_POINTS)
        return error_set(err, "the run is too short to plot (%d point%s; one is added every "
                              "-ratinginterval %d pairs)",
                         t->trajectory_count, t->trajectory_count == 1 ? "" : "s",
                         s->rating_interval);
    MatchPlot plot = {s, t, state};
    return plot_draw(path, write_data, write_script, &plot, err);
}
