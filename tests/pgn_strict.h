// SPDX-License-Identifier: MIT
// A strict reader of the PGN standard's export format (Steven J. Edwards, 1994), written apart
// from lab/output/pgn.c so that the tests read our records as a standard reader would:
//   - each game is a tag section, one empty line, the movetext, one empty line (8.2.1, 8.2.4);
//   - a tag pair is '[', a name (a letter, then letters, digits or '_'), one space, a string
//     with only \" and \\ escaped, ']', one per line (8.1.1, 7);
//   - the Seven Tag Roster comes first, in its order (8.1.1.1-7), every other tag after it in
//     ASCII order of names, no name twice (8.1.1: "export format ... ASCII order");
//   - Date is YYYY.MM.DD with '?' for unknown digits (8.1.1.3), Round digits and periods
//     or '?' or '-' (8.1.1.4), Result one of 1-0, 0-1, 1/2-1/2, * (8.1.1.7); FEN needs SetUp "1"
//     (9.7.1);
//   - movetext lines of at most 79 characters (8.2.2.2), a move number before White's moves
//     and before a Black move that follows a comment (8.2.2.2), numbers that run on, and the
//     game termination marker equal to the Result tag (8.2.5).
// pgn_strict_read fills one PgnGame per game (its tags), or fails with the line and the rule.
#pragma once

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PGN_STRICT_TAGS 32
#define PGN_STRICT_VALUE 256

typedef struct {
    int count;
    char names[PGN_STRICT_TAGS][PGN_STRICT_VALUE];
    char values[PGN_STRICT_TAGS][PGN_STRICT_VALUE];
} PgnGame;

static const char *const PGN_ROSTER[7] = {"Event", "Site",  "Date",  "Round",
                                          "White", "Black", "Result"};

/* The value of a tag of game, or NULL. */
static inline const char *pgn_tag(const PgnGame *game, const char *name) {
    for (int i = 0; i < game->count; i++)
        if (!strcmp(game->names[i], name))
            return game->values[i];
    return NULL;
}

/* One tag line into game; false with why. */
static inline bool pgn_strict_tag(const char *line, PgnGame *game, char *why, size_t size) {
    const char *p = line;
    if (*p++ != '[' || !isalpha((unsigned char)*p))
        return snprintf(why, size, "a tag starts with '[' and a letter"), false;
    if (game->count == PGN_STRICT_TAGS)
        return snprintf(why, size, "more than %d tags", PGN_STRICT_TAGS), false;
    char *name = game->names[game->count], *value = game->values[game->count];
    size_t n = 0;
    while (isalnum((unsigned char)*p) || *p == '_') {
        if (n + 1 == PGN_STRICT_VALUE)
            return snprintf(why, size, "tag name too long"), false;
        name[n++] = *p++;
    }
    name[n] = '\0';
    if (p[0] != ' ' || p[1] != '"')
        return snprintf(why, size, "tag %s: one space, then a quoted value", name), false;
    p += 2;
    n = 0;
    for (; *p && *p != '"'; p++) {
        if (!isprint((unsigned char)*p))
            return snprintf(why, size, "tag %s: a character that does not print", name), false;
        if (*p == '\\' && p[1] != '"' && p[1] != '\\')
            return snprintf(why, size, "tag %s: backslash escapes only \" and \\", name), false;
        if (*p == '\\')
            p++;
        if (n + 1 == PGN_STRICT_VALUE)
            return snprintf(why, size, "tag %s: value too long", name), false;
        value[n++] = *p;
    }
    value[n] = '\0';
    if (p[0] != '"' || p[1] != ']' || p[2] != '\0')
        return snprintf(why, size, "tag %s: the line ends with \"]", name), false;
    for (int i = 0; i < game->count; i++)
        if (!strcmp(game->names[i], name))
            return snprintf(why, size, "tag %s twice", name), false;
    int index = game->count++;
    if (index < 7 && strcmp(name, PGN_ROSTER[index]))
        return snprintf(why, size, "tag %d is %s: the Seven Tag Roster has %s there", index + 1,
                        name, PGN_ROSTER[index]),
               false;
    if (index > 7 && strcmp(game->names[index - 1], name) >= 0)
        return snprintf(why, size, "tag %s after %s: not in ASCII order", name,
                        game->names[index - 1]),
               false;
    return true;
}

static inline bool pgn_date_ok(const char *date) {
    if (strlen(date) != 10 || date[4] != '.' || date[7] != '.')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)date[i]) && date[i] != '?')
            return false;
    return true;
}

static inline bool pgn_round_ok(const char *round) {
    if (!strcmp(round, "?") || !strcmp(round, "-"))
        return true;
    bool digit = false;
    for (const char *p = round; *p; p++) {
        if (*p == '.' && !digit)
            return false;
        digit = *p != '.';
        if (*p != '.' && !isdigit((unsigned char)*p))
            return false;
    }
    return digit;
}

static inline bool pgn_result_ok(const char *result) {
    return !strcmp(result, "1-0") || !strcmp(result, "0-1") || !strcmp(result, "1/2-1/2") ||
           !strcmp(result, "*");
}

static inline bool pgn_strict_tags_complete(const PgnGame *game, char *why, size_t size) {
    if (game->count < 7)
        return snprintf(why, size, "only %d tags: the Seven Tag Roster is incomplete", game->count),
               false;
    if (!pgn_date_ok(pgn_tag(game, "Date")))
        return snprintf(why, size, "Date \"%.64s\" is not YYYY.MM.DD", pgn_tag(game, "Date")),
               false;
    if (!pgn_round_ok(pgn_tag(game, "Round")))
        return snprintf(why, size, "Round \"%.64s\"", pgn_tag(game, "Round")), false;
    if (!pgn_result_ok(pgn_tag(game, "Result")))
        return snprintf(why, size, "Result \"%.64s\"", pgn_tag(game, "Result")), false;
    const char *setup = pgn_tag(game, "SetUp");
    if (pgn_tag(game, "FEN") && (!setup || strcmp(setup, "1")))
        return snprintf(why, size, "a FEN tag without SetUp \"1\""), false;
    return true;
}

/* The movetext's tokens, in order: numbers run on, a move follows a number or a White move,
 * a Black move after a comment has its "N..." number, the last token is the result. */
typedef struct {
    long number;       /* the last move number indication */
    bool black_next;   /* the next move is Black's */
    bool after_number; /* the last token was a number indication */
    bool after_comment;
    bool ended;
    int moves;
} PgnMovetext;

static inline bool pgn_strict_token(PgnMovetext *m, const char *token, const PgnGame *game,
                                    char *why, size_t size) {
    if (m->ended)
        return snprintf(why, size, "'%s' after the game termination marker", token), false;
    if (token[0] == '{') {
        m->after_comment = true;
        m->after_number = false;
        return true;
    }
    if (pgn_result_ok(token)) {
        if (strcmp(token, pgn_tag(game, "Result")))
            return snprintf(why, size, "termination marker %s, Result tag %s", token,
                            pgn_tag(game, "Result")),
                   false;
        m->ended = true;
        return true;
    }
    if (isdigit((unsigned char)token[0])) {
        char *end;
        long number = strtol(token, &end, 10);
        bool black = !strcmp(end, "..."), white = !strcmp(end, ".");
        if (!black && !white)
            return snprintf(why, size, "move number '%s'", token), false;
        if (m->moves == 0 && !m->after_number) { /* the first move may be Black's: "1..." */
            m->black_next = black;
            m->number = number;
            m->after_number = true;
            return true;
        }
        if (number != m->number + (white ? 1 : 0) || white == m->black_next)
            return snprintf(why, size, "move number '%s' out of turn", token), false;
        m->number = number;
        m->after_number = true;
        return true;
    }
    if (!m->after_number && (!m->black_next || m->after_comment))
        return snprintf(why, size, "move '%s' without its move number", token), false;
    m->moves++;
    m->black_next = !m->black_next;
    m->after_number = m->after_comment = false;
    return true;
}

/* Reads text; calls on_game(game, context) for each game (may be NULL). Returns the number of
 * games, or -1 with why naming the line. */
static inline int pgn_strict_read(const char *text, void (*on_game)(const PgnGame *, void *),
                                  void *context, char *why, size_t size) {
    char *copy = strdup(text), *cursor = copy, reason[300];
    int games = 0, line_number = 0;
    enum { TAGS, MOVETEXT } part = TAGS;
    PgnGame game = {0};
    PgnMovetext moves = {0};
    bool ok = copy != NULL;
    while (ok && cursor && *cursor) {
        char *line = cursor, *newline = strchr(cursor, '\n');
        if (!newline) {
            snprintf(reason, sizeof reason, "the last line has no newline");
            ok = false;
            break;
        }
        *newline = '\0';
        cursor = newline + 1;
        line_number++;
        if (part == TAGS) {
            if (line[0] == '\0') {
                ok = pgn_strict_tags_complete(&game, reason, sizeof reason);
                part = MOVETEXT;
                moves = (PgnMovetext){0};
            } else {
                ok = pgn_strict_tag(line, &game, reason, sizeof reason);
            }
            continue;
        }
        if (line[0] == '\0') {
            if (!moves.ended) {
                snprintf(reason, sizeof reason, "the movetext has no termination marker");
                ok = false;
                break;
            }
            if (on_game)
                on_game(&game, context);
            games++;
            game = (PgnGame){0};
            part = TAGS;
            continue;
        }
        if (strlen(line) > 79 || line[0] == ' ' || line[strlen(line) - 1] == ' ') {
            snprintf(reason, sizeof reason,
                     "a movetext line of more than 79 characters, or "
                     "with spaces at an end");
            ok = false;
            break;
        }
        for (char *p = line; ok && *p;) {
            char token[PGN_STRICT_VALUE];
            size_t n = 0;
            if (*p == '{') { /* comments here never span lines */
                char *close = strchr(p, '}');
                if (!close) {
                    snprintf(reason, sizeof reason, "a comment not closed on its line");
                    ok = false;
                    break;
                }
                n = (size_t)(close - p + 1);
            } else {
                while (p[n] && p[n] != ' ')
                    n++;
            }
            if (n >= sizeof token) {
                snprintf(reason, sizeof reason, "a token too long");
                ok = false;
                break;
            }
            memcpy(token, p, n);
            token[n] = '\0';
            ok = pgn_strict_token(&moves, token, &game, reason, sizeof reason);
            p += n;
            if (*p == ' ')
                p++;
        }
    }
    if (ok && part != TAGS) {
        snprintf(reason, sizeof reason, "the file ends inside a game (no empty line after it)");
        ok = false;
    }
    free(copy);
    if (!ok) {
        snprintf(why, size, "line %d: %s", line_number, copy ? reason : "out of memory");
        return -1;
    }
    return games;
}
