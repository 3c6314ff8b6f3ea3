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

/* One line a step: its limit, pairs, Elo with its interval, its test. */
static void step_lines(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                       const LadderSummary *summary) {
    for (int k = 0; k < summary->count; k++) {
        const MatchSettings *step = &tour->settings[k];
        fprintf(out, "  step %d %-16s %7" PRId64 " pairs", k + 1, run->ladder.limit[k],
                summary->pairs[k]);
        if (!summary->pairs[k]) {
            fprintf(out, "  not played\n");
            continue;
        }
        fprintf(out, "  Elo %+6.1f [%+.1f, %+.1f]", shown(summary->elo[k]),
                shown(summary->elo_low[k]), shown(summary->elo_high[k]));
        if (step->has_sprt) {
            SprtSample sample = totals_sample(&tour->totals[k]);
            fprintf(out, "  [%g, %g] %s: LLR %.2f", step->sprt.elo0, step->sprt.elo1,
                    sprt_model_name(step->sprt.model), sprt_llr(&sample, &step->sprt));
        }
        fprintf(out, "  %s\n", decision_text(summary->decision[k], step->has_sprt));
    }
}

static void slope_line(FILE *out, const LadderSummary *summary) {
    if (summary->has_slope)
        fprintf(out,
                "Scaling: %+.1f Elo per doubling of the limit [%+.1f, %+.1f] (weighted fit of "
                "the steps' Elo)\n",
                shown(summary->slope), shown(summary->slope_low), shown(summary->slope_high));
    else
        fprintf(out, "Scaling: no slope yet (two steps with pairs needed)\n");
}

void ladder_status_block(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                         const TournamentTotals *tour) {
    LadderSummary summary;
    ladder_summary(&run->ladder, tour->totals, &summary);
    char base[2][MATCH_NAME_MAX];
    ladder_base_name(run->engines[0].name, base[0], sizeof base[0]);
    ladder_base_name(run->engines[1].name, base[1], sizeof base[1]);
    fprintf(out, "--------------------------------------------------\n");
    fprintf(out, "Ladder of %s vs %s (%d steps, from the first engine's side): %" PRId64 " pairs\n",
            base[0], base[1], summary.count, totals->pairs);
    step_lines(out, run, tour, &summary);
    slope_line(out, &summary);
    fprintf(out, "--------------------------------------------------\n");
    fflush(out);
}

void ladder_status_step_end(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                            int step) {
    const MatchTotals *t = &tour->totals[step];
    SprtSample sample = totals_sample(t);
    SprtEstimate e = sprt_estimate(&sample);
    fprintf(out,
            "Ladder step %d (%s): %s vs %s: %s after %" PRId64 " pairs, Elo %+.1f [%+.1f, "
            "%+.1f]\n",
            step + 1, run->ladder.limit[step], tour->settings[step].engines[0].name,
            tour->settings[step].engines[1].name,
            t->decision == SPRT_CONTINUE ? "rounds played" : decision_text(t->decision, true),
            t->pairs, shown(e.elo), shown(e.elo_low), shown(e.elo_high));
    fflush(out);
}

void ladder_status_final(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                         const TournamentTotals *tour, RunState state) {
    LadderSummary summary;
    ladder_summary(&run->ladder, tour->totals, &summary);
    int played = 0;
    for (int k = 0; k < summary.count; k++)
        played += summary.pairs[k] > 0;
    if (state == RUN_INTERRUPTED)
        fprintf(out, "Interrupted after %" PRId64 " pairs\n", totals->pairs);
    else if (played < summary.count)
        fprintf(out,
                "Finished: the ladder stopped at step %d of %d, which accepted H0 (give "
                "-ladder ... continue=on to climb on)\n",
                played, summary.count);
    else
        fprintf(out, "Finished: every step played, %" PRId64 " pairs\n", totals->pairs);
    if (totals->discarded_pairs)
        fprintf(out, "Discarded %" PRId64 " pair(s) still running or finished after that point\n",
                totals->discarded_pairs);
    ladder_status_block(out, run, totals, tour);
    fprintf(out, "Ladder: %s\n", summary.verdict[0] ? summary.verdict : "no step played");
    char elapsed[32];
    cli_hms_text(totals->seconds, elapsed, sizeof elapsed);
    fprintf(out, "Elapsed: %s (%.1f s), %.2f pairs/s\n", elapsed, totals->seconds,
            totals->seconds > 0 ? (double)totals->pairs / totals->seconds : 0);
    fflush(out);
}
