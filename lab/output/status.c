// SPDX-License-Identifier: MIT
#include "status.h"

#include "cli.h"
#include "sprt_report.h"
#include "textbuf.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define BAR_WIDTH 21

/* An engine's limits as its keys: the clock (tc= or st=, nodestime=), then depth, nodes,
 * movetime. */
static void limits_of(const EngineSpec *spec, TextBuf *buf) {
    const SearchConfig *c = &spec->config;
    const char *separator = "";
    if (engine_has_clock(spec)) {
        engine_spec_timing_tokens(&spec->timing, buf); /* " tc=10+0.1 ..." */
        separator = " ";
    }
    if (c->depth) {
        textbuf_printf(buf, "%sdepth=%d", separator, c->depth);
        separator = " ";
    }
    if (c->nodes) {
        textbuf_printf(buf, "%snodes=%lld", separator, (long long)c->nodes);
        separator = " ";
    }
    if (c->movetime)
        textbuf_printf(buf, "%smovetime=%lld", separator, (long long)c->movetime);
}

void status_limits_text(const MatchSettings *s, char *out, size_t size) {
    char limits[MATCH_ENGINES][160];
    for (int e = 0; e < MATCH_ENGINES; e++) {
        TextBuf one = textbuf(limits[e], sizeof limits[e]);
        limits_of(&s->engines[e], &one);
    }
    TextBuf buf = textbuf(out, size);
    /* The timing tokens start with a space. */
    if (!strcmp(limits[0], limits[1])) {
        textbuf_printf(&buf, "%s", limits[0] + (limits[0][0] == ' '));
        return;
    }
    for (int e = 0; e < MATCH_ENGINES; e++)
        textbuf_printf(&buf, "%s%s: %s", e ? ", " : "", s->engines[e].name,
                       limits[e] + (limits[e][0] == ' '));
}

static SprtReport report_of(const MatchSettings *s, const MatchTotals *t) {
    SprtSample sample = totals_sample(t);
    SprtParams params = settings_report_sprt(s);
    return sprt_report_make(&sample, &t->penta, &params);
}

void status_line_clear(FILE *out) { fputs("\r\033[K", out); }

void status_line(FILE *out, const MatchSettings *s, const MatchTotals *t, double rate) {
    SprtReport r = report_of(s, t);
    char bar[BAR_WIDTH + 1] = "";
    char eta[32] = "?";
    if (s->has_sprt) {
        /* The LLR between its bounds: '|' marks 0. */
        double position = (r.llr - r.lower) / (r.upper - r.lower);
        position = position < 0 ? 0 : position > 1 ? 1 : position;
        int mark = (int)lround(position * (BAR_WIDTH - 1));
        int zero = (int)lround(-r.lower / (r.upper - r.lower) * (BAR_WIDTH - 1));
        for (int i = 0; i < BAR_WIDTH; i++)
            bar[i] = i == mark ? '#' : i == zero ? '|' : '-';
        bar[BAR_WIDTH] = '\0';
        /* ETA from the LLR's drift so far: pairs needed ~ pairs * bound / LLR. */
        double bound = r.llr >= 0 ? r.upper : r.lower;
        if (t->pairs > 0 && fabs(r.llr) > 0.05 && rate > 0) {
            double remaining = (double)t->pairs * (bound / r.llr - 1);
            snprintf(eta, sizeof eta, "%.0fs", remaining > 0 ? remaining / rate : 0);
        }
    } else if (rate > 0) {
        snprintf(eta, sizeof eta, "%.0fs", (double)(s->rounds - t->pairs) / rate);
    }
    status_line_clear(out);
    fprintf(out, "pairs %" PRId64 "  W-D-L %" PRIu64 "-%" PRIu64 "-%" PRIu64 "  Elo %.1f +/- %.1f",
            t->pairs, t->wdl.wins, t->wdl.draws, t->wdl.losses, r.estimate.elo,
            (r.estimate.elo_high - r.estimate.elo_low) / 2);
    if (s->has_sprt)
        fprintf(out, "  LLR %.2f [%s] (%.2f, %.2f)", r.llr, bar, r.lower, r.upper);
    fprintf(out, "  %.2f pairs/s  ETA %s", rate, eta);
    fflush(out);
}

void status_progress(FILE *out, const MatchSettings *s, const MatchTotals *t, double rate,
                     double elapsed) {
    char elapsed_text[32], eta_text[32];
    cli_hms_text(elapsed, elapsed_text, sizeof elapsed_text);
    bool bounded = s->rounds < SETTINGS_UNBOUNDED_ROUNDS;
    fprintf(out, "Progress: %" PRId64, t->pairs);
    if (bounded)
        fprintf(out, " of %" PRId64, s->rounds);
    fprintf(out, " pairs, %.2f pairs/s, elapsed %s", rate, elapsed_text);
    double left = bounded ? (double)(s->rounds - t->pairs) : NAN;
    if (s->has_sprt) {
        SprtReport r = report_of(s, t);
        uint64_t games = t->wdl.wins + t->wdl.draws + t->wdl.losses;
        double draw_ratio = games ? (double)t->wdl.draws / (double)games : 0;
        double pass, plan_left;
        if (sprt_plan_left(&s->sprt, r.llr, draw_ratio, r.estimate.elo, r.estimate.nelo, &pass,
                           &plan_left)) {
            fprintf(out, "; SPRT: about %.0f pairs left at the current estimate (-plan), H1 %.0f%%",
                    ceil(plan_left), 100 * pass);
            left = bounded && left < plan_left ? left : ceil(plan_left);
        }
    }
    if (isfinite(left) && rate > 0) {
        cli_hms_text(left / rate, eta_text, sizeof eta_text);
        fprintf(out, ", ETA %s", eta_text);
    }
    fputc('\n', out);
    fflush(out);
}

/* The last component of a path: fastchess names the book by its file name. */
static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* With -sprt overshoot=on: the bounds the decision uses, moved in by the correction. */
static void overshoot_line(FILE *out, const MatchSettings *s, const MatchTotals *t) {
    if (!s->sprt.overshoot)
        return;
    double o0, o1;
    sprt_overshoot_margins(&t->overshoot, &o0, &o1);
    fprintf(out, "Overshoot-corrected bounds: (%.2f, %.2f), o0 %.4f, o1 %.4f%s\n",
            sprt_lower_bound(&s->sprt) + o0, sprt_upper_bound(&s->sprt) - o1, o0, o1,
            t->overshoot.active ? "" : " (correction dropped)");
}

/* Per clocked engine: the time its moves used against what its clock gave (an overloaded
 * machine shows as moves that use more of the clock, and as time losses). */
static void clock_lines(FILE *out, const MatchSettings *s, const MatchTotals *t) {
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const EngineMoveStats *m = &t->engine[e];
        if (!engine_has_clock(&s->engines[e]) || !m->moves)
            continue;
        double used_ms = (double)m->time_us / 1000.0 / (double)m->moves;
        double given_ms = (double)m->given_us / 1000.0 / (double)m->moves;
        fprintf(out, "Clock of %s: %.2f ms a move used of %.2f ms given (%.0f %%), lost on the "
                     "clock %" PRIu64 "%s\n",
                s->engines[e].name, used_ms, given_ms,
                given_ms > 0 ? 100 * used_ms / given_ms : 0, t->forfeits[e][GAME_END_TIME_FORFEIT],
                s->engines[e].timing.nodestime ? " (time counted in nodes: nodestime)" : "");
    }
}

void status_block(FILE *out, const MatchSettings *s, const MatchTotals *t) {
    SprtReport r = report_of(s, t);
    char limits[160];
    status_limits_text(s, limits, sizeof limits);
    uint64_t games = t->wdl.wins + t->wdl.draws + t->wdl.losses;
    double points = (double)t->wdl.wins + 0.5 * (double)t->wdl.draws;
    fprintf(out, "--------------------------------------------------\n");
    /* fastchess's block: the engines in command-line order, every number from the first's side
     * (fishtest's parser reads the Games and Ptnml lines). */
    fprintf(out, "Results of %s vs %s (%s, %s):\n", s->engines[0].name, s->engines[1].name,
            limits, base_name(s->book_path));
    sprt_report_elo_lines(&r, out);
    fprintf(out, "Games: %" PRIu64 ", Wins: %" PRIu64 ", Losses: %" PRIu64 ", Draws: %" PRIu64
                 ", Points: %.1f (%.2f %%)\n",
            games, t->wdl.wins, t->wdl.losses, t->wdl.draws, points,
            games ? 100 * points / (double)games : 0);
    fprintf(out, "Ptnml(0-2): [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "]",
            t->penta.ll, t->penta.ld, t->penta.wl + t->penta.dd, t->penta.wd, t->penta.ww);
    if (t->penta.dd)
        fprintf(out, ", WL/DD Ratio: %.2f\n", (double)t->penta.wl / (double)t->penta.dd);
    else
        fprintf(out, ", WL/DD Ratio: %s\n", t->penta.wl ? "inf" : "n/a");
    if (s->has_sprt) {
        sprt_report_llr_line(&r, out);
        overshoot_line(out, s, t);
        sprt_report_corrected_line(&r, out);
    }
    fprintf(out, "--------------------------------------------------\n");
    fflush(out);
}

/* How each end is written in a per-game line, in fastchess's manner ("White mates"). None of
 * the rules' ends contains a colon or the words OpenBench and fishtest count as faults
 * (disconnect, stall, on time, timeout, illegal); the forfeits use exactly those words, as
 * fastchess writes them ("White loses on time"), so that both frameworks count them. */
static const char *const END_ANNOTATIONS[] = {
    [GAME_END_NONE] = "Unfinished",
    [GAME_END_CAPTURES] = "Tigers win by five captures",
    [GAME_END_TIGERS_TRAPPED] = "Sheep win, the tigers cannot move",
    [GAME_END_SHEEP_BLOCKED] = "Tigers win, the sheep cannot move",
    [GAME_END_REPETITION] = "Draw by 3-fold repetition",
    [GAME_END_MAX_MOVES] = "Draw by adjudication, move limit",
    [GAME_END_TABLEBASE] = "by adjudication, tablebase", /* after the result: end_annotation */
};

/* Forfeits: the losing side ("Tigers", "Sheep": both plural), then what it did; a stall is
 * written with the possessive (end_annotation). */
static const char *const FORFEIT_ANNOTATIONS[TOTALS_END_REASONS] = {
    [GAME_END_TIME_FORFEIT] = " lose on time",
    [GAME_END_DISCONNECT] = " disconnect",
    [GAME_END_ILLEGAL_MOVE] = " make an illegal move",
};

/* The end reasons as the summary names them. The per-game lines are the only ones that may
 * hold the fault words (fishtest counts every line that does), so the forfeits get other names
 * here. */
static const char *summary_end_name(GameEnd end) {
    static const char *const names[TOTALS_END_REASONS] = {
        [GAME_END_TIME_FORFEIT] = "lost on the clock",
        [GAME_END_DISCONNECT] = "engine exited",
        [GAME_END_STALL] = "engine hung",
        [GAME_END_ILLEGAL_MOVE] = "bad move",
    };
    return game_end_is_forfeit(end) ? names[end] : game_end_name(end);
}

static void end_annotation(const GameRecord *game, char *out, size_t size) {
    if (game->end == GAME_END_TABLEBASE) {
        snprintf(out, size, "%s %s",
                 game->result == RESULT_DRAW         ? "Draw"
                 : game->result == RESULT_TIGERS_WIN ? "Tigers win"
                                                     : "Sheep win",
                 END_ANNOTATIONS[game->end]);
        return;
    }
    if (!game_end_is_forfeit(game->end)) {
        snprintf(out, size, "%s", END_ANNOTATIONS[game->end]);
        return;
    }
    bool tigers_lost = game->result == RESULT_SHEEP_WIN;
    if (game->end == GAME_END_STALL) /* the possessive: "Tigers'", "Sheep's" */
        snprintf(out, size, "%s connection stalls", tigers_lost ? "Tigers'" : "Sheep's");
    else
        snprintf(out, size, "%s%s", tigers_lost ? "Tigers" : "Sheep",
                 FORFEIT_ANNOTATIONS[game->end]);
}

/* The result from the first-named player's side, the tigers' here (cutechess's "1-0" is a
 * win for the player named first); the PGN, where White is the sheep, says it the other way. */
static const char *tigers_first_result(GameResult result) {
    return result == RESULT_TIGERS_WIN ? "1-0" : result == RESULT_SHEEP_WIN ? "0-1" : "1/2-1/2";
}

void status_game_lines(FILE *out, const MatchSettings *s, const PairRecord *pair,
                       int64_t planned_pairs) {
    for (int g = 0; g < 2; g++) {
        const GameRecord *game = &pair->games[g];
        /* The tigers are named first, as White is: "1-0" is a win for the first-named. */
        const char *tigers = s->engines[game->tigers_engine].name;
        const char *sheep = s->engines[1 - game->tigers_engine].name;
        long long number = 2 * (long long)pair->index + g + 1;
        /* fastchess's "of M" only when the run has a bound: an SPRT without -rounds has none
         * (its 10^12 pairs are a stand-in, not a plan). */
        if (s->rounds >= SETTINGS_UNBOUNDED_ROUNDS)
            fprintf(out, "Started game %lld (%s vs %s)\n", number, tigers, sheep);
        else
            fprintf(out, "Started game %lld of %lld (%s vs %s)\n", number,
                    2 * (long long)planned_pairs, tigers, sheep);
        char annotation[64];
        end_annotation(game, annotation, sizeof annotation);
        fprintf(out, "Finished game %lld (%s vs %s): %s {%s}\n", number, tigers, sheep,
                tigers_first_result(game->result), annotation);
    }
}

static void side_line(FILE *out, const char *who, const Trinomial *t) {
    fprintf(out, "  %-26s W-D-L %" PRIu64 "-%" PRIu64 "-%" PRIu64 "\n", who, t->wins, t->draws,
            t->losses);
}

static double percent_of(uint64_t part, uint64_t whole) {
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* -blunders: per engine and phase its blunders of the moves judged, by kind, and its games with
 * one or more:
 *   "Blunders of new (solved: the sliding phase, 1..4 sheep in hand): placement 3 of 812
 *    (0.37%: win to draw 1, win to loss 0, draw to loss 2), sliding 1 of 2210 (0.05%: ...);
 *    in 4 of 200 games" */
static void blunder_lines(FILE *out, const MatchSettings *s, const MatchTotals *t) {
    if (!s->blunders_dir[0])
        return;
    for (int e = 0; e < MATCH_ENGINES; e++) {
        fprintf(out, "Blunders of %s (solved: the sliding phase", s->engines[e].name);
        if (t->blunders_in_hand > 0)
            fprintf(out, ", 1..%d sheep in hand", t->blunders_in_hand);
        fprintf(out, "):");
        for (int phase = 0; phase < GAME_PHASES; phase++) {
            const BlunderCounts *c = &t->blunders.phase[e][phase];
            uint64_t judged = blunders_judged(c), lost = blunders_lost(c);
            fprintf(out, "%s %s %" PRIu64 " of %" PRIu64 " (%.2f%%", phase ? "," : "",
                    GAME_PHASE_KEYS[phase], lost, judged, percent_of(lost, judged));
            for (int v = TB_VERDICT_WIN_TO_DRAW; v < TB_VERDICTS; v++)
                fprintf(out, "%s %s %" PRIu64, v == TB_VERDICT_WIN_TO_DRAW ? ":" : ",",
                        TB_VERDICT_NAMES[v], c->verdicts[v]);
            fprintf(out, ")");
        }
        uint64_t games = 0;
        for (int bin = 0; bin < BLUNDER_GAME_BINS; bin++)
            games += t->blunders.games[e][bin];
        fprintf(out, "; in %" PRIu64 " of %" PRIu64 " games\n", games - t->blunders.games[e][0],
                games);
    }
}

void status_final(FILE *out, const MatchSettings *s, const MatchTotals *t, RunState state,
                  int book_positions) {
    SprtReport r = report_of(s, t);
    char bounds[96] = "";
    if (s->has_sprt)
        snprintf(bounds, sizeof bounds, "[%.2f, %.2f] %s", s->sprt.elo0, s->sprt.elo1,
                 sprt_model_name(s->sprt.model));
    if (state == RUN_SPRT) /* fastchess's line, then what it leaves out */
        fprintf(out, "SPRT ([%.2f, %.2f]) completed - %s was accepted\n"
                     "  %s model, decided after %" PRId64 " pairs\n",
                s->sprt.elo0, s->sprt.elo1, sprt_decision_name(t->decision),
                sprt_model_name(s->sprt.model), t->decision_pair);
    else if (state == RUN_ROUNDS)
        fprintf(out, "Finished: %" PRId64 " pairs played (-rounds)%s%s\n", t->pairs,
                s->has_sprt ? "; SPRT undecided: " : "", bounds);
    else
        fprintf(out, "Interrupted after %" PRId64 " pairs%s\n", t->pairs,
                s->has_sprt ? "; SPRT undecided" : "");
    if (t->discarded_pairs)
        fprintf(out, "Discarded %" PRId64 " pair(s) still running or finished after that point\n",
                t->discarded_pairs);
    char name[64];
    fprintf(out, "By side (results of the first engine, %s):\n", s->engines[0].name);
    snprintf(name, sizeof name, "%s as tigers:", s->engines[0].name);
    side_line(out, name, &t->first_as[1]);
    snprintf(name, sizeof name, "%s as sheep:", s->engines[0].name);
    side_line(out, name, &t->first_as[0]);
    fprintf(out, "End reasons:");
    for (int e = GAME_END_CAPTURES; e < TOTALS_END_REASONS; e++)
        fprintf(out, "%s %s %" PRIu64, e == GAME_END_CAPTURES ? "" : ",",
                summary_end_name((GameEnd)e), t->ends[e]);
    fprintf(out, "\nPer engine: ");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const EngineMoveStats *m = &t->engine[e];
        fprintf(out, "%s%s depth %.2f, %.0f nodes/move", e ? "; " : "", s->engines[e].name,
                m->moves ? (double)m->depth_sum / (double)m->moves : 0,
                m->moves ? (double)m->nodes / (double)m->moves : 0);
    }
    fprintf(out, "\n");
    clock_lines(out, s, t);
    for (int e = 0; e < MATCH_ENGINES; e++) {
        uint64_t any = 0;
        for (int reason = GAME_END_TIME_FORFEIT; reason < TOTALS_END_REASONS; reason++)
            any += t->forfeits[e][reason];
        if (!any && !engine_is_program(&s->engines[e]))
            continue; /* an in-process engine cannot forfeit: no line */
        fprintf(out, "Forfeits of %s: lost on the clock %" PRIu64 ", engine exited %" PRIu64
                     ", engine hung %" PRIu64 ", bad moves %" PRIu64 "\n",
                s->engines[e].name, t->forfeits[e][GAME_END_TIME_FORFEIT],
                t->forfeits[e][GAME_END_DISCONNECT], t->forfeits[e][GAME_END_STALL],
                t->forfeits[e][GAME_END_ILLEGAL_MOVE]);
    }
    blunder_lines(out, s, t);
    if (t->book_exhausted)
        fprintf(out, "Note: more pairs than the book's %d openings: openings were replayed\n",
                book_positions);
    char elapsed[32];
    cli_hms_text(t->seconds, elapsed, sizeof elapsed);
    fprintf(out, "Elapsed: %s (%.1f s", elapsed, t->seconds);
    if (t->sessions > 1)
        fprintf(out, " over %d sessions", t->sessions);
    fprintf(out, "), %.2f pairs/s\n", t->seconds > 0 ? (double)t->pairs / t->seconds : 0);
    char limits[160];
    status_limits_text(s, limits, sizeof limits);
    /* No empty line: OpenBench stops reading a runner's output at the first one. */
    fprintf(out, "Summary (for the commit message):\n");
    fprintf(out, "  abtest %s vs %s, %s, book %s, seed %llu\n", s->engines[0].name,
            s->engines[1].name, limits, s->book_path, (unsigned long long)s->seed);
    fprintf(out, "  Elo %+.2f +/- %.2f, nElo %+.2f +/- %.2f, LOS %.1f %%\n", r.estimate.elo,
            (r.estimate.elo_high - r.estimate.elo_low) / 2, r.estimate.nelo,
            (r.estimate.nelo_high - r.estimate.nelo_low) / 2, 100 * r.estimate.los);
    if (s->has_sprt) {
        double o0 = 0, o1 = 0;
        if (s->sprt.overshoot)
            sprt_overshoot_margins(&t->overshoot, &o0, &o1);
        fprintf(out, "  SPRT %s%s: LLR %.2f (%.2f, %.2f), %s\n", bounds,
                s->sprt.overshoot ? ", overshoot-corrected" : "", r.llr, r.lower + o0,
                r.upper - o1,
                t->decision == SPRT_CONTINUE ? "no decision" : t->decision == SPRT_H1 ? "H1 accepted"
                                                                                    : "H0 accepted");
        fprintf(out, "  SPRT-corrected Elo %+.2f [%.2f, %.2f], LOS %.1f %% (median-unbiased)\n",
                r.corrected.elo, r.corrected.ci_low, r.corrected.ci_high, 100 * r.corrected.los);
    }
    fprintf(out, "  Games %" PRIu64 ": W %" PRIu64 " D %" PRIu64 " L %" PRIu64 ", Ptnml(0-2) [%" PRIu64
                 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "]\n",
            2 * (uint64_t)t->pairs, t->wdl.wins, t->wdl.draws, t->wdl.losses, t->penta.ll,
            t->penta.ld, t->penta.wl + t->penta.dd, t->penta.wd, t->penta.ww);
    fflush(out);
}
