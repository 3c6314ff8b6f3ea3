// SPDX-License-Identifier: MIT
#include "program_reply.h"

#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* The next word of *at into word (cut to size - 1 characters); false at the end of the line. */
static bool next_word(const char **at, char *word, size_t size) {
    const char *p = *at;
    while (is_space(*p))
        p++;
    if (!*p)
        return false;
    size_t length = 0;
    while (*p && !is_space(*p)) {
        if (length + 1 < size)
            word[length++] = *p;
        p++;
    }
    word[length] = '\0';
    *at = p;
    return true;
}

/* A count of plain decimal digits, at most limit; false for anything else (a sign, an
 * exponent, 18446744073709551615 when the limit is below it). */
static bool count_value(const char *word, uint64_t limit, uint64_t *out) {
    if (!*word)
        return false;
    uint64_t value = 0;
    for (const char *p = word; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        uint64_t digit = (uint64_t)(*p - '0');
        if (digit > limit || value > (limit - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    *out = value;
    return true;
}

/* A signed whole number (an optional '-') of magnitude at most limit. */
static bool signed_value(const char *word, uint64_t limit, int *out) {
    uint64_t magnitude;
    bool negative = word[0] == '-';
    if (!count_value(word + negative, limit, &magnitude))
        return false;
    *out = negative ? -(int)magnitude : (int)magnitude;
    return true;
}

/* score cp N | score mate N (bounds such as lowerbound after it are words of their own). */
static void parse_score(const char **rest, ProgramReply *out) {
    char unit[8], value[32];
    const char *before = *rest;
    if (!next_word(rest, unit, sizeof unit) || !next_word(rest, value, sizeof value)) {
        *rest = before;
        return;
    }
    bool mate = !strcmp(unit, "mate");
    if ((!mate && strcmp(unit, "cp")) ||
        !signed_value(value, mate ? PROGRAM_REPLY_MATE_MAX : PROGRAM_REPLY_SCORE_MAX, &out->score)) {
        *rest = before; /* not a score: the words may be keys */
        out->has_score = false;
        return;
    }
    out->has_score = true;
    out->score_is_mate = mate;
}

/* value into out when it fits whole; false otherwise. */
static bool copy_word(char *out, size_t size, const char *value) {
    size_t length = strlen(value);
    if (length >= size)
        return false;
    memcpy(out, value, length + 1);
    return true;
}

/* tslab's bench, a line per position: "position ID move M score S depth D nodes N" (the words
 * after "info string bench"), every key once, in any order. */
static void parse_bench_position(const char *rest, int max_depth, ProgramReply *out) {
    char key[16], value[PROGRAM_REPLY_ID_MAX];
    unsigned seen = 0;
    static const char *const keys[] = {"position", "move", "score", "depth", "nodes"};
    enum { KEY_COUNT = sizeof keys / sizeof keys[0] };
    while (next_word(&rest, key, sizeof key)) {
        unsigned k = 0;
        while (k < KEY_COUNT && strcmp(key, keys[k]))
            k++;
        if (k == KEY_COUNT || (seen & (1u << k)) || !next_word(&rest, value, sizeof value))
            return;
        uint64_t number = 0;
        bool ok = true;
        switch (k) {
        case 0:
            ok = copy_word(out->bench_id, sizeof out->bench_id, value);
            break;
        case 1:
            ok = copy_word(out->move, sizeof out->move, value);
            break;
        case 2:
            ok = signed_value(value, PROGRAM_REPLY_SCORE_MAX, &out->score);
            break;
        case 3:
            ok = count_value(value, (uint64_t)max_depth, &number);
            out->depth = (int)number;
            break;
        default:
            ok = count_value(value, PROGRAM_REPLY_NODES_MAX, &out->nodes);
            break;
        }
        if (!ok)
            return;
        seen |= 1u << k;
    }
    out->kind = REPLY_BENCH_POSITION;
    out->has_score = out->has_depth = out->has_nodes = seen == (1u << KEY_COUNT) - 1;
    if (!out->has_nodes)
        out->kind = REPLY_OTHER;
}

/* tslab's bench summary: "... signature HEX" (the words after "info string bench:"). */
static void parse_bench_summary(const char *rest, ProgramReply *out) {
    char word[32];
    while (next_word(&rest, word, sizeof word)) {
        if (strcmp(word, "signature"))
            continue;
        if (!next_word(&rest, word, sizeof word) || strlen(word) != PROGRAM_REPLY_SIGNATURE_LENGTH ||
            strspn(word, "0123456789abcdef") != PROGRAM_REPLY_SIGNATURE_LENGTH)
            return;
        out->kind = REPLY_BENCH_SIGNATURE; /* values of info keys before `string` are not its */
        out->has_nodes = out->has_depth = out->has_score = false;
        memcpy(out->signature, word, PROGRAM_REPLY_SIGNATURE_LENGTH + 1);
        return;
    }
}

/* info ... : nodes N, depth N and score, up to `string`; after it, tslab's bench lines and
 * errors. */
static void parse_info(const char *rest, int max_depth, ProgramReply *out) {
    char key[32], value[32];
    while (next_word(&rest, key, sizeof key)) {
        if (!strcmp(key, "string")) {
            char word[16];
            if (!next_word(&rest, word, sizeof word))
                return;
            if (!strncmp(word, "error", 5))
                out->kind = REPLY_INFO_ERROR;
            else if (!strcmp(word, "bench"))
                parse_bench_position(rest, max_depth, out);
            else if (!strcmp(word, "bench:"))
                parse_bench_summary(rest, out);
            return;
        }
        if (!strcmp(key, "score")) {
            parse_score(&rest, out);
            continue;
        }
        bool nodes = !strcmp(key, "nodes"), depth = !strcmp(key, "depth");
        if (!nodes && !depth)
            continue;
        const char *before = rest;
        uint64_t number;
        if (!next_word(&rest, value, sizeof value))
            return;
        if (nodes && count_value(value, PROGRAM_REPLY_NODES_MAX, &number)) {
            out->has_nodes = true;
            out->nodes = number;
        } else if (depth && count_value(value, (uint64_t)max_depth, &number)) {
            out->has_depth = true;
            out->depth = (int)number;
        } else if (!count_value(value, UINT64_MAX, &number)) {
            rest = before; /* not a number: the word may be the next key */
        }
    }
}

/* "Nodes searched  : N" (the words after "Nodes searched"). */
static void parse_bench(const char *rest, ProgramReply *out) {
    char word[32];
    out->kind = REPLY_BENCH_NODES;
    if (!next_word(&rest, word, sizeof word))
        return;
    const char *number = word;
    if (word[0] == ':' && !word[1]) { /* "Nodes searched : N" */
        if (!next_word(&rest, word, sizeof word))
            return;
    } else if (word[0] == ':') { /* "Nodes searched :N" */
        number = word + 1;
    } else {
        return;
    }
    char extra[2];
    out->has_nodes = count_value(number, PROGRAM_REPLY_NODES_MAX, &out->nodes) &&
                     !next_word(&rest, extra, sizeof extra);
}

void program_reply_parse(const char *line, int max_depth, ProgramReply *out) {
    memset(out, 0, sizeof *out);
    const char *rest = line;
    char first[32];
    if (!next_word(&rest, first, sizeof first))
        return;
    if (!strcmp(first, "uciok")) {
        out->kind = REPLY_UCIOK;
    } else if (!strcmp(first, "readyok")) {
        out->kind = REPLY_READYOK;
    } else if (!strcmp(first, "info")) {
        out->kind = REPLY_INFO;
        parse_info(rest, max_depth, out);
    } else if (!strcmp(first, "bestmove")) {
        out->kind = REPLY_BESTMOVE;
        next_word(&rest, out->move, sizeof out->move);
    } else if (!strcmp(first, "Nodes")) {
        char second[16];
        if (next_word(&rest, second, sizeof second) && !strcmp(second, "searched"))
            parse_bench(rest, out);
    }
}
