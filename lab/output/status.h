// SPDX-License-Identifier: MIT
// abtest's text output: the live status line, fastchess-shaped interval blocks (so existing
// parsers work), and the closing report with a paste-ready summary.
#pragma once

#include "results.h"
#include "settings.h"

#include <stdio.h>

/* "nodes=2000" when both engines share their limits, else "base: depth=5, cand: nodes=2000". */
void status_limits_text(const MatchSettings *settings, char *out, size_t size);

/* One line, rewritten in place on a terminal: pairs, W-D-L, Elo +/-, LLR bar, pairs/s, ETA. */
void status_line(FILE *out, const MatchSettings *settings, const MatchTotals *totals,
                 double pairs_per_second);
void status_line_clear(FILE *out);

/* Where a log is not a terminal, one plain line per rating interval (after the block):
 *   Progress: 400 pairs, 23.10 pairs/s, elapsed 0:00:17; SPRT: about 1650 pairs left at the
 *   current estimate (-plan), H1 3%, ETA 0:01:11
 * ("400 of 1000 pairs" with -rounds; the SPRT's pairs left from the LLR reached at the current Elo,
 * as sprt_plan_left; the ETA from the rate, bounded by -rounds). */
void status_progress(FILE *out, const MatchSettings *settings, const MatchTotals *totals,
                     double pairs_per_second, double elapsed_seconds);

/* The block printed every rating interval and at the end:
 *   Results of base vs cand (nodes=2000, openings/default.txt):
 *   Elo: ..., nElo: ...  /  LOS: ..., DrawRatio: ..., PairsRatio: ...
 *   Games: N, Wins: W, Losses: L, Draws: D, Points: P (x %)  /  Ptnml(0-2): [...]
 *   LLR: x (p%) (A, B) <elo0, elo1> model */
void status_block(FILE *out, const MatchSettings *settings, const MatchTotals *totals);

/* fastchess's per-game lines for both games of a counted pair, which OpenBench counts:
 *   Started game 3 of 2000 (killers vs nokillers)
 *   Finished game 3 (killers vs nokillers): 1-0 {Tigers win by five captures}
 * settings are the pair's match (a tournament's pairing), planned_pairs the run's -rounds in
 * pairs (-rounds times the pairings in a tournament). Game numbers are 2 * pair + 1 and
 * 2 * pair + 2; the tigers' player is named first and "1-0"
 * is a win for the tigers ("0-1" for the sheep), so in odd games "1-0" is a win for the first
 * engine and in even games "0-1" is, as OpenBench's and cutechess's readers assume of White. */
void status_game_lines(FILE *out, const MatchSettings *settings, const PairRecord *pair,
                       int64_t planned_pairs);

/* The end: how the run ended, the split by side, end reasons, and a summary for commits. */
void status_final(FILE *out, const MatchSettings *settings, const MatchTotals *totals,
                  RunState state, int book_positions);
