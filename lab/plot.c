// SPDX-License-Identifier: MIT
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool plot_write(const char *path, const MatchSettings *s, const MatchTotals *t, Error *err) {
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return error_set(err, "-plot: gnuplot is not installed (make deps installs gnuplot-nox)");
    if (t->trajectory_count == 0)
        return error_set(err, "-plot: no points yet");
    char data[64], script[64];
    snprintf(data, sizeof data, "/tmp/tslab_plot_%ld.dat", (long)getpid());
    snprintf(script, sizeof script, "/tmp/tslab_plot_%ld.gp", (long)getpid());
    FILE *f = fopen(data, "w");
    if (!f)
        return error_set(err, "-plot: cannot write %s", data);
    for (int i = 0; i < t->trajectory_count; i++) {
        const TrajectoryPoint *p = &t->trajectory[i];
        fprintf(f, "%lld %.6f %.6f %.6f %.6f\n", (long long)p->pairs, p->llr, p->elo, p->elo_low,
                p->elo_high);
    }
    fclose(f);
    f = fopen(script, "w");
    if (!f) {
        remove(data);
        return error_set(err, "-plot: cannot write %s", script);
    }
    fprintf(f, "set terminal pngcairo size 900,700 noenhanced\nset output '%s'\n", path);
    fprintf(f, "set multiplot layout 2,1 title '%s vs %s'\nset grid\nset key left top\n"
               "set xlabel 'pairs'\n",
            s->engines[1].name, s->engines[0].name);
    if (s->has_sprt) {
        fprintf(f, "set ylabel 'LLR'\nset yrange [%f:%f]\n", 1.15 * sprt_lower_bound(&s->sprt),
                1.15 * sprt_upper_bound(&s->sprt));
        fprintf(f, "plot '%s' using 1:2 with lines lw 2 lc rgb '#1f4e9c' title 'LLR', %f title "
                   "'H0 bound' lw 2 dt 2 lc rgb '#c0392b', %f title 'H1 bound' lw 2 dt 2 "
                   "lc rgb '#27ae60'\n",
                data, sprt_lower_bound(&s->sprt), sprt_upper_bound(&s->sprt));
        fprintf(f, "set autoscale y\n");
    }
    fprintf(f, "set ylabel 'Elo (logistic)'\n"
               "plot '%s' using 1:4:5 with filledcurves fs transparent solid 0.25 title '95%% "
               "interval', '' using 1:3 with lines lw 2 title 'Elo', 0 notitle lw 1 dt 3\n",
            data);
    fprintf(f, "unset multiplot\n");
    fclose(f);
    char command[256];
    snprintf(command, sizeof command, "gnuplot '%s' 2>/dev/null", script);
    int status = system(command);
    remove(data);
    remove(script);
    if (status != 0)
        return error_set(err, "-plot: gnuplot failed to draw %s", path);
    return true;
}
