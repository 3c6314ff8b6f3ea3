// SPDX-License-Identifier: MIT
#include "tournament_status.h"

#include "cli.h"
#include "sprt_report.h"
#include "status.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* A figure as one decimal shows it, without "-0.0" for a rounding residue of zero. */
static double shown(double x) { return fabs(x) < 0.05 ? 0.0 : x; }

void tournament_status_rating(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                              const RatingList *rating) {
    if (!rating) {
        Error why;
        if (!tournament_totals_rating_failure(tour, run->engine_count, &why))
            fprintf(out, "Rating: not yet (every pairing needs a pair)\n");
        else
            fprintf(out, "Rating: not fitted: %s\n", why.text);
        return;
    }
    fprintf(out, "Rating (from the pairs of every pairing; %s at 0; 95%% intervals):\n",
            run->engines[rating->anchor].name);
    fprintf(out, "%4s  %-20s %8s  %-18s %8s %8s %7s %7s\n", "Rank", "Engine", "Elo", "95%",
            "nElo", "Pairs", "Score", "Draws");
    int order[RATING_ENGINES_MAX];
    tournament_rating_order(rating, order);
    for (int rank = 0; rank < rating->count; rank++) {
        const RatingEngine *e = &rating->engines[order[rank]];
        char interval[40];
        if (order[rank] == rating->anchor)
            snprintf(interval, sizeof interval, "(anchor)");
        else
            snprintf(interval, sizeof interval, "[%+.1f, %+.1f]", shown(e->elo_low),
                     shown(e->elo_high));
        fprintf(out, "%4d  %-20s %+8.1f  %-18s %+8.1f %8" PRId64 " %6.1f%% %6.1f%%\n", rank + 1,
                run->engines[order[rank]].name, shown(e->elo), interval, shown(e->nelo), e->pairs,
                100 * e->score, 100 * e->draw_ratio);
    }
}

/* "round robin of 4 engines", "gauntlet of 5 engines, 1 seed". */
static void kind_text(const MatchSettings *run, char *out, size_t size) {
    if (run->tournament == TOURNAMENT_GAUNTLET)
        snprintf(out, size, "gauntlet of %d engines, %d seed%s", run->engine_count, run->seeds,
                 run->seeds == 1 ? "" : "s");
    else
        snprintf(out, size, "round robin of %d engines", run->engine_count);
}

static void pairing_lines(FILE *out, const TournamentTotals *tour) {
    fprintf(out, "Pairings (each from its first engine's side):\n");
    for (int p = 0; p < tour->pairings.count; p++) {
        const MatchSettings *s = &tour->settings[p];
        const MatchTotals *t = &tour->totals[p];
        SprtSample sample = totals_sample(t);
        SprtEstimate e = sprt_estimate(&sample);
        fprintf(out, "  %s vs %s: %" PRId64 " pairs, W-D-L %" PRIu64 "-%" PRIu64 "-%" PRIu64
                     ", Elo %+.1f +/- %.1f, Ptnml(0-2) [%" PRIu64 ", %" PRIu64 ", %" PRIu64
                     ", %" PRIu64 ", %" PRIu64 "]",
                s->engines[0].name, s->engines[1].name, t->pairs, t->wdl.wins, t->wdl.draws,
                t->wdl.losses, shown(e.elo), (e.elo_high - e.elo_low) / 2, t->penta.ll, t->penta.ld,
                t->penta.wl + t->penta.dd, t->penta.wd, t->penta.ww);
        if (s->has_sprt)
            fprintf(out, ", LLR %.2f%s", sprt_llr(&sample, &s->sprt),
                    t->decision == SPRT_H1   ? ", H1 accepted"
                    : t->decision == SPRT_H0 ? ", H0 accepted"
                                             : "");
        fputc('\n', out);
    }
}

/* A gauntlet decided by SPRTs: each candidate's decision, and the accepted ones in the order
 * of the joint rating. */
static void decisions(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                      const RatingList *rating) {
    /* What the control promises (family.h), said with the decisions it made. */
    if (run->family == FAMILY_NONE)
        fprintf(out, "Decisions (-family none: each test at alpha = %g alone; with %d null "
                     "candidates the chance that one is accepted grows to %.3f):\n",
                run->sprt.alpha, tour->pairings.count,
                1 - pow(1 - run->sprt.alpha, tour->pairings.count));
    else
        fprintf(out, "Decisions (-family %s: the chance that any candidate no better than elo0 = "
                     "%g is accepted is at most alpha = %g):\n",
                family_control_name(run->family), run->sprt.elo0, run->sprt.alpha);
    for (int p = 0; p < tour->pairings.count; p++) {
        const MatchTotals *t = &tour->totals[p];
        SprtSample sample = totals_sample(t);
        SprtEstimate e = sprt_estimate(&sample);
        fprintf(out, "  %-20s %s after %" PRId64 " pairs, Elo %+.1f [%+.1f, %+.1f] against %s\n",
                tour->settings[p].engines[0].name,
                t->decision == SPRT_H1   ? "H1 accepted"
                : t->decision == SPRT_H0 ? "H0 accepted"
                                         : "undecided  ",
                t->pairs, shown(e.elo), shown(e.elo_low), shown(e.elo_high),
                tour->settings[p].engines[1].name);
    }
    fprintf(out, "Accepted, strongest first by the rating:");
    int accepted = 0, order[RATING_ENGINES_MAX];
    if (rating) {
        tournament_rating_order(rating, order);
        for (int rank = 0; rank < rating->count; rank++)
            for (int p = 0; p < tour->pairings.count; p++)
                if (tour->pairings.pairings[p].first == order[rank] &&
                    tour->totals[p].decision == SPRT_H1)
                    fprintf(out, "%s %s (%+.1f)", accepted++ ? "," : "",
                            run->engines[order[rank]].name,
                            shown(rating->engines[order[rank]].elo));
    }
    int undecided = 0;
    for (int p = 0; p < tour->pairings.count; p++)
        undecided += tour->totals[p].decision == SPRT_CONTINUE;
    fprintf(out, "%s", accepted ? "" : " none");
    if (undecided)
        fprintf(out, " (%d still undecided: the run stopped before their tests ended)", undecided);
    fputc('\n', out);
}

void tournament_status_block(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                             const TournamentTotals *tour, const RatingList *rating) {
    char kind[96], limits[160], other[160];
    kind_text(run, kind, sizeof kind);
    /* The limits when every pairing's two engines share them, as a match says them. */
    status_limits_text(&tour->settings[0], limits, sizeof limits);
    for (int p = 1; p < tour->pairings.count; p++) {
        status_limits_text(&tour->settings[p], other, sizeof other);
        if (strcmp(limits, other))
            snprintf(limits, sizeof limits, "limits per engine as given");
    }
    fprintf(out, "--------------------------------------------------\n");
    fprintf(out, "Tournament (%s; %s): %" PRId64 " pairs", kind,
            strchr(limits, ':') ? "limits per engine as given" : limits, totals->pairs);
    if (run->has_sprt) { /* decided candidates stop: their rounds differ */
        int open = 0;
        for (int p = 0; p < tour->pairings.count; p++)
            open += tour->totals[p].decision == SPRT_CONTINUE;
        fprintf(out, ", %d of %d candidates undecided\n", open, tour->pairings.count);
    } else {
        fprintf(out, ", %" PRId64 " round(s) of %d pairings\n",
                totals->pairs / tour->pairings.count, tour->pairings.count);
    }
    tournament_status_rating(out, run, tour, rating);
    pairing_lines(out, tour);
    fprintf(out, "--------------------------------------------------\n");
    fflush(out);
}

void tournament_status_final(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                             const TournamentTotals *tour, const RatingList *rating,
                             RunState state) {
    if (state == RUN_SPRT)
        fprintf(out, "Finished: every candidate decided after %" PRId64 " pairs\n",
                totals->pairs);
    else if (state == RUN_ROUNDS)
        fprintf(out, "Finished: %" PRId64 " pairs played (-rounds %" PRId64 " for each %s "
                     "pairing)\n",
                totals->pairs, run->rounds, run->has_sprt ? "undecided" : "of the");
    else
        fprintf(out, "Interrupted after %" PRId64 " pairs\n", totals->pairs);
    if (totals->discarded_pairs)
        fprintf(out, "Discarded %" PRId64 " pair(s) still running or finished after that point\n",
                totals->discarded_pairs);
    tournament_status_block(out, run, totals, tour, rating);
    if (run->has_sprt)
        decisions(out, run, tour, rating);
    char elapsed[32];
    cli_hms_text(totals->seconds, elapsed, sizeof elapsed);
    fprintf(out, "Elapsed: %s (%.1f s", elapsed, totals->seconds);
    if (totals->sessions > 1)
        fprintf(out, " over %d sessions", totals->sessions);
    fprintf(out, "), %.2f pairs/s\n",
            totals->seconds > 0 ? (double)totals->pairs / totals->seconds : 0);
    fflush(out);
}
