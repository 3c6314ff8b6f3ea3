// SPDX-License-Identifier: MIT
#include "program.h"

#include "cli.h"
#include "program_reply.h"
#include "search.h"
#include "textbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long `quit` is given before the process is killed. */
#define PROGRAM_QUIT_GRACE_MS 1000

/* How an engine whose output closed has ended, into how ("exit status 3", ...); false when the
 * process still runs (it closed its output only; it is stopped later). */
static bool ending(EngineProgram *x, char *how, size_t size) {
    program_process_ending(&x->process, 500, how, size);
    return strcmp(how, "still running") != 0;
}

/* What an engine's absence is called in a message, once its output or input has closed. */
static void describe_closed(EngineProgram *x, const char *waiting_for, char *out, size_t size) {
    char how[160];
    if (ending(x, how, sizeof how))
        snprintf(out, size, "it exited before %s (%s)", waiting_for, how);
    else
        snprintf(out, size, "it closed its output before %s (the process still ran: stopped)",
                 waiting_for);
}

/* Sends a line within the deadline; on failure detail says what happened (an
 * engine that stops reading its input is as stuck as one that stops answering). */
static ProgramIo send_line(EngineProgram *x, const char *line, int64_t deadline, char *detail,
                          size_t size) {
    detail[0] = '\0';
    ProgramIo sent = program_process_send(&x->process, line, deadline);
    if (sent == PROGRAM_IO_TIMEOUT)
        snprintf(detail, size, "it stopped reading its input ('%.40s' could not be written)",
                 line);
    else if (sent == PROGRAM_IO_CLOSED)
        describe_closed(x, "it could read a command", detail, size);
    return sent;
}

/* Reads lines until one of kind `want`, the deadline, the end or an abort. A reported error
 * (`info string error...`, e.g. an option it refused) on the way is kept in refused. */
/* The program's next line within deadline (kept in line, for messages) and what it says. */
static ProgramIo read_reply(EngineProgram *x, int64_t deadline, char *line, size_t size,
                            ProgramReply *reply) {
    ProgramIo got = program_process_read(&x->process, deadline, line, size);
    if (got == PROGRAM_IO_OK)
        program_reply_parse(line, SEARCH_MAX_DEPTH, reply);
    return got;
}

static ProgramIo wait_for(EngineProgram *x, ProgramReplyKind want, int64_t deadline,
                         char *refused, size_t refused_size) {
    char line[512];
    for (;;) {
        ProgramReply reply;
        ProgramIo got = read_reply(x, deadline, line, sizeof line, &reply);
        if (got != PROGRAM_IO_OK)
            return got;
        if (reply.kind == want)
            return PROGRAM_IO_OK;
        if (reply.kind == REPLY_INFO_ERROR && refused && !refused[0])
            snprintf(refused, refused_size, "%s", line);
    }
}

/* The engine's name and program, as every message starts. */
#define WHO_FORMAT "engine %s (%s)"
#define WHO(x) (x)->spec->name, (x)->spec->program.cmd

/* Sends a command and waits for its answer within the startup time. An error the engine
 * reports on the way fails the step: a match must not run on a configuration other than the
 * one asked for. */
static bool handshake_step(EngineProgram *x, const char *send, ProgramReplyKind want,
                           const char *want_text, Error *err) {
    char refused[512] = "", detail[256];
    int64_t deadline = cli_now_ms() + x->spec->program.startup;
    ProgramIo got = send_line(x, send, deadline, detail, sizeof detail);
    if (got == PROGRAM_IO_OK)
        got = wait_for(x, want, deadline, refused, sizeof refused);
    if (got == PROGRAM_IO_OK && refused[0])
        return error_set(err, WHO_FORMAT " reported during start-up: '%s' (check its %s)",
                         WHO(x), refused,
                         x->spec->program.options_given_as ? x->spec->program.options_given_as
                                                           : "option.NAME=VALUE");
    if (got == PROGRAM_IO_OK)
        return true;
    if (got == PROGRAM_IO_ABORTED)
        return error_set(err, "aborted");
    if (got == PROGRAM_IO_TIMEOUT && detail[0])
        return error_set(err, WHO_FORMAT ": %s within %" PRId64 " ms (startup=MS sets the limit)",
                         WHO(x), detail, x->spec->program.startup);
    if (got == PROGRAM_IO_TIMEOUT)
        return error_set(err, WHO_FORMAT " did not answer '%s' with '%s' within %" PRId64
                                         " ms (startup=MS sets the limit)",
                         WHO(x), send, want_text, x->spec->program.startup);
    char how[160];
    const char *dir = x->spec->program.dir[0] ? x->spec->program.dir : ".";
    if (ending(x, how, sizeof how))
        return error_set(err, WHO_FORMAT " exited before answering '%s' (%s; dir=%s)", WHO(x),
                         send, how, dir);
    return error_set(err, WHO_FORMAT " closed its output before answering '%s' (the process "
                                     "still ran: stopped; dir=%s)",
                     WHO(x), send, dir);
}

/* One setoption line per NAME=VALUE word of the spec's options, in order; with nodestime=N
 * first `setoption name nodestime value N`, so that the program's clock runs on nodes as
 * abtest charges it (a program without that option says so and is refused at start-up). */
static bool send_options(EngineProgram *x, Error *err) {
    char options[PROGRAM_OPTIONS_MAX + 32], detail[256];
    TextBuf buf = textbuf(options, sizeof options);
    if (x->spec->timing.nodestime)
        textbuf_printf(&buf, "nodestime=%lld ", (long long)x->spec->timing.nodestime);
    textbuf_printf(&buf, "%s", x->spec->program.options);
    int64_t deadline = cli_now_ms() + x->spec->program.startup;
    char *save = NULL;
    for (char *word = strtok_r(options, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        char *equals = strchr(word, '=');
        if (!equals)
            continue; /* checked when the options were read */
        *equals = '\0';
        char line[PROGRAM_OPTIONS_MAX + 32];
        snprintf(line, sizeof line, "setoption name %s value %s", word, equals + 1);
        ProgramIo sent = send_line(x, line, deadline, detail, sizeof detail);
        if (sent == PROGRAM_IO_ABORTED)
            return error_set(err, "aborted");
        if (sent != PROGRAM_IO_OK)
            return error_set(err, WHO_FORMAT " while its options were set: %s", WHO(x), detail);
    }
    return true;
}

bool program_start(EngineProgram *x, const EngineSpec *spec, const atomic_bool *abort,
                    Error *err) {
    memset(x, 0, sizeof *x);
    x->spec = spec;
    x->abort = abort;
    const ProgramSpec *e = &spec->program;
    Error inner;
    if (!program_process_start(&x->process, e->cmd, e->args, e->dir, abort, &inner))
        return error_set(err, WHO_FORMAT ": %s", WHO(x), inner.text);
    x->running = true;
    if (!handshake_step(x, "uci", REPLY_UCIOK, "uciok", err) || !send_options(x, err) ||
        !handshake_step(x, "isready", REPLY_READYOK, "readyok", err)) {
        program_stop(x);
        return false;
    }
    return true;
}

bool program_new_game(EngineProgram *x, Error *err) {
    char detail[256];
    ProgramIo sent =
        send_line(x, "ucinewgame", cli_now_ms() + x->spec->program.startup, detail, sizeof detail);
    if (sent == PROGRAM_IO_ABORTED)
        return error_set(err, "aborted");
    if (sent != PROGRAM_IO_OK)
        return error_set(err, WHO_FORMAT ": %s", WHO(x), detail);
    return handshake_step(x, "isready", REPLY_READYOK, "readyok", err);
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

/* The outcome of a failed send or read while a move was awaited. */
static ProgramOutcome move_failure(EngineProgram *x, ProgramIo got, bool sending, bool timed,
                                    int64_t started, char *detail, size_t size) {
    if (got == PROGRAM_IO_ABORTED)
        return PROGRAM_ABORTED;
    if (got == PROGRAM_IO_CLOSED) {
        if (!sending)
            describe_closed(x, "its bestmove", detail, size);
        return PROGRAM_DISCONNECT;
    }
    if (sending) /* an engine that stopped reading is stuck, whatever the clock */
        return PROGRAM_STALL;
    snprintf(detail, size, "no bestmove after %" PRId64 " ms", cli_now_ms() - started);
    return timed ? PROGRAM_TIME_LOSS : PROGRAM_STALL;
}

/* The go line: the spec's depth and nodes, then go's clocks or movetime. */
static void go_line(const SearchConfig *limits, const ProgramGo *go, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    textbuf_printf(&buf, "go");
    if (limits->depth)
        textbuf_printf(&buf, " depth %d", limits->depth);
    if (limits->nodes)
        textbuf_printf(&buf, " nodes %" PRId64, limits->nodes);
    if (go->movetime)
        textbuf_printf(&buf, " movetime %" PRId64, go->movetime);
    if (go->clock) {
        textbuf_printf(&buf, " wtime %" PRId64 " btime %" PRId64 " winc %" PRId64 " binc %" PRId64,
                       go->time_ms[SIDE_SHEEP], go->time_ms[SIDE_TIGERS],
                       go->increment_ms[SIDE_SHEEP], go->increment_ms[SIDE_TIGERS]);
        if (go->moves_to_go)
            textbuf_printf(&buf, " movestogo %d", go->moves_to_go);
    }
}

/* Before a go: isready, and every line up to readyok read and dropped, so that nothing the
 * program printed before (a second bestmove of an earlier search) is taken as this move's answer.
 * Such a bestmove is named on stderr. Its cost, outside the move's clock: one round trip, 0.011
 * to 0.017 ms with build/engine (5,000 isready from Python, 3 runs, on a machine under load). */
static ProgramIo drain_to_ready(EngineProgram *x, int64_t deadline, char *detail, size_t size) {
    ProgramIo got = send_line(x, "isready", deadline, detail, size);
    char line[512];
    while (got == PROGRAM_IO_OK) {
        ProgramReply reply;
        got = read_reply(x, deadline, line, sizeof line, &reply);
        if (got != PROGRAM_IO_OK)
            break;
        if (reply.kind == REPLY_READYOK)
            return PROGRAM_IO_OK;
        char quoted[ERROR_EXCERPT_MAX];
        if (reply.kind == REPLY_BESTMOVE)
            cli_error("warning: " WHO_FORMAT " sent '%s' with no search asked for: ignored (a "
                      "bestmove printed twice?)",
                      WHO(x), error_excerpt(line, quoted));
    }
    if (got == PROGRAM_IO_TIMEOUT && !detail[0])
        snprintf(detail, size, "no readyok to the isready before its move");
    return got;
}

ProgramOutcome program_play(EngineProgram *x, const Game *game, const ProgramGo *go,
                              ProgramMove *out, char *detail, size_t size) {
    memset(out, 0, sizeof *out);
    out->move = MOVE_NONE;
    detail[0] = '\0';
    char *position = position_line(game);
    if (!position) {
        snprintf(detail, size, "out of memory for the position line");
        return PROGRAM_DISCONNECT;
    }
    char line[512];
    go_line(&x->spec->config, go, line, sizeof line);
    int64_t started = cli_now_ms();
    int64_t deadline = started + go->wait_ms;
    ProgramIo got = drain_to_ready(x, deadline, detail, size);
    if (got == PROGRAM_IO_OK)
        got = send_line(x, position, deadline, detail, size);
    free(position);
    /* The clock runs from go to bestmove, as fastchess and cutechess time a move. */
    int64_t go_us = cli_now_us();
    if (got == PROGRAM_IO_OK)
        got = send_line(x, line, deadline, detail, size);
    if (got != PROGRAM_IO_OK)
        return move_failure(x, got, true, go->timed, started, detail, size);
    for (;;) {
        ProgramReply reply;
        got = read_reply(x, deadline, line, sizeof line, &reply);
        if (got != PROGRAM_IO_OK)
            return move_failure(x, got, false, go->timed, started, detail, size);
        if (reply.kind == REPLY_INFO) {
            if (reply.has_nodes)
                out->nodes = reply.nodes;
            if (reply.has_depth)
                out->depth = reply.depth;
            if (reply.has_score) {
                out->has_score = true;
                out->score_is_mate = reply.score_is_mate;
                out->score = reply.score;
            }
            continue;
        }
        if (reply.kind != REPLY_BESTMOVE)
            continue; /* anything else is not ours to judge */
        out->elapsed_us = cli_now_us() - go_us;
        Error why;
        if (!move_from_text(reply.move, &out->move, &why) ||
            !board_check_move(game_current(game), out->move, &why)) {
            char quoted[ERROR_EXCERPT_MAX];
            snprintf(detail, size, "bestmove '%s': %s", error_excerpt(reply.move, quoted),
                     why.text);
            out->move = MOVE_NONE;
            return PROGRAM_ILLEGAL;
        }
        return PROGRAM_MOVED;
    }
}

bool program_resync(EngineProgram *x) {
    char detail[256];
    int64_t deadline = cli_now_ms() + PROGRAM_RESYNC_MS;
    return send_line(x, "stop", deadline, detail, sizeof detail) == PROGRAM_IO_OK &&
           wait_for(x, REPLY_BESTMOVE, deadline, NULL, 0) == PROGRAM_IO_OK &&
           send_line(x, "isready", deadline, detail, sizeof detail) == PROGRAM_IO_OK &&
           wait_for(x, REPLY_READYOK, deadline, NULL, 0) == PROGRAM_IO_OK;
}

bool program_restart(EngineProgram *x, Error *err) {
    const EngineSpec *spec = x->spec;
    const atomic_bool *abort = x->abort;
    program_stop(x);
    return program_start(x, spec, abort, err);
}

/* Whether a line starts as tslab's per-position bench line, whatever follows. */
static bool is_bench_position_line(const char *line) {
    static const char *const words[] = {"info", "string", "bench", "position"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        line += strspn(line, " \t");
        size_t length = strlen(words[i]);
        if (strncmp(line, words[i], length) || (line[length] != ' ' && line[length] != '\t'))
            return false;
        line += length;
    }
    return true;
}

bool program_ask_bench(EngineProgram *x, const char *arguments, ProgramBenchReply *result, Error *err) {
    char line[512], detail[256], command[PROGRAM_TEXT_MAX + 32];
    result->nodes = 0;
    result->signature[0] = '\0';
    snprintf(command, sizeof command, "bench%s%s", arguments[0] ? " " : "", arguments);
    int64_t deadline = cli_now_ms() + x->spec->program.stall;
    ProgramIo got = send_line(x, command, deadline, detail, sizeof detail);
    while (got == PROGRAM_IO_OK) {
        ProgramReply reply;
        got = read_reply(x, deadline, line, sizeof line, &reply);
        if (got != PROGRAM_IO_OK)
            break;
        char quoted[ERROR_EXCERPT_MAX];
        switch (reply.kind) {
        case REPLY_INFO_ERROR: /* the bench will not come: said at once, not after stall= */
            return error_set(err, WHO_FORMAT ": '%s' answered '%s'", WHO(x), command,
                             error_excerpt(line, quoted));
        case REPLY_BENCH_SIGNATURE:
            memcpy(result->signature, reply.signature, sizeof result->signature);
            break;
        case REPLY_BENCH_POSITION:
            if (result->on_position && !result->on_position(result->context, &reply, err))
                return false;
            break;
        case REPLY_BENCH_NODES:
            if (!reply.has_nodes)
                return error_set(err,
                                 WHO_FORMAT ": unreadable bench total '%s' (a count of 0..%" PRIu64
                                            " nodes expected)",
                                 WHO(x), error_excerpt(line, quoted), PROGRAM_REPLY_NODES_MAX);
            result->nodes = reply.nodes;
            return true;
        default:
            /* A per-position line that does not read is said as such, not later as a line
             * missing (which reads as an engine too old to print them). */
            if (result->on_position && is_bench_position_line(line))
                return error_set(err,
                                 WHO_FORMAT ": a bench line that does not read: '%s' (info "
                                            "string bench position ID move M score S depth D "
                                            "nodes N, docs/engine.md)",
                                 WHO(x), error_excerpt(line, quoted));
            break;
        }
    }
    if (got == PROGRAM_IO_ABORTED)
        return error_set(err, "aborted");
    if (got == PROGRAM_IO_TIMEOUT && !detail[0])
        return error_set(err, WHO_FORMAT ": no 'Nodes searched' line within %" PRId64
                                         " ms of '%s' (stall=MS sets the limit)",
                         WHO(x), x->spec->program.stall, command);
    if (!detail[0])
        describe_closed(x, "the end of 'bench'", detail, sizeof detail);
    return error_set(err, WHO_FORMAT ": %s", WHO(x), detail);
}

bool program_check_bench(const EngineSpec *spec, FILE *out, const atomic_bool *abort,
                          ProgramBenchReply *result, Error *err) {
    EngineProgram x;
    memset(result, 0, sizeof *result);
    if (!program_start(&x, spec, abort, err))
        return false;
    bool ok = program_ask_bench(&x, "", result, err);
    program_stop(&x);
    if (!ok)
        return false;
    int64_t expected = spec->program.bench > 0 ? spec->program.bench : 0;
    fprintf(out, "engine %s (%s): bench %" PRIu64 " nodes%s; signature %s\n", spec->name,
            spec->program.cmd, result->nodes,
            expected && result->nodes == (uint64_t)expected ? ", as expected" : "",
            result->signature[0] ? result->signature : "none (the program prints none)");
    fflush(out);
    if (expected && result->nodes != (uint64_t)expected)
        return error_set(err, "engine %s: bench gives %" PRIu64 " nodes, bench=%" PRId64
                              " expects %" PRId64 ": another build than the one meant (the run "
                              "does not start)",
                         spec->name, result->nodes, expected, expected);
    return true;
}

void program_stop(EngineProgram *x) {
    if (!x->running)
        return;
    program_process_stop(&x->process, PROGRAM_QUIT_GRACE_MS);
    x->running = false;
}
