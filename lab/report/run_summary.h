// SPDX-License-Identifier: MIT
// One run as a report shows it, read from its results file (docs/abtest.md, "Results file"):
// the engines and what differs between them, the limits, the book, the state, the SPRT and the
// estimates, the pentanomial, when and how long. Reading never trusts the file: a file that is
// not a results file, or a damaged one, gives a reason instead of a summary. A tournament's file
// reads as its run, its rating list and each pairing as a match's summary.
#pragma once

#include "error.h"
#include "sprt.h"
#include "tournament.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#define RUN_SUMMARY_TEXT 512

/* Whether a figure read from a file is one a run can have (finite, under 1e9 in size): an
 * edited or damaged file's 1e308 is unknown to every view, never 309 digits or a -nan
 * coordinate. */
bool run_summary_plausible(double value);
#define RUN_SUMMARY_NAME 64
#define RUN_SUMMARY_SHORT 48

typedef struct {
    const char *file; /* the results file's path (not owned: the caller's) */
    char engines[2][RUN_SUMMARY_NAME];
    char difference[RUN_SUMMARY_TEXT]; /* "killers=on vs off", or the programs' benches */
    char limits[RUN_SUMMARY_TEXT];     /* "nodes=5000", "tc=0.2+0.002 nodestime=8750", ... */
    char book[RUN_SUMMARY_TEXT];
    char state[RUN_SUMMARY_SHORT]; /* "H1", "H0", "rounds", "interrupted", "running" */
    int64_t pairs, rounds;         /* rounds: 0 when the run has no bound */
    bool has_sprt;
    SprtParams sprt; /* the test's keys, read through their table (sprt_keys.h) */
    double llr, lower, upper;
    double elo, elo_low, elo_high, nelo, nelo_low, nelo_high;
    bool has_corrected; /* the SPRT-corrected Elo (an SPRT run) */
    double sprt_elo, sprt_elo_low, sprt_elo_high;
    uint64_t ptnml[5];
    char started[RUN_SUMMARY_SHORT], updated[RUN_SUMMARY_SHORT];
    char commit[RUN_SUMMARY_SHORT], version[RUN_SUMMARY_SHORT];
    char source[RUN_SUMMARY_SHORT]; /* the build's source identity ("": not recorded) */
    double seconds;
    double depth[2], nodes_per_move[2]; /* per engine, a move on average (0 before any move) */
    /* abtest -blunders: per engine and phase (placement, sliding) the moves judged against
     * perfect play and the blunders among them. */
    bool has_blunders;
    double blunders_judged[2][2], blunders_lost[2][2];
    char command[2 * RUN_SUMMARY_TEXT];
} RunSummary;

/* Reads path into summary. False with err saying why (not JSON, not a results file, a field
 * missing or of the wrong type or range); summary->file is path either way (path must outlive
 * the summary). */
bool run_summary_load(const char *path, RunSummary *summary, Error *err);

/* The same from a parsed file (json is not kept; summary->file is kept as it was). */
bool run_summary_from_json(const cJSON *json, RunSummary *summary, Error *err);

/* Engines a tournament's summary holds: as many as a run may have. */
#define RUN_SUMMARY_ENGINES TOURNAMENT_RUN_ENGINES_MAX

/* An engine of a tournament's rating list, as the file holds it (rating.engines). */
typedef struct {
    char name[RUN_SUMMARY_NAME];
    double elo, elo_low, elo_high, nelo, score, draw_ratio;
    int64_t pairs;
} RatedEngine;

/* A ladder's line: the engine that climbs against the other (a match's ladder: its first
 * against its second; a gauntlet's: a candidate against the seed), names as given; each step's
 * Elo and 95% interval (NaN: not played), the scaling slope (Elo per doubling) and what the
 * steps decided. */
#define RUN_SUMMARY_LADDER_STEPS (TOURNAMENT_RUN_ENGINES_MAX / 2)
#define RUN_SUMMARY_LADDER_LINES (TOURNAMENT_RUN_ENGINES_MAX / 2)
typedef struct {
    char first[RUN_SUMMARY_NAME], second[RUN_SUMMARY_NAME];
    double elo[RUN_SUMMARY_LADDER_STEPS], low[RUN_SUMMARY_LADDER_STEPS];
    double high[RUN_SUMMARY_LADDER_STEPS];
    bool has_slope;
    double slope, slope_low, slope_high;
    char verdict[RUN_SUMMARY_TEXT];
} LadderLine;

typedef struct {
    /* The run itself: file, state ("decided" once a gauntlet's every SPRT ended), pairs,
     * started, updated, seconds, commit, source, version, command, book. */
    RunSummary run;
    char kind[RUN_SUMMARY_SHORT];   /* "roundrobin", "gauntlet" */
    char family[RUN_SUMMARY_SHORT]; /* a gauntlet's SPRTs: "holm", ...; "" without */
    int seeds, engine_count;
    char engines[RUN_SUMMARY_ENGINES][RUN_SUMMARY_NAME];
    char anchor[RUN_SUMMARY_NAME];
    bool rated;                            /* false until every pairing has a pair */
    char rating_failure[RUN_SUMMARY_TEXT]; /* why a rating of pairs enough did not fit ("") */
    RatedEngine rating[RUN_SUMMARY_ENGINES]; /* engine_count of them, strongest first */
    int pairing_count;
    RunSummary *pairings; /* [pairing_count], malloc'd (tournament_summary_destroy); each
                             pairing's file is the run's */
    /* A ladder (kind "ladder"): each step's limit and log2 of its size, and a line a candidate
     * (a match's ladder: one line, its two engines). */
    int ladder_steps;
    char ladder_limit[RUN_SUMMARY_LADDER_STEPS][LADDER_STEP_TEXT];
    double ladder_x[RUN_SUMMARY_LADDER_STEPS];
    bool ladder_gauntlet;
    int ladder_line_count;
    LadderLine ladder_lines[RUN_SUMMARY_LADDER_LINES];
} TournamentSummary;

/* Whether a parsed results file is a tournament's (it has a "tournament" object). */
bool run_summary_is_tournament(const cJSON *json);

/* Reads a tournament's file (parsed) into summary; summary->run.file is kept as it was. False
 * with err when it is not one or a field is missing or wrong (nothing to free then). */
bool tournament_summary_from_json(const cJSON *json, TournamentSummary *summary, Error *err);
void tournament_summary_destroy(TournamentSummary *summary);
