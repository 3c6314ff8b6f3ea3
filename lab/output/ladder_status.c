// SPDX-License-Identifier: MIT
#include "ladder_status.h"

#include "cli.h"
#include "ladder.h"

#include <inttypes.h>
#include <math.h>

/* A figure as one decimal shows it, without "-0.0" for a rounding residue of zero. */
static double shown(double x) { return fabs(x) < 0.05 ? 0.0 : x; }

static const char *decision_text(SprtDecision decision, bool has_sprt) {
    if (decision == SPRT_H1)
        return "H1 accepted";
    if (decision == SPRT_H0)
        return "H0 accepted";
    return has_sprt ? "undecided" : "no test";
}

/* One line a step of a candidate: its limit, pairs, Elo with its interval, its test. */
static void step_lines(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                       int candidate, const LadderSummary *summary, const char *indent) {
    for (int k = 0; k < summary->count; k++) {
        int p = k * run->ladder.candidates + candidate;
        const MatchSettings *step = &tour->settings[p];
        fprintf(out, "%s  step %d %-16s %7" PRId64 " pairs", indent, k + 1, run->ladder.limit[k],
                summary->pairs[k]);
        if (!summary->pairs[k]) {
            fprintf(out, "  not played\n");
            continue;
        }
        fprintf(out, "  Elo %+6.1f [%+.1f, %+.1f]", shown(summary->elo[k]),
                shown(summary->elo_low[k]), shown(summary->elo_high[k]));
        if (step->has_sprt) {
            SprtSample sample = totals_sample(&tour->totals[p]);
            fprintf(out, "  [%g, %g] %s: LLR %.2f", step->sprt.elo0, step->sprt.elo1,
                    sprt_model_name(step->sprt.model), sprt_llr(&sample, &step->sprt));
        }
        fprintf(out, "  %s\n", decision_text(summary->decision[k], step->has_sprt));
    }
}

static void slope_line(FILE *out, const LadderSummary *summary, const char *indent) {
    if (summary->has_slope)
        fprintf(out,
                "%sScaling: %+.1f Elo per doubling of the limit [%+.1f, %+.1f] (weighted fit of "
                "the steps' Elo)\n",
                indent, shown(summary->slope), shown(summary->slope_low),
                shown(summary->slope_high));
    else
        fprintf(out, "%sScaling: no slope yet (two steps with pairs needed)\n", indent);
}

/* The engine given as the run's e-th (NAME of NAME.1). */
static void given_name(const MatchSettings *run, int e, char *out, size_t size) {
    ladder_base_name(run->engines[e].name, out, size);
}

void ladder_status_block(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                         const TournamentTotals *tour) {
    const LadderSpec *ladder = &run->ladder;
    char first[MATCH_NAME_MAX], second[MATCH_NAME_MAX];
    given_name(run, 0, first, sizeof first);
    given_name(run, 1, second, sizeof second);
    fprintf(out, "--------------------------------------------------\n");
    if (!ladder->gauntlet)
        fprintf(out,
                "Ladder of %s vs %s (%d steps, from the first engine's side): %" PRId64
                " pairs\n",
                first, second, ladder->count, totals->pairs);
    else
        fprintf(out,
                "Ladder of a gauntlet against %s (%d steps, each candidate from its own side): "
                "%" PRId64 " pairs\n",
                first, ladder->count, totals->pairs);
    for (int c = 0; c < ladder->candidates; c++) {
        LadderSummary summary;
        ladder_summary(ladder, tour->totals, c, &summary);
        if (ladder->gauntlet) {
            given_name(run, 1 + c, second, sizeof second);
            fprintf(out, "%s vs %s:\n", second, first);
        }
        step_lines(out, run, tour, c, &summary, ladder->gauntlet ? "  " : "");
        slope_line(out, &summary, ladder->gauntlet ? "  " : "");
    }
    fprintf(out, "--------------------------------------------------\n");
    fflush(out);
}

void ladder_status_step_end(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                            int step) {
    for (int c = 0; c < run->ladder.candidates; c++) {
        int p = step * run->ladder.candidates + c;
        const MatchTotals *t = &tour->totals[p];
        if (!t->pairs)
            continue; /* a candidate stopped at a step before */
        SprtSample sample = totals_sample(t);
        SprtEstimate e = sprt_estimate(&sample);
        fprintf(out,
                "Ladder step %d (%s): %s vs %s: %s after %" PRId64 " pairs, Elo %+.1f [%+.1f, "
                "%+.1f]\n",
                step + 1, run->ladder.limit[step], tour->settings[p].engines[0].name,
                tour->settings[p].engines[1].name,
                t->decision == SPRT_CONTINUE ? "rounds played" : decision_text(t->decision, true),
                t->pairs, shown(e.elo), shown(e.elo_low), shown(e.elo_high));
    }
    fflush(out);
}

void ladder_status_final(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                         const TournamentTotals *tour, RunState state) {
    const LadderSpec *ladder = &run->ladder;
    int played = 0;
    for (int p = 0; p < ladder->count * ladder->candidates; p++)
        if (tour->totals[p].pairs)
            played = ladder_step_of(ladder, p) + 1;
    if (state == RUN_INTERRUPTED)
        fprintf(out, "Interrupted after %" PRId64 " pairs\n", totals->pairs);
    else if (played < ladder->count)
        fprintf(out,
                "Finished: the ladder stopped at step %d of %d, which accepted H0%s (give "
                "-ladder ... continue=on to climb on)\n",
                played, ladder->count, ladder->gauntlet ? " for every candidate left" : "");
    else
        fprintf(out, "Finished: every step played, %" PRId64 " pairs\n", totals->pairs);
    if (totals->discarded_pairs)
        fprintf(out, "Discarded %" PRId64 " pair(s) still running or finished after that point\n",
                totals->discarded_pairs);
    ladder_status_block(out, run, totals, tour);
    for (int c = 0; c < ladder->candidates; c++) {
        LadderSummary summary;
        ladder_summary(ladder, tour->totals, c, &summary);
        char name[MATCH_NAME_MAX] = "";
        if (ladder->gauntlet)
            given_name(run, 1 + c, name, sizeof name);
        fprintf(out, "Ladder: %s%s%s\n", name, name[0] ? ": " : "",
                summary.verdict[0] ? summary.verdict : "no step played");
    }
    char elapsed[32];
    cli_hms_text(totals->seconds, elapsed, sizeof elapsed);
    fprintf(out, "Elapsed: %s (%.1f s), %.2f pairs/s\n", elapsed, totals->seconds,
            totals->seconds > 0 ? (double)totals->pairs / totals->seconds : 0);
    fflush(out);
}
