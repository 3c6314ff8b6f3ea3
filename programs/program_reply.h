// SPDX-License-Identifier: MIT
// What an engine program says, one line at a time: the replies of UCI's verbs that abtest acts
// on (uciok, readyok, info, bestmove, Stockfish's bench total), read from any bytes. Pure and
// separate from the process, so that a fuzzer can feed it (tests/fuzz/fuzz_program_reply.c).
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* A count of nodes larger than this in one reply is not believed (2^40: three hours of search at
 * 100 million nodes per second); the reply then carries no count. Sums of counts saturate at
 * MATCH_COUNT_MAX (match.h), so no engine can wrap them. */
#define PROGRAM_REPLY_NODES_MAX (UINT64_C(1) << 40)
#define PROGRAM_REPLY_MOVE_MAX 32
#define PROGRAM_REPLY_SCORE_MAX 1000000
#define PROGRAM_REPLY_MATE_MAX 10000
#define PROGRAM_REPLY_ID_MAX 64
#define PROGRAM_REPLY_SIGNATURE_LENGTH 16

typedef enum {
    REPLY_OTHER,       /* anything else (id, option, noise): not abtest's to judge */
    REPLY_UCIOK,       /* uciok */
    REPLY_READYOK,     /* readyok */
    REPLY_INFO,        /* info ...: its nodes, depth and score, when given and believable */
    REPLY_INFO_ERROR,  /* info string error...: the engine refused something */
    REPLY_BESTMOVE,    /* bestmove MOVE [ponder ...] */
    REPLY_BENCH_NODES, /* "Nodes searched  : N", the last line of Stockfish's bench */
    REPLY_BENCH_POSITION,  /* tslab's "info string bench position ID move M score S depth D
                              nodes N": every field read (bench_id, move, score, depth, nodes) */
    REPLY_BENCH_SIGNATURE, /* tslab's "info string bench: ... signature HEX" (16 hex digits) */
} ProgramReplyKind;

typedef struct {
    ProgramReplyKind kind;
    bool has_nodes; /* info: a nodes count in 0..PROGRAM_REPLY_NODES_MAX; bench: a readable
                       count in that range (false: unreadable or absurd) */
    uint64_t nodes;
    bool has_depth; /* info: a depth in 0..max_depth */
    int depth;
    bool has_score; /* info: score cp N (|N| <= PROGRAM_REPLY_SCORE_MAX) or score mate N (moves,
                       |N| <= PROGRAM_REPLY_MATE_MAX), from the engine's side */
    bool score_is_mate;
    int score;
    char move[PROGRAM_REPLY_MOVE_MAX]; /* bestmove's word ("" when it gives none); a bench
                                         position's move */
    char bench_id[PROGRAM_REPLY_ID_MAX];                  /* a bench position's id */
    char signature[PROGRAM_REPLY_SIGNATURE_LENGTH + 1];   /* a bench summary's signature */
} ProgramReply;

/* Reads one line (NUL-terminated, no newline). Words are separated by any run of spaces and
 * tabs, leading ones included, as UCI allows. Numbers are plain decimal digits (no sign, no
 * exponent); an info line's keys are read up to `string`, whose words are text. Depths above
 * max_depth are not believed. Never fails: what is not understood is REPLY_OTHER or a reply
 * without the value. */
void program_reply_parse(const char *line, int max_depth, ProgramReply *out);
