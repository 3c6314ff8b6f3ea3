// SPDX-License-Identifier: MIT
#include "clock.h"

#include "parse.h"
#include "saturate.h"

#include <stdio.h>
#include <string.h>

/* "12.345" seconds as 12345 ms, exactly: digits, at most one point and three decimals, at most
 * CLOCK_SECONDS_MAX. what names the part in messages ("the time", "the increment"). */
static bool parse_seconds(const char *option, const char *text, const char *what, int64_t *ms,
                          Error *err) {
    char quoted[ERROR_EXCERPT_MAX];
    if (!*text)
        return error_set(err, "%s: %s is empty", option, what);
    const char *point = strchr(text, '.');
    size_t whole = point ? (size_t)(point - text) : strlen(text);
    size_t decimals = point ? strlen(point + 1) : 0;
    if (whole == 0 || strspn(text, "0123456789") != whole ||
        (point && strspn(point + 1, "0123456789") != decimals) || (point && decimals == 0))
        return error_set(err, "%s: %s '%s' is not a number of seconds", option, what,
                         error_excerpt(text, quoted));
    if (decimals > 3)
        return error_set(err, "%s: %s '%s' is finer than a millisecond", option, what,
                         error_excerpt(text, quoted));
    if (whole > 7)
        return error_set(err, "%s: %s '%s' is more than %d seconds", option, what,
                         error_excerpt(text, quoted), CLOCK_SECONDS_MAX);
    int64_t value = 0;
    for (size_t i = 0; i < whole; i++)
        value = 10 * value + (text[i] - '0');
    if (value > CLOCK_SECONDS_MAX)
        return error_set(err, "%s: %s '%s' is more than %d seconds", option, what,
                         error_excerpt(text, quoted), CLOCK_SECONDS_MAX);
    int64_t fraction = 0;
    for (size_t i = 0; i < 3; i++)
        fraction = 10 * fraction + (i < decimals ? point[1 + i] - '0' : 0);
    *ms = value * 1000 + fraction;
    return true;
}

bool clock_parse_tc(const char *text, TimeControl *tc, Error *err) {
    char copy[CLOCK_TEXT_MAX * 2], quoted[ERROR_EXCERPT_MAX];
    *tc = (TimeControl){0};
    if (strlen(text) >= sizeof copy)
        return error_set(err, "tc=%s: too long for [MOVES/]SECONDS[+INCREMENT]",
                         error_excerpt(text, quoted));
    strcpy(copy, text);
    char option[ERROR_EXCERPT_MAX + 4];
    snprintf(option, sizeof option, "tc=%s", error_excerpt(text, quoted));
    char *time = copy, *slash = strchr(copy, '/'), *plus = strchr(copy, '+');
    if (plus && slash && plus < slash)
        return error_set(err, "%s: the form is [MOVES/]SECONDS[+INCREMENT]", option);
    if (slash) {
        Error inner;
        int64_t moves;
        *slash = '\0';
        if (!parse_int64(copy, 1, 10000, &moves, &inner))
            return error_set(err, "%s: MOVES: %s", option, inner.text);
        tc->moves = (int)moves;
        time = slash + 1;
    }
    if (plus) {
        *plus = '\0';
        if (!parse_seconds(option, plus + 1, "the increment", &tc->increment_ms, err))
            return false;
    }
    if (!parse_seconds(option, time, "the time", &tc->time_ms, err))
        return false;
    if (tc->time_ms == 0 && tc->increment_ms == 0)
        return error_set(err, "%s: no time at all (SECONDS or INCREMENT must be above zero)",
                         option);
    if (tc->moves && tc->time_ms == 0)
        return error_set(err, "%s: a period of %d moves needs time (SECONDS above zero)", option,
                         tc->moves);
    return true;
}

bool clock_parse_st(const char *text, TimeControl *tc, Error *err) {
    char option[ERROR_EXCERPT_MAX + 4], quoted[ERROR_EXCERPT_MAX];
    *tc = (TimeControl){0};
    snprintf(option, sizeof option, "st=%s", error_excerpt(text, quoted));
    if (!parse_seconds(option, text, "the time per move", &tc->fixed_ms, err))
        return false;
    if (tc->fixed_ms == 0)
        return error_set(err, "%s: the time per move must be above zero", option);
    return true;
}

/* Milliseconds as seconds, with no trailing zeros: 100 -> "0.1", 60000 -> "60". */
static void seconds_text(int64_t ms, char *out, size_t size) {
    if (ms % 1000 == 0)
        snprintf(out, size, "%lld", (long long)(ms / 1000));
    else if (ms % 100 == 0)
        snprintf(out, size, "%lld.%01lld", (long long)(ms / 1000), (long long)(ms % 1000 / 100));
    else if (ms % 10 == 0)
        snprintf(out, size, "%lld.%02lld", (long long)(ms / 1000), (long long)(ms % 1000 / 10));
    else
        snprintf(out, size, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
}

char *clock_text(const TimeControl *tc, char out[CLOCK_TEXT_MAX]) {
    char time[24], increment[24], moves[16] = "";
    if (tc->fixed_ms) {
        seconds_text(tc->fixed_ms, time, sizeof time);
        snprintf(out, CLOCK_TEXT_MAX, "%s/move", time);
        return out;
    }
    if (tc->moves)
        snprintf(moves, sizeof moves, "%d/", tc->moves);
    seconds_text(tc->time_ms, time, sizeof time);
    seconds_text(tc->increment_ms, increment, sizeof increment);
    snprintf(out, CLOCK_TEXT_MAX, "%s%s%s%s", moves, time, tc->increment_ms ? "+" : "",
             tc->increment_ms ? increment : "");
    return out;
}

char *clock_pgn_text(const TimeControl *tc, char out[CLOCK_TEXT_MAX]) {
    if (tc->fixed_ms) {
        snprintf(out, CLOCK_TEXT_MAX, "-");
        return out;
    }
    return clock_text(tc, out);
}

Clock clock_start(const TimeControl *tc) {
    if (tc->fixed_ms) {
        int64_t fixed_us = saturate_mul(tc->fixed_ms, 1000);
        return (Clock){.left_us = fixed_us, .pending_us = fixed_us};
    }
    int64_t first_us = saturate_mul(saturate_add(tc->time_ms, tc->increment_ms), 1000);
    return (Clock){.left_us = first_us, .moves_left = tc->moves, .pending_us = first_us};
}

bool clock_after_move(Clock *clock, const TimeControl *tc, int64_t elapsed_us, int64_t margin_ms) {
    /* The move was given what the clock held for it, whether or not the flag falls. */
    clock->given_us = saturate_add(clock->given_us, clock->pending_us);
    clock->pending_us = 0;
    if (elapsed_us > saturate_add(clock->left_us, saturate_mul(margin_ms, 1000)))
        return false;
    if (tc->fixed_ms) {
        clock->left_us = saturate_mul(tc->fixed_ms, 1000);
        clock->pending_us = clock->left_us;
        return true;
    }
    int64_t increment_us = saturate_mul(tc->increment_ms, 1000);
    clock->left_us = elapsed_us >= clock->left_us ? 0 : clock->left_us - elapsed_us;
    clock->left_us = saturate_add(clock->left_us, increment_us);
    clock->pending_us = increment_us;
    if (tc->moves && --clock->moves_left == 0) {
        int64_t period_us = saturate_mul(tc->time_ms, 1000);
        clock->moves_left = tc->moves;
        clock->left_us = saturate_add(clock->left_us, period_us);
        clock->pending_us = saturate_add(clock->pending_us, period_us);
    }
    return true;
}
