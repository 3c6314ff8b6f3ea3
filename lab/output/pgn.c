// SPDX-License-Identifier: MIT
#include "pgn.h"

#include "blunders.h"

#include <stdio.h>
#include <string.h>

#define PGN_LINE 79

const char *pgn_result_text(GameResult result) {
    return result == RESULT_SHEEP_WIN ? "1-0" : result == RESULT_TIGERS_WIN ? "0-1" : "1/2-1/2";
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
 * book id may hold either). The standard's strings hold printing ASCII only and have no escape
 * for anything else, so every other byte (a control character, an ESC, each byte of UTF-8) is
 * written '?': a strict reader (tests/pgn_strict.h) then reads every game. */
static void put_tag(FILE *out, const char *name, const char *value) {
    fprintf(out, "[%s \"", name);
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p >= 32 && *p <= 126 ? *p : '?', out);
    }
    fputs("\"]\n", out);
}

/* A move's comment as cutechess and fastchess write it: the mover's score in pawns (100 units)
 * or moves to a forced win ("+M5", "-M3"), the depth, and under a clock the time charged:
 * "{+0.35/9 0.012s}". A program that gave no score gets "{/9 ...}". A move judged a blunder
 * against perfect play (-blunders) says which after them: "{+0.35/9; blunder: win to draw}". */
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
    if (note->verdict > TB_VERDICT_KEPT && note->verdict < TB_VERDICTS) /* abtest -blunders */
        n += snprintf(out + n, size - (size_t)n, "; blunder: %s",
                      TB_VERDICT_NAMES[note->verdict]);
    snprintf(out + n, size - (size_t)n, "}");
}

/* The PGN standard's TimeControl tag when a clock runs: one tag when both engines share it,
 * else one per side (as cutechess writes White/BlackTimeControl). The tags are written in ASCII
 * order: SheepTimeControl here comes between Sheep and Termination, the others after Tigers. */
static void put_side_time_control(FILE *out, const MatchSettings *s, const GameRecord *game,
                                  Side side) {
    char tc[2][CLOCK_TEXT_MAX];
    bool clocked[2];
    for (int e = 0; e < MATCH_ENGINES; e++) {
        clocked[e] = engine_has_clock(&s->engines[e]);
        if (clocked[e])
            clock_pgn_text(&s->engines[e].timing.tc, tc[e]);
    }
    if (!clocked[0] && !clocked[1])
        return;
    bool shared = clocked[0] && clocked[1] && !strcmp(tc[0], tc[1]);
    int tigers = game->tigers_engine, engine = side == SIDE_TIGERS ? tigers : 1 - tigers;
    if (shared && side == SIDE_TIGERS)
        put_tag(out, "TimeControl", tc[0]);
    else if (!shared)
        put_tag(out, side == SIDE_TIGERS ? "TigersTimeControl" : "SheepTimeControl",
                clocked[engine] ? tc[engine] : "-");
}

/* -blunders: a side's blunders of its moves judged, "1 of 23" (SheepBlunders, TigersBlunders:
 * in ASCII order before the side's TimeControl tag). */
static void put_blunders(FILE *out, const MatchSettings *s, const GameRecord *game, Side side) {
    if (!s->blunders_dir[0])
        return;
    int engine = side == SIDE_TIGERS ? game->tigers_engine : 1 - game->tigers_engine;
    BlunderCounts sum = blunders_in_game(game, engine);
    char text[48];
    snprintf(text, sizeof text, "%llu of %llu", (unsigned long long)blunders_lost(&sum),
             (unsigned long long)blunders_judged(&sum));
    put_tag(out, side == SIDE_TIGERS ? "TigersBlunders" : "SheepBlunders", text);
}

/* "2026.12.01" from an ISO 8601 time ("2026-12-01T07:41:18Z"); "????.??.??" when unknown. */
static void pgn_date(const char *iso, char out[11]) {
    bool known = iso && strlen(iso) >= 10 && iso[4] == '-' && iso[7] == '-';
    for (int i = 0; i < 10; i++)
        out[i] = !known ? (i == 4 || i == 7 ? '.' : '?') : (i == 4 || i == 7 ? '.' : iso[i]);
    out[10] = '\0';
}

/* The tag section in the standard's export order: the Seven Tag Roster (Event, Site, Date,
 * Round, White, Black, Result), then the other tags in ASCII order of their names. */
static void write_tags(FILE *out, const MatchSettings *s, const PairRecord *pair, int g,
                       const char *opening_id, const char *started) {
    const GameRecord *game = &pair->games[g];
    const char *tigers = s->engines[game->tigers_engine].name;
    const char *sheep = s->engines[1 - game->tigers_engine].name;
    char event[2 * MATCH_NAME_MAX + 32], date[11], round[48], fen[BOARD_TEXT_MAX], plies[16];
    snprintf(event, sizeof event, "tslab abtest %s vs %s", s->engines[0].name, s->engines[1].name);
    pgn_date(started, date);
    snprintf(round, sizeof round, "%lld.%d", (long long)pair->index + 1, g + 1);
    board_to_text(&game->start, fen);
    snprintf(plies, sizeof plies, "%d", game->plies);
    put_tag(out, "Event", event);
    put_tag(out, "Site", "?");
    put_tag(out, "Date", date);
    put_tag(out, "Round", round);
    put_tag(out, "White", sheep); /* the sheep move first */
    put_tag(out, "Black", tigers);
    put_tag(out, "Result", pgn_result_text(game->result));
    put_tag(out, "FEN", fen);
    put_tag(out, "Opening", opening_id);
    put_tag(out, "PlyCount", plies);
    put_tag(out, "SetUp", "1");
    put_tag(out, "Sheep", sheep);
    put_blunders(out, s, game, SIDE_SHEEP);
    put_side_time_control(out, s, game, SIDE_SHEEP);
    put_tag(out, "Termination", game_end_name(game->end));
    put_tag(out, "Tigers", tigers);
    put_blunders(out, s, game, SIDE_TIGERS);
    put_side_time_control(out, s, game, SIDE_TIGERS);
    put_tag(out, "Variant", "bagh-chal");
}

static void write_game(FILE *out, const MatchSettings *s, const PairRecord *pair, int g,
                       const char *opening_id, const char *started) {
    const GameRecord *game = &pair->games[g];
    write_tags(out, s, pair, g, opening_id, started);
    fputc('\n', out);
    int column = 0, number = 1;
    bool sheep_first = game->start.side == SIDE_SHEEP;
    for (int i = 0; i < game->plies; i++) {
        char token[32], move[MOVE_TEXT_MAX];
        bool first_of_pair = (i % 2 == 0) == sheep_first;
        /* Every move has a comment, so in export format every second move of a pair also
         * carries its number ("1... e5-d4"). */
        snprintf(token, sizeof token, first_of_pair ? "%d." : "%d...", number);
        put_token(out, token, &column);
        put_token(out, move_to_text(game->moves[i], move), &column);
        char note[96];
        note_text(&game->notes[i], note, sizeof note);
        put_token(out, note, &column);
        if (!first_of_pair)
            number++;
    }
    put_token(out, pgn_result_text(game->result), &column);
    fputs("\n\n", out);
}

bool pgn_write_pair(FILE *out, const MatchSettings *settings, const PairRecord *pair,
                    const char *opening_id, const char *started) {
    for (int g = 0; g < 2; g++)
        write_game(out, settings, pair, g, opening_id, started);
    return !ferror(out);
}
