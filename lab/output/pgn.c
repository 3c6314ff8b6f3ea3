// SPDX-License-Identifier: MIT
#include "pgn.h"

#include <stdio.h>
#include <string.h>

#define PGN_LINE 79

const char *pgn_result_text(GameResult result) {
    return result == RESULT_TIGERS_WIN ? "1-0" : result == RESULT_SHEEP_WIN ? "0-1" : "1/2-1/2";
}

/* Writes a token, breaking the line before it would pass PGN_LINE columns. */
static void put_token(FILE *out, const char *token, int *column) {
    int length = (int)strlen(token);
    if (*column > 0 && *column + 1 + length > PGN_LINE) {
        fputc('\n', out);
        *column = 0;
    } else if (*column > 0) {
        fputc(' ', out);
        (*column)++;
    }
    fputs(token, out);
    *column += length;
}

/* A tag with its value quoted as PGN does: a quote or a backslash is escaped by a backslash (a
 * book id may hold either). */
static void put_tag(FILE *out, const char *name, const char *value) {
    fprintf(out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    fputs("\"]\n", out);
}

/* A move's comment as cutechess and fastchess write it: the mover's score in pawns (100 units)
 * or moves to a forced win ("+M5", "-M3"), the depth, and under a clock the time charged:
 * "{+0.35/9 0.012s}". A program that gave no score gets "{/9 ...}". */
static void note_text(const MoveNote *note, char *out, size_t size) {
    char score[24] = "";
    if (note->flags & MOVE_NOTE_MATE)
        snprintf(score, sizeof score, "%sM%d", note->score < 0 ? "-" : "+",
                 note->score < 0 ? -note->score : note->score);
    else if (note->flags & MOVE_NOTE_SCORE)
        snprintf(score, sizeof score, "%+.2f", note->score / 100.0);
    int n = snprintf(out, size, "{%s/%d", score, note->depth);
    if (note->flags & MOVE_NOTE_TIMED)
        n += snprintf(out + n, size - (size_t)n, " %.3fs", (double)note->time_us / 1e6);
    snprintf(out + n, size - (size_t)n, "}");
}

/* The PGN standard's TimeControl tag when a clock runs: one tag when both engines share it,
 * else one per side (as cutechess writes White/BlackTimeControl). */
static void put_time_control(FILE *out, const MatchSettings *s, const GameRecord *game) {
    char tc[2][CLOCK_TEXT_MAX];
    bool clocked[2];
    for (int e = 0; e < MATCH_ENGINES; e++) {
        clocked[e] = engine_has_clock(&s->engines[e]);
        if (clocked[e])
            clock_pgn_text(&s->engines[e].timing.tc, tc[e]);
    }
    if (!clocked[0] && !clocked[1])
        return;
    if (clocked[0] && clocked[1] && !strcmp(tc[0], tc[1])) {
        put_tag(out, "TimeControl", tc[0]);
        return;
    }
    int tigers = game->tigers_engine;
    put_tag(out, "TigersTimeControl", clocked[tigers] ? tc[tigers] : "-");
    put_tag(out, "SheepTimeControl", clocked[1 - tigers] ? tc[1 - tigers] : "-");
}

static void write_game(FILE *out, const MatchSettings *s, const PairRecord *pair, int g,
                       const char *opening_id) {
    const GameRecord *game = &pair->games[g];
    char fen[BOARD_TEXT_MAX];
    board_to_text(&game->start, fen);
    fprintf(out, "[Event \"tslab abtest %s vs %s\"]\n", s->engines[0].name, s->engines[1].name);
    fprintf(out, "[Round \"%lld.%d\"]\n", (long long)pair->index + 1, g + 1);
    fprintf(out, "[Tigers \"%s\"]\n", s->engines[game->tigers_engine].name);
    fprintf(out, "[Sheep \"%s\"]\n", s->engines[1 - game->tigers_engine].name);
    fprintf(out, "[FEN \"%s\"]\n", fen);
    put_tag(out, "Opening", opening_id);
    fprintf(out, "[Result \"%s\"]\n", pgn_result_text(game->result));
    fprintf(out, "[PlyCount \"%d\"]\n", game->plies);
    fprintf(out, "[Termination \"%s\"]\n", game_end_name(game->end));
    put_time_control(out, s, game);
    fputc('\n', out);
    int column = 0, number = 1;
    bool sheep_first = game->start.side == SIDE_SHEEP;
    for (int i = 0; i < game->plies; i++) {
        char token[32], move[MOVE_TEXT_MAX];
        bool first_of_pair = (i % 2 == 0) == sheep_first;
        if (first_of_pair || i == 0) {
            snprintf(token, sizeof token, first_of_pair ? "%d." : "%d...", number);
            put_token(out, token, &column);
        }
        put_token(out, move_to_text(game->moves[i], move), &column);
        char note[64];
        note_text(&game->notes[i], note, sizeof note);
        put_token(out, note, &column);
        if (!first_of_pair)
            number++;
    }
    put_token(out, pgn_result_text(game->result), &column);
    fputs("\n\n", out);
}

bool pgn_write_pair(FILE *out, const MatchSettings *settings, const PairRecord *pair,
                    const char *opening_id) {
    for (int g = 0; g < 2; g++)
        write_game(out, settings, pair, g, opening_id);
    return !ferror(out);
}
