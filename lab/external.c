// SPDX-License-Identifier: MIT
#include "external.h"

#include "cli.h"
#include "textbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long an engine that lost on time gets to send its late bestmove and a readyok. */
#define EXTERNAL_RESYNC_MS 2000
/* How long `quit` is given before the process is killed. */
#define EXTERNAL_QUIT_GRACE_MS 1000
/* Reads wait in slices this long, so that a stopping run is not held up by a long deadline. */
#define EXTERNAL_ABORT_SLICE_MS 100

static bool starts_with_word(const char *line, const char *word) {
    size_t length = strlen(word);
    return !strncmp(line, word, length) && (line[length] == '\0' || line[length] == ' ');
}

/* Reads lines until one starts with the word `want`, the deadline passes or the output closes. */
static EngineRead wait_for(ExternalEngine *x, const char *want, int64_t deadline, char *line,
                           size_t size) {
    for (;;) {
        EngineRead got = engine_process_read(&x->process, deadline, line, size);
        if (got != ENGINE_READ_LINE || starts_with_word(line, want))
            return got;
    }
}

/* Why the engine went away, for a message: "exit status 3", "could not be run: ...". */
static void ending(ExternalEngine *x, char *out, size_t size) {
    engine_process_ending(&x->process, 500, out, size);
}

/* Sends a command and waits for its answer within the startup time. An error the engine
 * reports on the way (`info string error...`, e.g. an option it refused) fails the step: a
 * match must not run on a configuration other than the one asked for. */
static bool handshake_step(ExternalEngine *x, const char *send, const char *want, Error *err) {
    char line[512], how[96], refused[sizeof line] = "";
    int64_t deadline = cli_now_ms() + x->spec->external.startup;
    EngineRead got = ENGINE_READ_CLOSED;
    if (engine_process_send(&x->process, send))
        while ((got = engine_process_read(&x->process, deadline, line, sizeof line)) ==
                   ENGINE_READ_LINE &&
               !starts_with_word(line, want))
            if (!refused[0] && !strncmp(line, "info string error", 17))
                snprintf(refused, sizeof refused, "%s", line);
    if (got == ENGINE_READ_LINE && refused[0])
        return error_set(err, "engine %s (%s) reported during start-up: '%s' (check its "
                              "option.NAME=VALUE)",
                         x->spec->name, x->spec->external.cmd, refused);
    if (got == ENGINE_READ_LINE)
        return true;
    if (got == ENGINE_READ_TIMEOUT)
        return error_set(err, "engine %s (%s) did not answer '%s' with '%s' within %" PRId64
                              " ms (startup=MS sets the limit)",
                         x->spec->name, x->spec->external.cmd, send, want,
                         x->spec->external.startup);
    ending(x, how, sizeof how);
    return error_set(err, "engine %s (%s) exited before answering '%s' (%s; dir=%s)",
                     x->spec->name, x->spec->external.cmd, send, how,
                     x->spec->external.dir[0] ? x->spec->external.dir : ".");
}

/* One setoption line per NAME=VALUE word of the spec's options, in order. */
static bool send_options(ExternalEngine *x, Error *err) {
    char options[EXTERNAL_OPTIONS_MAX];
    snprintf(options, sizeof options, "%s", x->spec->external.options);
    char *save = NULL;
    for (char *word = strtok_r(options, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        char *equals = strchr(word, '=');
        if (!equals)
            continue; /* checked when the options were read */
        *equals = '\0';
        char line[EXTERNAL_OPTIONS_MAX + 32];
        snprintf(line, sizeof line, "setoption name %s value %s", word, equals + 1);
        if (!engine_process_send(&x->process, line))
            return error_set(err, "engine %s (%s) exited while its options were set",
                             x->spec->name, x->spec->external.cmd);
    }
    return true;
}

bool external_start(ExternalEngine *x, const EngineSpec *spec, Error *err) {
    memset(x, 0, sizeof *x);
    x->spec = spec;
    const ExternalSpec *e = &spec->external;
    if (!engine_process_start(&x->process, e->cmd, e->args, e->dir, err))
        return false;
    x->running = true;
    if (!handshake_step(x, "uci", "uciok", err) || !send_options(x, err) ||
        !handshake_step(x, "isready", "readyok", err)) {
        external_stop(x);
        return false;
    }
    return true;
}

bool external_new_game(ExternalEngine *x, Error *err) {
    if (!engine_process_send(&x->process, "ucinewgame"))
        return error_set(err, "engine %s (%s) has exited", x->spec->name, x->spec->external.cmd);
    return handshake_step(x, "isready", "readyok", err);
}

/* `position fen START moves ...` for the game so far: malloc'd, NULL when memory is short. */
static char *position_line(const Game *game) {
    size_t size = 32 + BOARD_TEXT_MAX + (size_t)game->plies * MOVE_TEXT_MAX;
    char *text = malloc(size);
    if (!text)
        return NULL;
    TextBuf buf = textbuf(text, size);
    char start[BOARD_TEXT_MAX], move[MOVE_TEXT_MAX];
    textbuf_printf(&buf, "position fen %s", board_to_text(&game->positions[0], start));
    if (game->plies)
        textbuf_printf(&buf, " moves");
    for (int i = 0; i < game->plies; i++)
        textbuf_printf(&buf, " %s", move_to_text(game->moves[i], move));
    return text;
}

/* The value after `key` in an info line (0 when absent). */
static bool info_value(const char *line, const char *key, uint64_t *out) {
    size_t length = strlen(key);
    for (const char *p = strstr(line, key); p; p = strstr(p + 1, key))
        if (p[-1] == ' ' && p[length] == ' ') {
            char *end;
            unsigned long long value = strtoull(p + length + 1, &end, 10);
            if (end == p + length + 1)
                return false;
            *out = value;
            return true;
        }
    return false;
}

ExternalOutcome external_play(ExternalEngine *x, const Game *game, const atomic_bool *abort,
                              Move *move, uint64_t *nodes, int *depth, char *detail,
                              size_t size) {
    const ExternalSpec *e = &x->spec->external;
    const SearchConfig *limits = &x->spec->config;
    *move = MOVE_NONE;
    *nodes = 0;
    *depth = 0;
    detail[0] = '\0';
    char *position = position_line(game);
    if (!position) {
        snprintf(detail, size, "out of memory for the position line");
        return EXTERNAL_DISCONNECT;
    }
    char go[128];
    int n = snprintf(go, sizeof go, "go");
    if (limits->depth)
        n += snprintf(go + n, sizeof go - (size_t)n, " depth %d", limits->depth);
    if (limits->nodes)
        n += snprintf(go + n, sizeof go - (size_t)n, " nodes %" PRId64, limits->nodes);
    if (limits->movetime)
        snprintf(go + n, sizeof go - (size_t)n, " movetime %" PRId64, limits->movetime);
    bool sent = engine_process_send(&x->process, position) && engine_process_send(&x->process, go);
    free(position);
    if (!sent) {
        snprintf(detail, size, "it had exited");
        return EXTERNAL_DISCONNECT;
    }
    int64_t started = cli_now_ms();
    int64_t deadline = started + (limits->movetime ? limits->movetime + e->timemargin : e->stall);
    char line[512];
    for (;;) {
        if (atomic_load_explicit(abort, memory_order_relaxed))
            return EXTERNAL_ABORTED;
        int64_t slice = cli_now_ms() + EXTERNAL_ABORT_SLICE_MS;
        EngineRead got =
            engine_process_read(&x->process, slice < deadline ? slice : deadline, line,
                                sizeof line);
        if (got == ENGINE_READ_CLOSED) {
            char how[96];
            ending(x, how, sizeof how);
            snprintf(detail, size, "it exited while thinking (%s)", how);
            return EXTERNAL_DISCONNECT;
        }
        if (got == ENGINE_READ_TIMEOUT) {
            if (cli_now_ms() < deadline)
                continue;
            snprintf(detail, size, "no bestmove after %" PRId64 " ms", cli_now_ms() - started);
            return limits->movetime ? EXTERNAL_TIME_LOSS : EXTERNAL_STALL;
        }
        uint64_t value;
        if (starts_with_word(line, "info")) {
            if (info_value(line, "nodes", &value))
                *nodes = value;
            if (info_value(line, "depth", &value) && value <= SEARCH_MAX_DEPTH)
                *depth = (int)value;
            continue;
        }
        if (!starts_with_word(line, "bestmove"))
            continue; /* anything else is not ours to judge */
        char text[32] = "";
        sscanf(line + 8, "%31s", text);
        Error why;
        if (!move_from_text(text, move, &why) ||
            !board_check_move(game_current(game), *move, &why)) {
            char quoted[ERROR_EXCERPT_MAX];
            snprintf(detail, size, "bestmove '%s': %s", error_excerpt(text, quoted), why.text);
            *move = MOVE_NONE;
            return EXTERNAL_ILLEGAL;
        }
        return EXTERNAL_MOVED;
    }
}

bool external_resync(ExternalEngine *x) {
    char line[512];
    if (!engine_process_send(&x->process, "stop"))
        return false;
    int64_t deadline = cli_now_ms() + EXTERNAL_RESYNC_MS;
    if (wait_for(x, "bestmove", deadline, line, sizeof line) != ENGINE_READ_LINE)
        return false;
    return engine_process_send(&x->process, "isready") &&
           wait_for(x, "readyok", deadline, line, sizeof line) == ENGINE_READ_LINE;
}

bool external_restart(ExternalEngine *x, Error *err) {
    const EngineSpec *spec = x->spec;
    external_stop(x);
    return external_start(x, spec, err);
}

bool external_bench(ExternalEngine *x, uint64_t *nodes, Error *err) {
    char line[512];
    if (!engine_process_send(&x->process, "bench"))
        return error_set(err, "engine %s has exited", x->spec->name);
    int64_t deadline = cli_now_ms() + x->spec->external.stall;
    for (;;) {
        EngineRead got = engine_process_read(&x->process, deadline, line, sizeof line);
        if (got == ENGINE_READ_TIMEOUT)
            return error_set(err, "engine %s: no 'Nodes searched' line within %" PRId64
                                  " ms of 'bench' (stall=MS sets the limit)",
                             x->spec->name, x->spec->external.stall);
        if (got == ENGINE_READ_CLOSED)
            return error_set(err, "engine %s exited during 'bench'", x->spec->name);
        if (!strncmp(line, "Nodes searched", 14)) {
            const char *colon = strchr(line, ':');
            char *end;
            unsigned long long value = colon ? strtoull(colon + 1, &end, 10) : 0;
            if (!colon || end == colon + 1)
                return error_set(err, "engine %s: unreadable '%s'", x->spec->name, line);
            *nodes = value;
            return true;
        }
    }
}

bool external_check_bench(const EngineSpec *spec, FILE *out, Error *err) {
    ExternalEngine x;
    if (!external_start(&x, spec, err))
        return false;
    uint64_t nodes = 0;
    bool ok = external_bench(&x, &nodes, err);
    external_stop(&x);
    if (!ok)
        return false;
    fprintf(out, "engine %s (%s): bench %" PRIu64 " nodes%s\n", spec->name, spec->external.cmd,
            nodes, spec->external.bench ? (nodes == (uint64_t)spec->external.bench ? ", as expected"
                                                                                   : "")
                                        : "");
    fflush(out);
    if (spec->external.bench && nodes != (uint64_t)spec->external.bench)
        return error_set(err, "engine %s: bench gives %" PRIu64 " nodes, bench=%" PRId64
                              " expects %" PRId64 ": another build than the one meant (the run "
                              "does not start)",
                         spec->name, nodes, spec->external.bench, spec->external.bench);
    return true;
}

void external_stop(ExternalEngine *x) {
    if (!x->running)
        return;
    engine_process_stop(&x->process, EXTERNAL_QUIT_GRACE_MS);
    x->running = false;
}
