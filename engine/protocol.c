// SPDX-License-Identifier: MIT
#include "protocol.h"

#include "movegen.h"
#include "parse.h"
#include "paths.h"
#include "stockfish_bench.h"
#include "suite.h"
#include "tb_shared.h"
#include "version.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The largest nodestime taken: a billion nodes a millisecond is far past any machine. */
#define PROTOCOL_NODESTIME_MAX INT64_C(1000000000)

/* A line split into words (as many as it has: a `position` line of a long game has thousands). */
typedef struct {
    char *copy;
    char **words;
    int count;
} Words;

static bool split_words(const char *line, Words *w) {
    w->count = 0;
    w->copy = strdup(line);
    size_t capacity = 1;
    for (const char *p = line; *p; p++)
        capacity += strchr(" \t\r\n", *p) != NULL; /* the separators strtok_r splits at */
    w->words = malloc(capacity * sizeof *w->words);
    if (!w->copy || !w->words)
        return false;
    char *save = NULL;
    for (char *t = strtok_r(w->copy, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save))
        w->words[w->count++] = t;
    return true;
}

static void say(EngineSession *s, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void say(EngineSession *s, const char *format, ...) {
    pthread_mutex_lock(&s->out_lock);
    va_list args;
    va_start(args, format);
    vfprintf(s->out, format, args);
    va_end(args);
    fputc('\n', s->out);
    fflush(s->out);
    pthread_mutex_unlock(&s->out_lock);
}

/* Errors go out as `info string error: ...`, which every GUI and runner shows or ignores. */
static void say_error(EngineSession *s, const char *what, const Error *err) {
    say(s, "info string error: %s%s%s", what, err ? ": " : "", err ? err->text : "");
}

bool protocol_init(EngineSession *s, FILE *out, Error *err) {
    memset(s, 0, sizeof *s);
    s->out = out;
    pthread_mutex_init(&s->out_lock, NULL);
    s->config = config_default();
    Board start = board_start();
    return game_init(&s->game, &start, err);
}

static void wait_for_search(EngineSession *s) {
    if (!s->searching)
        return;
    pthread_join(s->thread, NULL);
    s->searching = false;
}

/* Makes the session idle before a command that changes what a search reads (position,
 * setoption, go, bench...). A search with a limit is waited for, as Stockfish waits in `go`, so
 * that a script may pipe commands without reading bestmove first; an unlimited one (`go
 * infinite`) could only end with a `stop` that this reader would never get to, so the command is
 * refused instead. */
static bool make_idle(EngineSession *s, const char *command) {
    if (!s->searching)
        return true;
    if (!s->search_unlimited || atomic_load(&s->finished)) {
        wait_for_search(s);
        return true;
    }
    say(s, "info string error: %s during go infinite (send stop first)", command);
    return false;
}

/* search_run clears a stop request when it starts (a late stop must not end the next search),
 * so a stop sent just after go could be lost: it is repeated until the search has ended. */
static void stop_search(EngineSession *s) {
    if (!s->searching)
        return;
    const struct timespec pause = {0, 1000000};
    while (!atomic_load(&s->finished)) {
        search_stop(&s->searcher);
        nanosleep(&pause, NULL);
    }
    wait_for_search(s);
}

void protocol_destroy(EngineSession *s) {
    stop_search(s);
    if (s->searcher_ready)
        searcher_destroy(&s->searcher);
    game_destroy(&s->game);
    pthread_mutex_destroy(&s->out_lock);
}

/* The searcher for the current options, set up on first need (setoption only records). */
static bool ensure_searcher(EngineSession *s) {
    if (s->searcher_ready)
        return true;
    SearchConfig config = s->config;
    if (!config.depth && !config.nodes && !config.movetime)
        config.depth = SEARCH_MAX_DEPTH; /* a placeholder: each go sets the limits */
    Error err;
    if (!cli_searcher_init(&s->searcher, &config, &err)) {
        say_error(s, "cannot set up the search", &err);
        return false;
    }
    s->searcher_ready = true;
    return true;
}

/* ---- uci: identification and the option table ---- */

static void say_option(EngineSession *s, const OptionSpec *spec) {
    char value[32], line[1024];
    config_value_text(&s->config, spec, value);
    int n = snprintf(line, sizeof line, "option name %s type ", spec->name);
    switch (spec->type) {
    case OPTION_BOOL:
        snprintf(line + n, sizeof line - (size_t)n, "check default %s",
                 !strcmp(value, "on") ? "true" : "false");
        break;
    case OPTION_INT:
    case OPTION_INT64:
        snprintf(line + n, sizeof line - (size_t)n, "spin default %s min %" PRId64 " max %" PRId64,
                 value, spec->min, spec->max);
        break;
    case OPTION_CHOICE:
        n += snprintf(line + n, sizeof line - (size_t)n, "combo default %s", value);
        for (const char *const *c = spec->choices; *c && n < (int)sizeof line; c++)
            n += snprintf(line + n, sizeof line - (size_t)n, " var %s", *c);
        break;
    }
    say(s, "%s", line);
}

static void command_uci(EngineSession *s, const Words *w) {
    (void)w;
    say(s, "id name tslab-engine %s", TSLAB_VERSION);
    say(s, "id author the tslab developers");
    /* Every row of the option table; the limits (depth, nodes, movetime) are the ones a `go`
     * without limits of its own uses (0: none). */
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++)
        say_option(s, &CONFIG_OPTIONS[i]);
    say(s, "option name nodestime type spin default %" PRId64 " min 0 max %" PRId64, s->nodestime,
        PROTOCOL_NODESTIME_MAX);
    char line[1024];
    int n = snprintf(line, sizeof line, "option name preset type combo default default");
    for (size_t i = 0; i < CONFIG_PRESET_COUNT && n < (int)sizeof line; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " var %s", CONFIG_PRESETS[i].name);
    say(s, "%s", line);
    say(s, "uciok");
}

static void command_isready(EngineSession *s, const Words *w) {
    (void)w;
    if (!s->searching)
        ensure_searcher(s);
    say(s, "readyok");
}

/* setoption name X value Y: X=Y through the option table (check values true/false are on/off). */
static void command_setoption(EngineSession *s, const Words *w) {
    if (!make_idle(s, "setoption"))
        return;
    if (w->count < 3 || strcmp(w->words[1], "name")) {
        say_error(s, "expected: setoption name NAME value VALUE", NULL);
        return;
    }
    const char *name = w->words[2];
    const char *value = NULL;
    if (w->count >= 5 && !strcmp(w->words[3], "value"))
        value = w->words[4];
    if (!value || w->count > 5) {
        say_error(s, "expected: setoption name NAME value VALUE (one word each)", NULL);
        return;
    }
    if (!strcmp(name, "nodestime")) { /* the session's, not the option table's */
        Error err;
        if (!parse_int64(value, 0, PROTOCOL_NODESTIME_MAX, &s->nodestime, &err))
            say_error(s, "setoption nodestime", &err);
        return;
    }
    const OptionSpec *spec = config_find(name);
    if (spec && spec->type == OPTION_BOOL)
        value = !strcmp(value, "true") ? "on" : !strcmp(value, "false") ? "off" : value;
    char token[256];
    SearchConfig changed = s->config;
    Error err;
    /* A value cut to fit would be another value (300 zeros and a 3 became depth=0): refused. */
    if ((size_t)snprintf(token, sizeof token, "%s=%s", name, value) >= sizeof token) {
        error_set(&err, "%zu characters of name and value: more than any option takes (%zu)",
                  strlen(name) + 1 + strlen(value), sizeof token - 1);
        say_error(s, "setoption", &err);
        return;
    }
    if (!config_apply(&changed, token, &err)) {
        say_error(s, "setoption", &err);
        return;
    }
    bool limits_only = spec && spec->kind == OPTION_KIND_LIMIT;
    s->config = changed;
    if (s->searcher_ready && !limits_only) { /* the limits are set per search anyway */
        searcher_destroy(&s->searcher);
        s->searcher_ready = false;
    }
}

/* ---- position ---- */

static void command_position(EngineSession *s, const Words *w) {
    if (!make_idle(s, "position"))
        return;
    Board start;
    int next = 2;
    Error err;
    if (w->count >= 2 && !strcmp(w->words[1], "startpos")) {
        start = board_start();
    } else if (w->count >= 2 && !strcmp(w->words[1], "fen")) {
        /* The position text is every word up to "moves". */
        char text[BOARD_TEXT_INPUT_MAX + 1] = "";
        size_t length = 0;
        for (; next < w->count && strcmp(w->words[next], "moves"); next++) {
            size_t add = strlen(w->words[next]) + (length > 0);
            if (length + add >= sizeof text) {
                say_error(s, "position fen: the position text is too long", NULL);
                return;
            }
            length += (size_t)snprintf(text + length, sizeof text - length, "%s%s",
                                       length ? " " : "", w->words[next]);
        }
        if (!board_from_text(text, &start, &err)) {
            say_error(s, "position fen", &err);
            return;
        }
    } else {
        say_error(s, "expected: position startpos|fen POSITION [moves M1 M2 ...]", NULL);
        return;
    }
    if (next < w->count && strcmp(w->words[next], "moves")) {
        say_error(s, "position: expected 'moves' after the position", NULL);
        return;
    }
    Game game;
    if (!game_init(&game, &start, &err)) {
        say_error(s, "position", &err);
        return;
    }
    for (int i = next + 1; i < w->count; i++) {
        Move m;
        if (!move_from_text(w->words[i], &m, &err) || !game_play(&game, m, &err)) {
            char what[96];
            snprintf(what, sizeof what, "position: move %d '%.16s'", i - next, w->words[i]);
            say_error(s, what, &err);
            game_destroy(&game);
            return; /* the previous position stays */
        }
    }
    game_destroy(&s->game);
    s->game = game;
}

/* ---- go: a search on its own thread ---- */

/* UCI's scores from the side to move: `cp` in evaluation units, `mate N` for a forced win in N
 * of the winner's moves (negative: the side to move loses), as UCI counts them. */
static void score_text(const Board *root, const SearchResult *r, char *out, size_t size) {
    int own = root->side == SIDE_TIGERS ? r->score : -r->score;
    if (r->win == RESULT_NONE) {
        snprintf(out, size, "cp %d", own);
        return;
    }
    bool mover_wins = (r->win == RESULT_TIGERS_WIN) == (root->side == SIDE_TIGERS);
    int moves = mover_wins ? (r->win_in + 1) / 2 : r->win_in / 2;
    snprintf(out, size, "mate %d", mover_wins ? moves : -moves);
}

static void say_info(void *context, const SearchResult *r) {
    EngineSession *s = context;
    const Board *root = game_current(&s->game);
    char score[32], pv[SEARCH_MAX_PLY * MOVE_TEXT_MAX + 1] = "";
    score_text(root, r, score, sizeof score);
    size_t length = 0;
    for (int i = 0; i < r->pv_length; i++) {
        char move[MOVE_TEXT_MAX];
        length += (size_t)snprintf(pv + length, sizeof pv - length, "%s%s", i ? " " : "",
                                   move_to_text(r->pv[i], move));
    }
    int64_t ms = (int64_t)(r->seconds * 1000);
    uint64_t nps = r->seconds > 0 ? (uint64_t)((double)r->stats.nodes / r->seconds) : 0;
    say(s, "info depth %d score %s nodes %" PRIu64 " nps %" PRIu64 " time %" PRId64 " pv %s",
        r->depth, score, r->stats.nodes, nps, ms, pv);
}

static void *search_thread(void *context) {
    EngineSession *s = context;
    const Game *g = &s->game;
    SearchResult r = search_run(&s->searcher, game_current(g), g->positions, g->plies);
    char move[MOVE_TEXT_MAX];
    if (r.failed)
        say(s, "info string error: out of memory for the search");
    else if (r.move == MOVE_NONE)
        say(s, "info string the game is over: %s",
            game_end_name(g->end != GAME_END_NONE ? g->end : board_game_end(game_current(g))));
    else {
        /* The whole search, unfinished last pass included, as the in-process runner counts it
         * (abtest reads its per-move nodes and depth from this line). */
        uint64_t nps = r.seconds > 0 ? (uint64_t)((double)r.stats.nodes / r.seconds) : 0;
        say(s, "info depth %d nodes %" PRIu64 " nps %" PRIu64 " time %" PRId64, r.depth,
            r.stats.nodes, nps, (int64_t)(r.seconds * 1000));
    }
    atomic_store(&s->finished, true);
    say(s, "bestmove %s", move_to_text(r.move, move));
    return NULL;
}

static void command_go(EngineSession *s, const Words *w) {
    if (!make_idle(s, "go"))
        return;
    int depth = 0;
    int64_t nodes = 0, movetime = 0, clock[2] = {0, 0}, increment[2] = {0, 0}, to_go = 0;
    bool has_clock[2] = {false, false}, infinite = false;
    Error err;
    for (int i = 1; i < w->count; i++) {
        const char *key = w->words[i];
        if (!strcmp(key, "infinite")) {
            infinite = true;
            continue;
        }
        if (i + 1 >= w->count) {
            say_error(s, "go: expected depth N, nodes N, movetime MS, wtime/btime/winc/binc MS, "
                         "movestogo N or infinite", NULL);
            return;
        }
        const char *value = w->words[++i];
        /* wtime is the sheep's clock (the side that moves first, as white), btime the tigers'. */
        int64_t *target = !strcmp(key, "nodes")      ? &nodes
                          : !strcmp(key, "movetime") ? &movetime
                          : !strcmp(key, "wtime")    ? &clock[SIDE_SHEEP]
                          : !strcmp(key, "btime")    ? &clock[SIDE_TIGERS]
                          : !strcmp(key, "winc")     ? &increment[SIDE_SHEEP]
                          : !strcmp(key, "binc")     ? &increment[SIDE_TIGERS]
                          : !strcmp(key, "movestogo") ? &to_go
                                                      : NULL;
        bool ok = true;
        /* A limit of 0 would mean no limit (a search until stop): refused, as a typo. A clock or
         * an increment may be 0. */
        bool is_limit = target == &nodes || target == &movetime;
        if (!strcmp(key, "depth"))
            ok = parse_int(value, 1, SEARCH_MAX_DEPTH, &depth, &err);
        else if (target)
            ok = parse_int64(value, is_limit ? 1 : 0, INT64_C(1) << 50, target, &err);
        else {
            char what[96];
            snprintf(what, sizeof what, "go: unknown parameter '%.32s'", key);
            say_error(s, what, NULL);
            return;
        }
        if (!ok) {
            char what[96];
            snprintf(what, sizeof what, "go %.32s", key);
            say_error(s, what, &err);
            return;
        }
        has_clock[SIDE_SHEEP] |= target == &clock[SIDE_SHEEP];
        has_clock[SIDE_TIGERS] |= target == &clock[SIDE_TIGERS];
    }
    int side = game_current(&s->game)->side;
    if (!depth && !nodes && !movetime && !infinite && has_clock[1 - side] && !has_clock[side]) {
        say_error(s, side == SIDE_SHEEP ? "go: no wtime, the clock of the side to move (the "
                                          "sheep); only the opponent's would search until stop"
                                        : "go: no btime, the clock of the side to move (the "
                                          "tigers); only the opponent's would search until stop",
                  NULL);
        return;
    }
    /* The side to move's clock, for the time manager (lib/search/timeman.h); movetime, when
     * given, is the limit instead. */
    SearchClock search_clock = {!movetime && has_clock[side], clock[side], increment[side],
                                (int)(to_go < 10000 ? to_go : 10000), s->nodestime};
    if (search_clock.on && !depth)
        depth = SEARCH_MAX_DEPTH; /* the clock is the limit */
    if (!depth && !nodes && !movetime && !infinite) { /* the limits set as options, if any */
        depth = s->config.depth;
        nodes = s->config.nodes;
        movetime = s->config.movetime;
    }
    s->search_unlimited = !depth && !nodes && !movetime;
    if (s->search_unlimited)
        depth = SEARCH_MAX_DEPTH; /* go infinite, or nothing: until stop */
    if (!ensure_searcher(s)) {
        say(s, "bestmove none");
        return;
    }
    search_set_limits(&s->searcher, depth, nodes, movetime);
    search_set_clock(&s->searcher, &search_clock);
    s->searcher.on_pass = say_info;
    s->searcher.on_pass_context = s;
    atomic_store(&s->finished, false);
    if (pthread_create(&s->thread, NULL, search_thread, s) != 0) {
        say_error(s, "cannot start the search thread", NULL);
        say(s, "bestmove none");
        return;
    }
    s->searching = true;
}

/* ---- bench: the suite under the current options ---- */

/* bench [ttSize] [threads] [limit] [fenFile] [limitType], Stockfish's arguments in Stockfish's
 * order (as `engine bench ...` on the command line): the current options, the suite (or a
 * positions file, or "current": the position set by `position`) to BENCH_DEFAULT_DEPTH by
 * default. */
static void command_bench(EngineSession *s, const Words *w) {
    if (!make_idle(s, "bench"))
        return;
    Error err;
    SearchConfig config = s->config;
    int threads = 1;
    const char *positions;
    bool current;
    if (!bench_stockfish_parse(w->count - 1, w->words + 1, &config, &threads, &positions, &current,
                               &err)) {
        say_error(s, "bench", &err);
        return;
    }
    char source[PATHS_MAX];
    Book book = {0};
    BookEntry here = {.board = *game_current(&s->game), .id = "current"};
    const BookEntry *entries = &here;
    int count = 1;
    if (!current) {
        if (positions ? !book_load(&book, positions, true, &err)
                      : !bench_default_suite(&book, source, sizeof source, &err)) {
            say_error(s, "bench", &err);
            return;
        }
        entries = book.entries;
        count = book.count;
    } else if (board_game_end(&here.board) != GAME_END_NONE) {
        say_error(s, "bench current: the game is over in the current position", NULL);
        return;
    }
    BenchRun run;
    if (!bench_run(entries, count, &config, threads, &run, &err)) {
        say_error(s, "bench", &err);
        book_destroy(&book);
        return;
    }
    /* A line per position before the totals, so that `bench compare -base-engine` gets the
     * same table from a program as in process (programs/program_bench.h reads them). */
    pthread_mutex_lock(&s->out_lock);
    for (int i = 0; i < run.count; i++) {
        const SearchResult *r = &run.rows[i].result;
        char move[MOVE_TEXT_MAX];
        fprintf(s->out,
                "info string bench position %s move %s score %d depth %d nodes %" PRIu64 "\n",
                run.rows[i].entry.id, move_to_text(r->move, move), r->score, r->depth,
                r->stats.nodes);
    }
    pthread_mutex_unlock(&s->out_lock);
    char hex[17], limit[48];
    if (config.depth)
        snprintf(limit, sizeof limit, "depth %d", config.depth);
    else if (config.nodes)
        snprintf(limit, sizeof limit, "nodes %" PRId64, config.nodes);
    else
        snprintf(limit, sizeof limit, "movetime %" PRId64, config.movetime);
    say(s, "info string bench: %d positions from %s, %s, signature %s", run.count,
        current ? "the current position" : positions ? positions : source, limit,
        bench_hex(run.signature, hex));
    pthread_mutex_lock(&s->out_lock);
    bench_print_summary(&run, s->out);
    pthread_mutex_unlock(&s->out_lock);
    bench_run_destroy(&run);
    book_destroy(&book);
}

/* ---- the command table ---- */

typedef struct {
    const char *name;
    void (*handle)(EngineSession *s, const Words *w);
} ProtocolCommand;

static void command_ucinewgame(EngineSession *s, const Words *w) {
    (void)w;
    stop_search(s);
    Board start = board_start();
    Game game;
    Error err;
    if (!game_init(&game, &start, &err)) {
        say_error(s, "ucinewgame", &err);
        return;
    }
    game_destroy(&s->game);
    s->game = game;
}

static void command_stop(EngineSession *s, const Words *w) {
    (void)w;
    stop_search(s);
}

static const ProtocolCommand COMMANDS[] = {
    {"uci", command_uci},
    {"isready", command_isready},
    {"setoption", command_setoption},
    {"ucinewgame", command_ucinewgame},
    {"position", command_position},
    {"go", command_go},
    {"stop", command_stop},
    {"bench", command_bench},
};

bool protocol_handle_line(EngineSession *s, const char *line) {
    Words w;
    if (!split_words(line, &w)) {
        say_error(s, "out of memory for a line", NULL);
        free(w.copy);
        free(w.words);
        return true;
    }
    bool go_on = true;
    if (w.count == 0) {
        /* blank lines are ignored */
    } else if (!strcmp(w.words[0], "quit")) {
        stop_search(s);
        go_on = false;
    } else {
        const ProtocolCommand *command = NULL;
        for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
            if (!strcmp(w.words[0], COMMANDS[i].name))
                command = &COMMANDS[i];
        if (command) {
            command->handle(s, &w);
        } else {
            char quoted[ERROR_EXCERPT_MAX], what[ERROR_EXCERPT_MAX + 32];
            snprintf(what, sizeof what, "unknown command '%s'",
                     error_excerpt(w.words[0], quoted));
            say_error(s, what, NULL);
        }
    }
    free(w.copy);
    free(w.words);
    return go_on;
}

void protocol_run(EngineSession *s, FILE *in) {
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    bool go_on = true;
    while (go_on && (length = getline(&line, &capacity, in)) >= 0) {
        if (memchr(line, '\0', (size_t)length)) {
            say_error(s, "a line holds a NUL byte", NULL);
            continue;
        }
        go_on = protocol_handle_line(s, line);
    }
    free(line);
    /* At the end of input a search with a limit finishes and prints its move (a script piping
     * `go depth 12` wants the answer); `quit` and an unlimited search stop at once. */
    if (go_on && !s->search_unlimited)
        wait_for_search(s);
    stop_search(s);
}
