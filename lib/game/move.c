// SPDX-License-Identifier: MIT
#include "move.h"

#include "tables.h"

#include <stdlib.h>
#include <string.h>

char *point_to_text(int point, char *out) {
    out[0] = (char)('a' + point % BOARD_SIZE);
    out[1] = (char)('1' + point / BOARD_SIZE);
    out[2] = '\0';
    return out;
}

bool move_is_well_formed(Move m) {
    if (m >> 11 || move_to(m) >= BOARD_POINTS)
        return false;
    if (move_is_place(m))
        return !move_is_jump(m);
    return move_from(m) < BOARD_POINTS && move_from(m) != move_to(m);
}

char *move_to_text(Move m, char *out) {
    if (m == MOVE_NONE) {
        strcpy(out, "none");
        return out;
    }
    if (move_is_place(m))
        return point_to_text(move_to(m), out);
    point_to_text(move_from(m), out);
    out[2] = move_is_jump(m) ? 'x' : '-';
    point_to_text(move_to(m), out + 3);
    return out;
}

/* Describes a character found in input for an error message: "'q'" or "end of text". */
static const char *describe_char(char c, char buf[4]) {
    if (c == '\0')
        return "end of text";
    buf[0] = '\'';
    buf[1] = c;
    buf[2] = '\'';
    buf[3] = '\0';
    return buf;
}

/* Reads a point at text[pos]; returns its index or -1 after setting err. */
static int parse_point(const char *text, size_t pos, Error *err) {
    char file = text[pos], rank = file ? text[pos + 1] : '\0', buf[4];
    if (file < 'a' || file > 'e') {
        error_set(err, "col %zu: expected a file a..e, found %s", pos + 1, describe_char(file, buf));
        return -1;
    }
    if (rank < '1' || rank > '5') {
        error_set(err, "col %zu: expected a rank 1..5, found %s", pos + 2, describe_char(rank, buf));
        return -1;
    }
    return (rank - '1') * BOARD_SIZE + (file - 'a');
}

bool move_from_text(const char *text, Move *out, Error *err) {
    *out = MOVE_NONE; /* defined on failure too: link-time inlining otherwise warns at callers */
    int from = parse_point(text, 0, err);
    if (from < 0)
        return false;
    if (text[2] == '\0') {
        *out = move_place(from);
        return true;
    }
    size_t pos = 2;
    char sep = text[2];
    if (sep == '-' || sep == 'x')
        pos = 3;
    int to = parse_point(text, pos, err);
    if (to < 0)
        return false;
    if (text[pos + 2] != '\0')
        return error_set(err, "col %zu: unexpected '%c' after the move", pos + 3, text[pos + 2]);
    int df = to % BOARD_SIZE - from % BOARD_SIZE, dr = to / BOARD_SIZE - from / BOARD_SIZE;
    int reach = abs(df) > abs(dr) ? abs(df) : abs(dr);
    bool straight = df == 0 || dr == 0 || abs(df) == abs(dr);
    if (!straight || reach == 0 || reach > 2)
        return error_set(err, "col 1: %.*s is not a step or a jump along a line", (int)(pos + 2),
                         text);
    if (reach == 1 && sep == 'x')
        return error_set(err, "col 3: 'x' marks a jump, but the points are neighbours");
    if (reach == 2 && sep == '-')
        return error_set(err, "col 3: '-' marks a step, but the points are two apart (write x)");
    *out = reach == 1 ? move_step(from, to) : move_jump(from, to);
    return true;
}
