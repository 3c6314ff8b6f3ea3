// SPDX-License-Identifier: MIT
// Opening books: random legal plies from the start (seeded), duplicates removed up to symmetry,
// kept only when a shallow search scores them within a balance margin. With depth or node limits
// the engines are deterministic, so a book must be larger than the runs it serves.
#include "book_cmd.h"

#include "cli.h"
#include "flags.h"
#include "movegen.h"
#include "output.h"
#include "parse.h"
#include "paths.h"
#include "rng.h"
#include "search.h"
#include "symmetry.h"
#include "tablebase.h"
#include "tb_shared.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char book_synopsis[] =
    "usage: abtest book -out FILE [-positions N] [-plies K|LOW..HIGH] [-seed S]\n"
    "                   [-depth D] [-nodes N] [-margin M|LOW..HIGH] [-view tigers|sheep|mover]\n"
    "                   [-source random|selfplay|tablebase] [-random-plies R] [-play-nodes N]\n"
    "  Writes N openings, no two symmetric to each other, none ending the game, each scored by a\n"
    "  search (depth D, or N nodes) and kept when the score, from the -view side, lies in the\n"
    "  window (M: -M..M). -source random: K random legal plies from the start; selfplay: R\n"
    "  random plies, then the default search at -play-nodes plays both sides to ply K. With\n"
    "  LOW..HIGH each opening draws its K in that range. tablebase: self-play to the last\n"
    "  placement (ply 38), kept when its placements lead to sliding positions of different\n"
    "  tablebase outcomes. Fails, leaving no file, when no position fits.\n";

/* Whose side a kept score is read from: a fixed side, as balanced books and UHO books keep
 * them, or the side to move. */
typedef enum { VIEW_TIGERS, VIEW_SHEEP, VIEW_MOVER } ScoreView;
static const char *const VIEW_NAMES[] = {"tigers", "sheep", "mover"};

typedef enum { SOURCE_RANDOM, SOURCE_SELFPLAY, SOURCE_TABLEBASE } Source;
static const char *const SOURCE_NAMES[] = {"random", "selfplay", "tablebase"};

/* -source tablebase: the position of a self-played game where one sheep is left in hand, sheep
 * to move. Each placement then enters the sliding phase, which the tablebase solves: the
 * position is kept when the placements' outcomes differ (the opening's result is not yet
 * decided: it turns on play), so that a pair is won by the engine that finds the right one. */
#define TABLEBASE_SOURCE_PLIES (2 * (SHEEP_TOTAL - 1))

/* What a book is made of, from the options. */
typedef struct {
    int positions;
    int plies_low, plies_high;
    int64_t seed;
    int depth;
    int64_t nodes; /* of the scoring search; 0: depth alone */
    int margin_low, margin_high;
    ScoreView view;
    Source source;
    int random_plies;   /* selfplay: random plies before the engine plays */
    int64_t play_nodes; /* selfplay: nodes a move */
} BookPlan;

typedef struct {
    uint64_t *keys; /* open addressing; 0 = empty (no position has key 0) */
    size_t mask;
} KeySet;

/* The slot holding key, or the empty slot where it belongs. The set holds at most a quarter of
 * its capacity (only kept positions go in), so the probe always ends. */
static size_t keyset_slot(const KeySet *set, uint64_t key) {
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & set->mask;
    while (set->keys[i] && set->keys[i] != key)
        i = (i + 1) & set->mask;
    return i;
}

/* plies random plies from b, never ending the game; false if that cannot be done. */
static bool random_plies(Rng *rng, int plies, Board *b) {
    for (int ply = 0; ply < plies; ply++) {
        MoveList list, playable;
        movegen_all(b, &list);
        playable.count = 0;
        for (int i = 0; i < list.count; i++) {
            Board child = *b;
            board_make(&child, list.moves[i]);
            if (board_game_end(&child) == GAME_END_NONE)
                playable.moves[playable.count++] = list.moves[i];
        }
        if (playable.count == 0)
            return false;
        board_make(b, playable.moves[rng_below(rng, (uint64_t)playable.count)]);
    }
    return true;
}

/* The engine plays both sides from b for plies plies; false when the game ends first (or the
 * search fails). Repetitions need no care here: the few plies played are placements or
 * early slides, and a repeated position is still a position. */
static bool played_plies(Searcher *player, int plies, Board *b) {
    for (int ply = 0; ply < plies; ply++) {
        SearchResult r = search_run(player, b, NULL, 0);
        if (r.failed || r.move == MOVE_NONE)
            return false;
        board_make(b, r.move);
        if (board_game_end(b) != GAME_END_NONE)
            return false;
    }
    return true;
}

/* One candidate opening of the plan (its ply count drawn first), or false when its game ended
 * or got stuck before it. */
static bool make_candidate(const BookPlan *plan, Rng *rng, Searcher *player, Board *out,
                           int *plies) {
    /* A single ply count draws nothing, so that the books made before ranges existed (the
     * default one) come out of the same command unchanged. */
    *plies = plan->plies_low;
    if (plan->plies_high > plan->plies_low)
        *plies += (int)rng_below(rng, (uint64_t)(plan->plies_high - plan->plies_low + 1));
    Board b = board_start();
    if (plan->source == SOURCE_RANDOM) {
        if (!random_plies(rng, *plies, &b))
            return false;
    } else {
        if (plan->source == SOURCE_TABLEBASE)
            *plies = TABLEBASE_SOURCE_PLIES;
        int first = plan->random_plies < *plies ? plan->random_plies : *plies;
        if (!random_plies(rng, first, &b) || !played_plies(player, *plies - first, &b))
            return false;
    }
    *out = b;
    return true;
}

/* A signal that stops the run (Ctrl-C, kill): the book is not written, and its temporary is
 * removed, not left beside it. */
static volatile sig_atomic_t stop_signal = 0;

static void on_stop(int signal_number) { stop_signal = signal_number; }

static void install_stop_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop;
    const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++)
        sigaction(stops[i], &action, NULL);
}

/* "N" or "LOW..HIGH" within [min, max]; "N" means N..N, or -N..N when symmetric. */
static bool parse_range(const char *text, int min, int max, bool symmetric, int *low, int *high,
                        Error *err) {
    const char *dots = strstr(text, "..");
    Error inner = {{0}};
    if (!dots) {
        int value;
        if (!parse_int(text, symmetric ? 0 : min, max, &value, &inner))
            return error_set(err, "%s", inner.text);
        *low = symmetric ? -value : value;
        *high = value;
        return true;
    }
    char first[32];
    size_t length = (size_t)(dots - text);
    if (length == 0 || length >= sizeof first)
        return error_set(err, "'%s' is not N or LOW..HIGH", text);
    memcpy(first, text, length);
    first[length] = '\0';
    if (!parse_int(first, min, max, low, &inner) || !parse_int(dots + 2, min, max, high, &inner))
        return error_set(err, "'%s': %s", text, inner.text);
    if (*low > *high)
        return error_set(err, "'%s': LOW is above HIGH", text);
    return true;
}

static bool parse_name(const char *text, const char *const *names, int count, int *out,
                       Error *err) {
    for (int i = 0; i < count; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return true;
        }
    return error_set(err, "'%s' is not one of %s|%s%s%s", text, names[0], names[1],
                     count > 2 ? "|" : "", count > 2 ? names[2] : "");
}

/* The outcome, for the sheep, of placing the last sheep with m: the tablebase's value of the
 * sliding position it leaves (the tigers to move), or the rules' when the tigers are trapped. */
static TbOutcome sheep_outcome_after(const Tablebase *tb, const Board *b, Move m) {
    Board child = *b;
    board_make(&child, m);
    if (board_game_end(&child) == GAME_END_TIGERS_TRAPPED)
        return TB_WIN;
    TbValue tigers;
    if (!tb_probe(tb, &child, &tigers))
        return TB_DRAW; /* not reached: one sheep in hand, and a placement captures nothing */
    return tigers.outcome == TB_WIN ? TB_LOSS : tigers.outcome == TB_LOSS ? TB_WIN : TB_DRAW;
}

/* Whether the placements of b (one sheep in hand, sheep to move) lead to different outcomes. */
static bool undecided(const Tablebase *tb, const Board *b) {
    MoveList moves;
    movegen_all(b, &moves);
    for (int i = 1; i < moves.count; i++)
        if (sheep_outcome_after(tb, b, moves.moves[i]) !=
            sheep_outcome_after(tb, b, moves.moves[0]))
            return true;
    return false;
}

/* The score a window is checked against: the search's (the tigers' side) seen from the view. */
static int viewed_score(const BookPlan *plan, const Board *b, int tigers_score) {
    bool tigers = plan->view == VIEW_TIGERS || (plan->view == VIEW_MOVER && b->side == SIDE_TIGERS);
    return tigers ? tigers_score : -tigers_score;
}

static Searcher *new_searcher(int depth, int64_t nodes, Error *err) {
    SearchConfig config = config_default();
    config.depth = depth;
    config.nodes = nodes;
    config.tt_bits = 16;
    Searcher *searcher = malloc(sizeof *searcher);
    if (!searcher) {
        error_set(err, "out of memory");
        return NULL;
    }
    if (!cli_searcher_init(searcher, &config, err)) {
        free(searcher);
        return NULL;
    }
    return searcher;
}

static void free_searcher(Searcher *searcher) {
    if (!searcher)
        return;
    searcher_destroy(searcher);
    free(searcher);
}

/* The options into a plan; false with err naming the option. */
static bool read_plan(BookPlan *plan, const char *plies, const char *margin, const char *view,
                      const char *source, Error *err) {
    Error inner = {{0}};
    int index = 0; /* parse_name sets it when it succeeds; LTO cannot always see that */
    if (!parse_range(plies, 1, 200, false, &plan->plies_low, &plan->plies_high, &inner))
        return error_set(err, "-plies: %s", inner.text);
    if (!parse_range(margin, -100000, 100000, true, &plan->margin_low, &plan->margin_high, &inner))
        return error_set(err, "-margin: %s", inner.text);
    if (!parse_name(view, VIEW_NAMES, 3, &index, &inner))
        return error_set(err, "-view: %s", inner.text);
    plan->view = (ScoreView)index;
    if (!parse_name(source, SOURCE_NAMES, 3, &index, &inner))
        return error_set(err, "-source: %s", inner.text);
    plan->source = (Source)index;
    return true;
}

int abtest_book_main(int argc, char **argv) {
    const char *out_path = NULL, *plies_text = "8", *margin_text = "90", *view_text = "tigers",
               *source_text = "random";
    BookPlan plan = {
        .positions = 50000, .seed = 1, .depth = 4, .random_plies = 2, .play_nodes = 300};
    Error err;
    const CliFlag flags[] = {
        {"-out", CLI_FLAG_TEXT, &out_path, 0, 0, "FILE", "the book to write (required)"},
        {"-positions", CLI_FLAG_INT, &plan.positions, 1, 10000000, "N",
         "openings to write (50000)"},
        {"-plies", CLI_FLAG_TEXT, &plies_text, 0, 0, "K|LOW..HIGH",
         "plies from the start (8); a range: each opening draws its own"},
        {"-seed", CLI_FLAG_INT64, &plan.seed, 0, 0x1p63, "S", "of the random choices (1)"},
        {"-depth", CLI_FLAG_INT, &plan.depth, 1, 12, "D", "of the search that scores each (4)"},
        {"-nodes", CLI_FLAG_INT64, &plan.nodes, 1, 1e9, "N",
         "score with an N-node search (depth 64) instead of -depth"},
        {"-margin", CLI_FLAG_TEXT, &margin_text, 0, 0, "M|LOW..HIGH",
         "the scores kept: -M..M (90), or a window such as 100..300"},
        {"-view", CLI_FLAG_TEXT, &view_text, 0, 0, "SIDE",
         "whose side the score is read from: tigers (default), sheep, mover"},
        {"-source", CLI_FLAG_TEXT, &source_text, 0, 0, "KIND",
         "random plies (random, default), self-play (selfplay), or self-play to the last "
         "placement, kept when the tablebase says it is undecided (tablebase)"},
        {"-random-plies", CLI_FLAG_INT, &plan.random_plies, 0, 200, "R",
         "selfplay: random plies before the engine plays (2)"},
        {"-play-nodes", CLI_FLAG_INT64, &plan.play_nodes, 1, 1e9, "N",
         "selfplay: nodes a move of the engine that plays (300)"},
    };
    const CliCommand command = {.name = "book",
                                .subcommand = "book",
                                .synopsis = book_synopsis,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    if (!out_path)
        die("book: -out FILE is required (abtest book -help)");
    if (!read_plan(&plan, plies_text, margin_text, view_text, source_text, &err))
        die("book: %s", err.text);

    /* The book is checked and locked before any search, and written to a temporary beside
     * it that replaces it only when whole (cli/output.h). */
    OutputPlan outputs = {0};
    OutLock lock;
    OutFile out;
    char sliding[PATHS_MAX];
    output_plan_add(&outputs, "-out", out_path, NULL);
    if (plan.source == SOURCE_TABLEBASE && paths_tablebase(NULL, sliding, sizeof sliding, &err))
        output_plan_input(&outputs, "-source tablebase", sliding);
    if (!output_plan_check(&outputs, &err) ||
        !output_lock(&lock, "-out", out_path, "abtest book", "mix their positions", &err))
        die("book: %s", err.text);
    Searcher *scorer = new_searcher(plan.nodes ? 64 : plan.depth, plan.nodes, &err);
    Searcher *player =
        !scorer || plan.source == SOURCE_RANDOM ? NULL : new_searcher(64, plan.play_nodes, &err);
    if (!scorer || (plan.source != SOURCE_RANDOM && !player))
        die("book: %s", err.text);
    const Tablebase *tablebase = plan.source == SOURCE_TABLEBASE ? cli_tablebase(&err) : NULL;
    if (plan.source == SOURCE_TABLEBASE && !tablebase)
        die("book: -source tablebase: %s", err.text);
    size_t capacity = 1;
    while (capacity < 4 * (size_t)plan.positions)
        capacity <<= 1;
    KeySet seen = {calloc(capacity, sizeof(uint64_t)), capacity - 1};
    if (!seen.keys)
        die("book: out of memory");
    if (!output_begin(&outputs, &out, out_path, &err))
        die("book: -out: %s", err.text);
    char scoring[64];
    if (plan.nodes)
        snprintf(scoring, sizeof scoring, "%lld-node", (long long)plan.nodes);
    else
        snprintf(scoring, sizeof scoring, "depth-%d", plan.depth);
    fprintf(out.f,
            "# tslab opening book: abtest book -positions %d -plies %s -seed %lld -%s %lld "
            "-margin %s -view %s -source %s",
            plan.positions, plies_text, (long long)plan.seed, plan.nodes ? "nodes" : "depth",
            plan.nodes ? (long long)plan.nodes : (long long)plan.depth, margin_text,
            VIEW_NAMES[plan.view], SOURCE_NAMES[plan.source]);
    if (plan.source != SOURCE_RANDOM)
        fprintf(out.f, " -random-plies %d -play-nodes %lld", plan.random_plies,
                (long long)plan.play_nodes);
    fprintf(out.f, "\n# POSITION ; ID plies, %s score (%s view)\n", scoring, VIEW_NAMES[plan.view]);
    Rng rng = rng_seeded((uint64_t)plan.seed);
    int written = 0;
    int64_t attempts = 0, ended = 0, duplicates = 0, decided = 0, outside = 0,
            limit = 200 * (int64_t)plan.positions;
    double start = cli_now_seconds();
    install_stop_handlers();
    while (written < plan.positions && attempts < limit && !stop_signal) {
        attempts++;
        Board b;
        int plies;
        if (!make_candidate(&plan, &rng, player, &b, &plies)) {
            ended++;
            continue;
        }
        Board canonical = sym_canonical(&b, NULL);
        size_t slot = keyset_slot(&seen, board_key(&canonical));
        if (seen.keys[slot]) {
            duplicates++;
            continue;
        }
        if (tablebase && !undecided(tablebase, &b)) {
            decided++;
            continue;
        }
        SearchResult r = search_run(scorer, &b, NULL, 0);
        if (r.failed) {
            outfile_abandon(&out);
            die("book: out of memory in the search");
        }
        int score = viewed_score(&plan, &b, r.score);
        if (score < plan.margin_low || score > plan.margin_high) {
            outside++;
            continue;
        }
        seen.keys[slot] = board_key(&canonical);
        char text[BOARD_TEXT_MAX];
        fprintf(out.f, "%s ; o%d plies %d, score %d\n", board_to_text(&b, text), ++written, plies,
                score);
    }
    /* Nothing half-written is left: the temporary goes unless the whole book is there. */
    bool ok = false;
    if (written > 0 && !stop_signal)
        ok = outfile_commit(&out, &err);
    else
        outfile_abandon(&out);
    free_searcher(scorer);
    free_searcher(player);
    free(seen.keys);
    outfile_unlock(&lock);
    if (stop_signal) {
        fprintf(stderr, "book: stopped by signal %d after %d positions: %s was not written\n",
                (int)stop_signal, written, out_path);
        return 128 + (int)stop_signal;
    }
    char decided_text[64] = "";
    if (tablebase)
        snprintf(decided_text, sizeof decided_text, ", %lld decided whatever the sheep place",
                 (long long)decided);
    fprintf(stderr,
            "book: %d positions written to %s in %.1f s (%lld tries: %lld ended or stuck, %lld "
            "duplicates up to symmetry%s, %lld outside the margin)\n",
            written, ok ? out_path : "nothing", cli_now_seconds() - start, (long long)attempts,
            (long long)ended, (long long)duplicates, decided_text, (long long)outside);
    if (written == 0)
        die("book: no position scored within -margin %s in %lld tries: widen the margin or "
            "change -plies; %s was not written",
            margin_text, (long long)attempts, out_path);
    if (!ok)
        die("book: %s was not written: %s", out_path, err.text);
    if (written < plan.positions)
        die("book: only %d of %d positions found: use more -plies or a wider -margin", written,
            plan.positions);
    return 0;
}
