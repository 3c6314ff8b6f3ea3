// SPDX-License-Identifier: MIT
#include "board.h"

#include "movegen.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define BIT(point) (1u << (point))

Board board_start(void) {
    return (Board){
        .tigers = BIT(0) | BIT(4) | BIT(20) | BIT(24),
        .sheep = 0,
        .in_hand = SHEEP_TOTAL,
        .captured = 0,
        .side = SIDE_SHEEP,
    };
}

bool board_is_consistent(const Board *b) {
    return popcount32(b->tigers) == TIGERS_TOTAL && (b->tigers & b->sheep) == 0 &&
           ((b->tigers | b->sheep) & ~BOARD_ALL) == 0 && b->in_hand <= SHEEP_TOTAL &&
           popcount32(b->sheep) + b->in_hand + b->captured == SHEEP_TOTAL &&
           (b->side == SIDE_SHEEP || b->side == SIDE_TIGERS);
}

/* Parser state: the text and the index of the next character. Columns in errors are 1-based. */
typedef struct {
    const char *text;
    size_t pos;
} Cursor;

static bool skip_spaces(Cursor *c, Error *err, const char *next_field) {
    if (c->text[c->pos] != ' ')
        return error_set(err, "col %zu: expected a space before the %s", c->pos + 1, next_field);
    while (c->text[c->pos] == ' ')
        c->pos++;
    if (c->text[c->pos] == '\0')
        return error_set(err, "col %zu: missing the %s", c->pos + 1, next_field);
    return true;
}

/* Reads a count 0..SHEEP_TOTAL made of digits only (no sign, at most 3 digits). */
static bool parse_count(Cursor *c, const char *what, int *out, Error *err) {
    size_t start = c->pos;
    int value = 0;
    while (isdigit((unsigned char)c->text[c->pos])) {
        if (c->pos - start == 3)
            return error_set(err, "col %zu: %s has too many digits", start + 1, what);
        value = value * 10 + (c->text[c->pos] - '0');
        c->pos++;
    }
    if (c->pos == start)
        return error_set(err, "col %zu: expected the %s (a number 0..%d)", start + 1, what,
                         SHEEP_TOTAL);
    if (value > SHEEP_TOTAL)
        return error_set(err, "col %zu: %s is %d, at most %d", start + 1, what, value,
                         SHEEP_TOTAL);
    *out = value;
    return true;
}

/* Reads the 5 ranks, rank 5 first, into b's masks. */
static bool parse_ranks(Cursor *c, Board *b, Error *err) {
    int rank = BOARD_SIZE - 1, file = 0;
    bool last_was_digit = false;
    for (;; c->pos++) {
        char ch = c->text[c->pos];
        size_t col = c->pos + 1;
        if (ch == '/' || ch == ' ' || ch == '\0') {
            if (file != BOARD_SIZE)
                return error_set(err, "col %zu: rank %d has %d points, expected %d", col,
                                 rank + 1, file, BOARD_SIZE);
            if (ch != '/')
                break;
            if (rank == 0)
                return error_set(err, "col %zu: more than %d ranks", col, BOARD_SIZE);
            rank--;
            file = 0;
            last_was_digit = false;
            continue;
        }
        if (ch >= '1' && ch <= '5') {
            if (last_was_digit)
                return error_set(err, "col %zu: two digits in a row (write one run of empty points)",
                                 col);
            file += ch - '0';
            last_was_digit = true;
        } else if (ch == 'T' || ch == 'S') {
            if (file < BOARD_SIZE) {
                uint32_t bit = BIT(rank * BOARD_SIZE + file);
                if (ch == 'T')
                    b->tigers |= bit;
                else
                    b->sheep |= bit;
            }
            file++;
            last_was_digit = false;
        } else if (isdigit((unsigned char)ch)) {
            return error_set(err, "col %zu: run of empty points '%c' out of range 1..5", col, ch);
        } else {
            return error_set(err, "col %zu: unexpected '%c' in the board (expected T, S, 1-5 or /)",
                             col, ch);
        }
        if (file > BOARD_SIZE)
            return error_set(err, "col %zu: rank %d has more than %d points", col, rank + 1,
                             BOARD_SIZE);
    }
    if (rank != 0)
        return error_set(err, "col %zu: %d ranks, expected %d", c->pos + 1, BOARD_SIZE - rank,
                         BOARD_SIZE);
    return true;
}

bool board_from_text(const char *text, Board *out, Error *err) {
    if (text == NULL || text[0] == '\0')
        return error_set(err, "col 1: empty position text");
    size_t length = strnlen(text, BOARD_TEXT_INPUT_MAX + 1);
    if (length > BOARD_TEXT_INPUT_MAX)
        return error_set(err, "col %d: position text longer than %d characters",
                         BOARD_TEXT_INPUT_MAX + 1, BOARD_TEXT_INPUT_MAX);
    Cursor c = {text, 0};
    Board b = {0};
    if (!parse_ranks(&c, &b, err))
        return false;
    int tigers = popcount32(b.tigers), on_board = popcount32(b.sheep);
    if (tigers != TIGERS_TOTAL)
        return error_set(err, "col 1: %d tigers, expected %d", tigers, TIGERS_TOTAL);
    if (on_board > SHEEP_TOTAL)
        return error_set(err, "col 1: %d sheep on the board, at most %d", on_board, SHEEP_TOTAL);

    if (!skip_spaces(&c, err, "side to move (s or t)"))
        return false;
    char side = text[c.pos];
    if (side != 's' && side != 't')
        return error_set(err, "col %zu: side to move must be s or t, found '%c'", c.pos + 1, side);
    b.side = side == 's' ? SIDE_SHEEP : SIDE_TIGERS;
    c.pos++;

    int in_hand, captured;
    if (!skip_spaces(&c, err, "sheep in hand") || !parse_count(&c, "sheep in hand", &in_hand, err))
        return false;
    if (!skip_spaces(&c, err, "sheep captured"))
        return false;
    size_t captured_col = c.pos + 1;
    if (!parse_count(&c, "sheep captured", &captured, err))
        return false;
    while (text[c.pos] == ' ' || text[c.pos] == '\t' || text[c.pos] == '\n' || text[c.pos] == '\r')
        c.pos++;
    if (text[c.pos] != '\0')
        return error_set(err, "col %zu: unexpected text after the captured count", c.pos + 1);
    if (on_board + in_hand + captured != SHEEP_TOTAL)
        return error_set(err, "col %zu: %d sheep on the board + %d in hand + %d captured = %d, "
                         "expected %d", captured_col, on_board, in_hand, captured,
                         on_board + in_hand + captured, SHEEP_TOTAL);
    b.in_hand = (uint8_t)in_hand;
    b.captured = (uint8_t)captured;
    *out = b;
    return true;
}

char *board_to_text(const Board *b, char *out) {
    char *p = out;
    for (int rank = BOARD_SIZE - 1; rank >= 0; rank--) {
        int run = 0;
        for (int file = 0; file < BOARD_SIZE; file++) {
            uint32_t bit = BIT(rank * BOARD_SIZE + file);
            char piece = (b->tigers & bit) ? 'T' : (b->sheep & bit) ? 'S' : 0;
            if (!piece) {
                run++;
                continue;
            }
            if (run)
                *p++ = (char)('0' + run);
            run = 0;
            *p++ = piece;
        }
        if (run)
            *p++ = (char)('0' + run);
        if (rank > 0)
            *p++ = '/';
    }
    sprintf(p, " %c %d %d", b->side == SIDE_SHEEP ? 's' : 't', b->in_hand, b->captured);
    return out;
}

/* Names why m is not in the legal list: the first rule it breaks, in the order a player
 * would check them. Only called for moves already known to be illegal. */
static bool explain_illegal(const Board *b, Move m, Error *err) {
    char from[3], to[3], over[3];
    if (!move_is_well_formed(m))
        return error_set(err, "code %#x is not a move", (unsigned)m);
    uint32_t to_bit = BIT(move_to(m));
    point_to_text(move_to(m), to);
    if (move_is_place(m)) {
        if (b->side == SIDE_TIGERS)
            return error_set(err, "tigers cannot place: %s is a placement", to);
        if (b->in_hand == 0)
            return error_set(err, "no sheep in hand to place on %s", to);
        return error_set(err, "%s is occupied", to);
    }
    point_to_text(move_from(m), from);
    if (b->side == SIDE_SHEEP && b->in_hand > 0)
        return error_set(err, "sheep must place while %d are in hand", b->in_hand);
    uint32_t own = b->side == SIDE_TIGERS ? b->tigers : b->sheep;
    if (!(own & BIT(move_from(m))))
        return error_set(err, "no %s on %s", b->side == SIDE_TIGERS ? "tiger" : "sheep", from);
    if ((b->tigers | b->sheep) & to_bit)
        return error_set(err, "%s is occupied", to);
    if (move_is_jump(m) && b->side == SIDE_SHEEP)
        return error_set(err, "sheep cannot jump");
    if (move_is_jump(m)) {
        point_to_text(move_over(m), over);
        if (!(TABLE_ADJACENT[move_over(m)] & BIT(move_from(m))) ||
            !(TABLE_ADJACENT[move_over(m)] & to_bit))
            return error_set(err, "no line from %s over %s to %s", from, over, to);
        return error_set(err, "no sheep on %s to jump over", over);
    }
    if (!(TABLE_ADJACENT[move_from(m)] & to_bit))
        return error_set(err, "%s and %s are not joined by a line", from, to);
    return error_set(err, "illegal move");
}

bool board_check_move(const Board *b, Move m, Error *err) {
    GameEnd end = board_game_end(b);
    if (end != GAME_END_NONE)
        return error_set(err, "the game is over (%s)", game_end_name(end));
    MoveList list;
    movegen_all(b, &list);
    if (movelist_find(&list, m) >= 0)
        return true;
    return explain_illegal(b, m, err);
}

GameEnd board_game_end(const Board *b) {
    if (b->captured >= CAPTURES_TO_WIN)
        return GAME_END_CAPTURES;
    if (movegen_count(b) == 0)
        return b->side == SIDE_TIGERS ? GAME_END_TIGERS_TRAPPED : GAME_END_SHEEP_BLOCKED;
    return GAME_END_NONE;
}

GameResult game_end_result(GameEnd end) {
    switch (end) {
    case GAME_END_CAPTURES:
    case GAME_END_SHEEP_BLOCKED:
        return RESULT_TIGERS_WIN;
    case GAME_END_TIGERS_TRAPPED:
        return RESULT_SHEEP_WIN;
    case GAME_END_REPETITION:
    case GAME_END_MAX_MOVES:
        return RESULT_DRAW;
    case GAME_END_NONE:
    case GAME_END_TABLEBASE:
    case GAME_END_TIME_FORFEIT:
    case GAME_END_DISCONNECT:
    case GAME_END_STALL:
    case GAME_END_ILLEGAL_MOVE:
        break;
    }
    return RESULT_NONE;
}

const char *game_end_name(GameEnd end) {
    static const char *const names[] = {
        [GAME_END_NONE] = "none",
        [GAME_END_CAPTURES] = "five captures",
        [GAME_END_TIGERS_TRAPPED] = "tigers trapped",
        [GAME_END_SHEEP_BLOCKED] = "sheep blocked",
        [GAME_END_REPETITION] = "threefold repetition",
        [GAME_END_MAX_MOVES] = "max moves",
        [GAME_END_TABLEBASE] = "tablebase",
        [GAME_END_TIME_FORFEIT] = "time forfeit",
        [GAME_END_DISCONNECT] = "disconnect",
        [GAME_END_STALL] = "stall",
        [GAME_END_ILLEGAL_MOVE] = "illegal move",
    };
    return (unsigned)end < sizeof names / sizeof names[0] ? names[end] : "?";
}

const char *game_result_name(GameResult result) {
    static const char *const names[] = {
        [RESULT_NONE] = "*",
        [RESULT_TIGERS_WIN] = "tigers win",
        [RESULT_SHEEP_WIN] = "sheep win",
        [RESULT_DRAW] = "draw",
    };
    return (unsigned)result < sizeof names / sizeof names[0] ? names[result] : "?";
}
