// SPDX-License-Identifier: MIT
// The search spine. search_node() reads as numbered steps; each feature is a helper behind its
// toggle. Scores inside are from the side to move's view (negamax); reports turn them to the
// tigers' view.
#include "search.h"

#include "movegen.h"
#include "saturate.h"
#include "symmetry.h"
#include "tablebase.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TIME_CHECK_MASK 1023 /* read the clock every 1024 nodes */

/* The variants' helpers are kept out of search_node: inlined there they cost every node
 * registers and stack even when off (measured: +3.6% instructions on bench -depth 8). The one
 * exception is search_move_variants, called once per move: out of line its call cost
 * preset=tslab-0.3 6% of its instructions (bench -depth 8 -threads 1, callgrind, portable build,
 * the search only: 787,862,689 out of line, 743,608,351 inlined) and the default nothing (it
 * fell 0.3%: 1,813,860,487 to 1,808,331,579). */
#if defined(__GNUC__)
#define VARIANT_HELPER __attribute__((noinline))
#define VARIANTS_UNLIKELY(x) __builtin_expect((x), 0)
#else
#define VARIANT_HELPER
#define VARIANTS_UNLIKELY(x) (x)
#endif

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool searcher_init(Searcher *s, const SearchConfig *config, Error *err) {
    memset(s, 0, sizeof *s);
    s->config = *config;
    atomic_init(&s->stop_requested, false);
    if (config->depth == 0 && config->nodes == 0 && config->movetime == 0)
        return error_set(err, "no search limit: set depth=, nodes= or movetime=");
    if (config->cache != CACHE_NONE &&
        !tt_init(&s->tt, config->cache, config->tt_bits, config->replace, err))
        return false;
    return true;
}

void searcher_set_tablebase(Searcher *s, const struct Tablebase *tablebase) {
    s->tablebase = tablebase;
}

void searcher_destroy(Searcher *s) {
    if (s->config.cache != CACHE_NONE)
        tt_destroy(&s->tt);
    free(s->run.keys);
    s->run.keys = NULL;
}

void search_set_limits(Searcher *s, int depth, int64_t nodes, int64_t movetime) {
    assert(depth > 0 || nodes > 0 || movetime > 0);
    s->config.depth = depth;
    s->config.nodes = nodes;
    s->config.movetime = movetime;
}

void search_set_clock(Searcher *s, const SearchClock *clock) { s->clock = *clock; }

void search_stop(Searcher *s) { atomic_store(&s->stop_requested, true); }

/* Win scores are stored relative to the node (plies to the win from there) and read back
 * relative to the root, so an entry stays right when met at another ply. */
static int score_to_cache(int score, int ply) {
    return score >= SCORE_WIN_MIN ? score + ply : score <= -SCORE_WIN_MIN ? score - ply : score;
}
static int score_from_cache(int score, int ply) {
    return score >= SCORE_WIN_MIN ? score - ply : score <= -SCORE_WIN_MIN ? score + ply : score;
}

/* The side to move has lost at this ply (it has no move). */
static int lost_score(int ply) { return -(SCORE_WIN - ply); }

/* Five captures: the tigers have won, whoever is to move (normally the sheep). */
static int captures_score(const Board *b, int ply) {
    return b->side == SIDE_TIGERS ? SCORE_WIN - ply : lost_score(ply);
}

static bool is_irreversible(Move m) { return move_is_place(m) || move_is_jump(m); }

/* Limits: the node budget every node, the clock and the stop flag every 1024 nodes. Pass 1
 * never stops, so there is always a move. */
static bool out_of_limits(Searcher *s) {
    if (!s->run.limits_active)
        return false;
    if (s->run.node_limit && s->stats.nodes > s->run.node_limit)
        return true;
    if ((s->stats.nodes & TIME_CHECK_MASK) == 0) {
        if (atomic_load_explicit(&s->stop_requested, memory_order_relaxed))
            return true;
        if (s->run.deadline_seconds > 0 && now_seconds() >= s->run.deadline_seconds)
            return true;
    }
    return false;
}

/* Repetitions (always on): any earlier position of the game or the line with the same key is a
 * draw. Only positions since the last placement or capture can repeat, and only with the same
 * side to move, at least 4 plies back. */
static int repeated_index(const Searcher *s, int index, int reversible_start) {
    uint64_t key = s->run.keys[index];
    for (int i = index - 4; i >= reversible_start; i -= 2)
        if (s->run.keys[i] == key)
            return i;
    return -1;
}

static void generate(const Searcher *s, const Board *b, MoveList *list) {
    if (s->config.jumps_first)
        movegen_all(b, list);
    else
        movegen_all_point_order(b, list);
}

static void update_pv(Searcher *s, int ply, Move m) {
    s->run.pv[ply][0] = m;
    int child_length = ply + 1 < SEARCH_MAX_PLY ? s->run.pv_length[ply + 1] : 0;
    memcpy(&s->run.pv[ply][1], &s->run.pv[ply + 1][0], (size_t)child_length * sizeof(Move));
    s->run.pv_length[ply] = child_length + 1;
}

/* The key the cache files b under: its own, or with symmetry=on its canonical image's, read off
 * the image keys that the parent kept up to date (sym_keys_canonical); *sym maps b to the
 * stored board. */
static uint64_t cache_key(const Searcher *s, const Board *b, int ply, Symmetry *sym) {
    *sym = 0;
    if (!s->config.symmetry)
        return board_key(b);
    return sym_keys_canonical(&s->run.sym_keys[ply], b, sym);
}

static int search_node(Searcher *s, const Board *b, int depth, int ply, int alpha, int beta,
                       int reversible_start);

/* The evaluation from the side to move's view. */
static int side_eval(const Searcher *s, const Board *b) {
    int eval = eval_tigers(b, &s->config);
    return b->side == SIDE_TIGERS ? eval : -eval;
}

/* Plays m from b (at key index `index` of the line) and searches the child to depth - 1 (or
 * reduced further); returns the score from b's side. A placement or capture starts a new
 * reversible stretch for the repetition scan. */
static inline int search_move(Searcher *s, const Board *b, Move m, int child_depth, int ply,
                              int alpha, int beta, int index, int reversible_start) {
    Board child = *b;
    board_make(&child, m);
    if (s->config.symmetry && child_depth > 0) /* the leaves, about half the nodes, need none */
        sym_keys_make(&s->run.sym_keys[ply + 1], &s->run.sym_keys[ply], b, m);
    int child_start = is_irreversible(m) ? index + 1 : reversible_start;
    return -search_node(s, &child, child_depth, ply + 1, -beta, -alpha, child_start);
}

/* A child that will probe the cache, made one move ahead of its search: its board, its image
 * keys (symmetry=on), and its cache slot asked of memory, so that the probe finds it in the
 * processor's cache after the previous sibling's search. */
typedef struct {
    Board board;
    SymKeys keys;
} Child;

static inline void child_make(const Searcher *s, const Board *b, Move m, int ply, Child *c) {
    c->board = *b;
    board_make(&c->board, m);
    if (s->config.symmetry)
        sym_keys_make(&c->keys, &s->run.sym_keys[ply], b, m);
}

static inline void child_prefetch(const Searcher *s, const Child *c, int child_depth) {
    Symmetry sym;
    uint64_t key = s->config.symmetry ? sym_keys_canonical(&c->keys, &c->board, &sym)
                                      : board_key(&c->board);
    tt_prefetch(&s->tt, tt_tag(key, child_depth));
    /* With no entry at its depth, the child reads the previous pass's at depth - 1 for a hint. */
    if (child_depth >= 2 && s->config.hint)
        tt_prefetch(&s->tt, tt_tag(key, child_depth - 1));
}

static inline void child_prepare(const Searcher *s, const Board *b, Move m, int child_depth,
                                 int ply, Child *c) {
    child_make(s, b, m, ply, c);
    child_prefetch(s, c, child_depth);
}

/* search_move for a prepared child. */
static inline int search_child(Searcher *s, const Child *c, Move m, int child_depth, int ply,
                               int alpha, int beta, int index, int reversible_start) {
    if (s->config.symmetry)
        s->run.sym_keys[ply + 1] = c->keys;
    int child_start = is_irreversible(m) ? index + 1 : reversible_start;
    return -search_node(s, &c->board, child_depth, ply + 1, -beta, -alpha, child_start);
}

/* 3b. Quiescence (toggle: qsearch). At depth 0 the tigers may still take a sheep: the side to
 * move stands pat on the evaluation (jumps are optional) or, for the tigers, jumps; the sheep
 * have no captures, so they stand pat. A jump is irreversible: no repetition can follow it.
 * Called after the captures and no-move checks of the node. */
VARIANT_HELPER static int quiesce(Searcher *s, const Board *b, int ply, int alpha, int beta) {
    int stand_pat = side_eval(s, b);
    if (b->side != SIDE_TIGERS || stand_pat >= beta)
        return stand_pat;
    int best = stand_pat;
    alpha = stand_pat > alpha ? stand_pat : alpha;
    MoveList list;
    movegen_all(b, &list); /* jumps first */
    for (int i = 0; i < list.count && move_is_jump(list.moves[i]); i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        s->stats.nodes++;
        s->stats.qsearch_nodes++;
        int score;
        if (child.captured >= CAPTURES_TO_WIN) {
            s->stats.terminals++;
            score = SCORE_WIN - (ply + 1);
        } else if (movegen_count(&child) == 0) {
            s->stats.terminals++;
            score = SCORE_WIN - (ply + 1);
        } else {
            s->stats.leaves++;
            score = -side_eval(s, &child); /* the sheep stand pat */
        }
        if (score > best)
            best = score;
        if (score > alpha)
            alpha = score;
        if (score >= beta)
            break;
    }
    return best;
}

/* 3. A leaf: a loss when the side to move has no move, else the evaluation (or 3b, quiescence).
 * With the tigers to move, their move count and the evaluation come from one generation of
 * their moves instead of two. */
static inline int leaf_score(Searcher *s, const Board *b, int ply, int alpha, int beta) {
    bool tigers = b->side == SIDE_TIGERS;
    int jumps = 0, trapped = 0;
    int moves = tigers ? movegen_tiger_moves(b, &jumps, &trapped) : movegen_count(b);
    if (moves == 0) {
        s->stats.terminals++;
        return lost_score(ply);
    }
    s->stats.leaves++;
    if (s->config.qsearch)
        return quiesce(s, b, ply, alpha, beta);
    if (!tigers)
        return side_eval(s, b);
    return eval_tigers_counted(b, &s->config, moves, jumps, trapped);
}

/* 5. Null move (toggle: nullmove). The side to move passes; if a search reduced by nullmove_r
 * still reaches beta, the node is taken as failing high. Never twice in a row, never when the
 * side to move has two moves or fewer (the zugzwang this game is full of), never for the sheep
 * once they slide (they must move, and a move can open a jump), never near a won score. The pass
 * is irreversible for the repetition scan: no line repeats across it. */
bool search_nullmove_excluded(const Board *b) {
    return (b->side == SIDE_SHEEP && b->in_hand == 0) || movegen_count(b) <= 2;
}

static bool nullmove_allowed(const Searcher *s, const Board *b, int depth, int ply, int beta) {
    return s->config.nullmove && depth > s->config.nullmove_r && ply > 0 &&
           s->run.null_child_ply != ply && beta < SCORE_WIN_MIN && beta > -SCORE_WIN_MIN &&
           !search_nullmove_excluded(b) && side_eval(s, b) >= beta;
}

VARIANT_HELPER static bool nullmove_cuts(Searcher *s, const Board *b, int depth, int ply,
                                         int beta, int index, int *score) {
    Board child = *b;
    child.side = b->side == SIDE_TIGERS ? SIDE_SHEEP : SIDE_TIGERS;
    int saved = s->run.null_child_ply;
    s->run.null_child_ply = ply + 1;
    s->stats.nullmove_tries++;
    if (s->config.symmetry)
        s->run.sym_keys[ply + 1] = s->run.sym_keys[ply]; /* a pass moves nothing */
    int value = -search_node(s, &child, depth - 1 - s->config.nullmove_r, ply + 1, -beta,
                             -beta + 1, index + 1);
    s->run.null_child_ply = saved;
    if (s->run.aborted || value < beta)
        return false;
    s->stats.nullmove_cutoffs++;
    *score = value >= SCORE_WIN_MIN ? beta : value; /* a win through a pass is not proven */
    return true;
}

/* 7b. The depth a move is searched to: one deeper for a tiger jump (toggle: jump_extension),
 * while the line stays inside the search's ply bound; captures end the game after five, so a
 * line holds at most four of them. */
static inline bool jump_extended(const Searcher *s, Move m, int depth, int ply) {
    return s->config.jump_extension && move_is_jump(m) && ply + depth < SEARCH_MAX_DEPTH;
}

static int child_depth(Searcher *s, Move m, int depth, int ply) {
    if (jump_extended(s, m, depth, ply)) {
        s->stats.extensions++;
        return depth;
    }
    return depth - 1;
}

/* Where the move loop's variants act on one move, a step each:
 *   7a. futility (toggle: futility): at depth 1, when even the margin cannot lift the evaluation
 *       to alpha, a quiet move after the first is skipped, counting as that bound;
 *   7b. extension (toggle: jump_extension): the depth (child_depth);
 *   7c. late move reduction (toggle: lmr): a quiet move late in the list is searched shallower
 *       with a null window first, and kept when it fails low;
 *   7d. principal variation search (toggle: pvs): every move after the first with a null
 *       window, kept unless it lands inside the window;
 *   then the full-window search. Returns false when the move was skipped (*best updated). */
typedef struct {
    int futility_bound; /* -SCORE_INFINITE: no futility at this node */
    Move hint;
    Move *tried;        /* quiet moves searched so far, for history */
    int tried_count;
} LoopVariants;

/* The child of m searched to child_depth: made here, or made ahead (child not NULL). */
static inline int search_made(Searcher *s, const Board *b, const Child *child, Move m,
                              int child_depth, int ply, int alpha, int beta, int index,
                              int reversible_start) {
    return child ? search_child(s, child, m, child_depth, ply, alpha, beta, index,
                                reversible_start)
                 : search_move(s, b, m, child_depth, ply, alpha, beta, index, reversible_start);
}

static inline bool search_move_variants(Searcher *s, const Board *b, const Child *child, Move m,
                                        int i, int depth, int ply, int alpha, int beta,
                                        int index, int reversible_start, LoopVariants *v,
                                        int *best, int *score) {
    const SearchConfig *c = &s->config;
    bool quiet = !move_is_jump(m);
    if (quiet && i > 0 && v->futility_bound > -SCORE_INFINITE) {
        s->stats.futility_prunes++;
        if (v->futility_bound > *best)
            *best = v->futility_bound;
        return false;
    }
    if (quiet)
        v->tried[v->tried_count++] = m;
    int next_depth = child_depth(s, m, depth, ply);
    if (c->lmr && quiet && m != v->hint && depth >= c->lmr_depth && i >= c->lmr_moves) {
        int reduced = next_depth - c->lmr_reduction;
        s->stats.lmr_reductions++;
        *score = search_made(s, b, child, m, reduced < 0 ? 0 : reduced, ply, alpha, alpha + 1,
                             index, reversible_start);
        if (s->run.aborted || *score <= alpha)
            return true;
        s->stats.lmr_researches++;
    }
    if (c->pvs && i > 0 && beta - alpha > 1) {
        *score = search_made(s, b, child, m, next_depth, ply, alpha, alpha + 1, index,
                             reversible_start);
        if (s->run.aborted || *score <= alpha || *score >= beta)
            return true;
        s->stats.pvs_researches++;
    }
    *score = search_made(s, b, child, m, next_depth, ply, alpha, beta, index, reversible_start);
    return true;
}

/* The depth move i is first searched to (7b, then 7c), for a prefetch ahead of the search:
 * search_move_variants's steps without their counters. */
static int first_search_depth(const Searcher *s, Move m, int i, int depth, int ply, Move hint) {
    const SearchConfig *c = &s->config;
    int d = jump_extended(s, m, depth, ply) ? depth : depth - 1;
    /* search_move_variants's 7c condition, written out there: a shared predicate cost that loop
     * 3,437,320 instructions (`preset=tslab-0.3`, 739,061,136 against 735,623,816). */
    if (c->lmr && !move_is_jump(m) && m != hint && depth >= c->lmr_depth && i >= c->lmr_moves)
        d = d - c->lmr_reduction < 0 ? 0 : d - c->lmr_reduction;
    return d;
}

/* After a quiet move's cutoff (toggle: history): it gains history, the quiet moves tried before
 * it lose as much. */
VARIANT_HELPER static void reward_history(Searcher *s, const Board *b, Move m,
                                          const Move *tried, int tried_count, int depth) {
    int bonus = depth * depth;
    history_update(&s->history, b->side, m, bonus);
    for (int k = 0; k < tried_count; k++)
        history_update(&s->history, b->side, tried[k], -bonus);
}

/* Whether searching list->moves[0..unordered) can change the history before the loop reaches
 * the history-ordered moves: only an interior node updates it (reward_history), so not when
 * every one of those moves is searched at depth 0 (at depth 1, unless a jump is extended). Then
 * the scores are read when the loop gets there, and not at all when one of those moves cuts:
 * `preset=tslab-0.3` 743,608,351 instructions before, 711,460,343 with this (`bench -depth 8
 * -threads 1`, callgrind, portable build, the searches only). */
static bool history_may_change(const Searcher *s, const MoveList *list, int unordered,
                               int depth) {
    if (depth >= 2)
        return true;
    for (int i = 0; s->config.jump_extension && i < unordered; i++)
        if (move_is_jump(list->moves[i]))
            return true;
    return false;
}

static int search_node(Searcher *s, const Board *b, int depth, int ply, int alpha, int beta,
                       int reversible_start) {
    SearchStats *stats = &s->stats;
    stats->nodes++;
    s->run.pv_length[ply] = 0;
    s->run.dependency = INT_MAX;
    if (out_of_limits(s)) {
        s->run.aborted = true;
        return 0;
    }

    /* 1. Repetition: a draw, whatever the position holds. */
    int index = s->run.history + ply;
    s->run.keys[index] = board_key(b);
    int repeated = repeated_index(s, index, reversible_start);
    if (repeated >= 0) {
        stats->repetitions++;
        s->run.dependency = repeated;
        return SCORE_DRAW;
    }

    /* 2. Game over by captures. */
    if (b->captured >= CAPTURES_TO_WIN) {
        stats->terminals++;
        return captures_score(b, ply);
    }

    /* 2b. Tablebase (toggle: egdb): below the root, a sliding-phase position's value is known,
     * as engines probe Syzygy. A win or loss scores like the search's own at that distance; a
     * draw scores as a repetition does. The root is searched, so it still gets a move. */
    static_assert(SCORE_WIN - TB_PLIES_MAX - SEARCH_MAX_PLY > SCORE_WIN_MIN,
                  "a tablebase distance must score as a win or loss at any ply");
    TbValue known;
    if (s->config.egdb && ply > 0 && s->tablebase && tb_probe(s->tablebase, b, &known)) {
        stats->tablebase_hits++;
        return known.outcome == TB_DRAW  ? SCORE_DRAW
               : known.outcome == TB_WIN ? SCORE_WIN - (ply + known.plies)
                                         : lost_score(ply + known.plies);
    }

    /* 3. Leaf: evaluate (or 3b, quiesce), unless the side to move has no move (a loss). */
    if (depth == 0)
        return leaf_score(s, b, ply, alpha, beta);

    /* 4. Cache (toggles: cache, cache_depth, symmetry, hint). Bounds narrow the window or end
     * the node; the stored move is the hint; with no entry at this depth, the previous pass's
     * entry at depth - 1 still gives a hint. cache_depth=2 leaves out the depth-1 nodes, whose
     * probes are most of the cache's memory traffic (docs/performance.md). */
    Move hint = MOVE_NONE;
    Symmetry sym = 0;
    uint64_t key = 0;
    bool use_cache = s->config.cache != CACHE_NONE && depth >= s->config.cache_depth;
    if (use_cache) {
        key = cache_key(s, b, ply, &sym);
        stats->cache_probes++;
        const TTEntry *entry = tt_probe(&s->tt, tt_tag(key, depth));
        if (entry) {
            stats->cache_hits++;
            int lower = score_from_cache(entry->lower, ply);
            int upper = score_from_cache(entry->upper, ply);
            if (lower >= beta || upper <= alpha || lower == upper) {
                stats->cache_cutoffs++;
                return lower >= beta ? lower : upper <= alpha ? upper : lower;
            }
            alpha = lower > alpha ? lower : alpha;
            beta = upper < beta ? upper : beta;
            hint = entry->move;
        } else if (depth >= 2 && s->config.hint) {
            stats->cache_probes++;
            entry = tt_probe(&s->tt, tt_tag(key, depth - 1));
            if (entry) {
                stats->cache_hits++;
                hint = entry->move;
            }
        }
        hint = s->config.hint ? sym_move(sym_inverse(sym), hint) : MOVE_NONE;
    }
    int window_alpha = alpha, window_beta = beta;

    /* The hint, searched first, made now and its slot fetched during the null move, the move
     * generation and the ordering: most nodes search no other move. */
    bool children_probe = use_cache && depth - 1 >= s->config.cache_depth;
    Child children[2];
    Move made_ahead = MOVE_NONE;
    if (children_probe && hint != MOVE_NONE) {
        child_make(s, b, hint, ply, &children[0]);
        int hint_depth = first_search_depth(s, hint, 0, depth, ply, hint);
        if (hint_depth >= s->config.cache_depth)
            child_prefetch(s, &children[0], hint_depth);
        made_ahead = hint;
    }

    /* 5. Null move (toggle: nullmove). */
    if (nullmove_allowed(s, b, depth, ply, beta)) {
        int null_score;
        if (nullmove_cuts(s, b, depth, ply, beta, index, &null_score))
            return null_score;
        if (s->run.aborted)
            return 0;
    }

    /* 6. Moves, ordered: hint, jumps (toggle: jumps_first), killers (toggle: killers), the rest
     * by history (toggle: history). */
    MoveList list;
    generate(s, b, &list);
    stats->movegens++;
    if (list.count == 0) {
        stats->terminals++;
        return lost_score(ply);
    }
    int unordered = order_moves(&list, hint, s->config.jumps_first,
                                s->config.killers ? &s->killers : NULL, depth);

    /* 7. The move loop, fail-soft. 7a: futility (toggle: futility): at depth 1, when even the
     * margin cannot lift the evaluation to alpha, quiet moves after the first are skipped, each
     * counting as the bound evaluation + margin. */
    /* With no variant of the loop on, each move takes the plain path, so that the variants cost
     * next to nothing when off (docs/experiments.md: instruction counts). */
    bool variants = s->run.loop_variants;
    HistoryOrder order;
    if (variants)
        history_order_begin(&order, &list, unordered, s->config.history ? &s->history : NULL,
                            b->side, history_may_change(s, &list, unordered, depth));
    else
        history_order_none(&order, &list);
    LoopVariants v = {-SCORE_INFINITE, hint, s->run.tried[ply], 0};
    if (variants && s->config.futility && depth == 1 && alpha > -SCORE_WIN_MIN &&
        alpha < SCORE_WIN_MIN) {
        int bound = side_eval(s, b) + s->config.futility;
        v.futility_bound = bound <= alpha ? bound : -SCORE_INFINITE;
    }
    int best = -SCORE_INFINITE, dependency = INT_MAX;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        Move m;
        int score;
        if (VARIANTS_UNLIKELY(variants)) { /* history is a loop variant: it orders as it goes */
            m = order_next(&list, &order, i);
            const Child *child = NULL;
            if (children_probe) {
                if (i == 0 && m != made_ahead)
                    child_make(s, b, m, ply, &children[0]);
                child = &children[i & 1];
            }
            if (children_probe && i + 1 < list.count) {
                /* The next move made ahead, its slot fetched during this move's search. Picking
                 * it now orders as later would: at these depths the scores were read at the
                 * node's start. */
                Move next = order_next(&list, &order, i + 1);
                Child *ahead = &children[(i + 1) & 1];
                child_make(s, b, next, ply, ahead);
                int next_depth = first_search_depth(s, next, i + 1, depth, ply, hint);
                if (next_depth >= s->config.cache_depth)
                    child_prefetch(s, ahead, next_depth);
            }
            if (!search_move_variants(s, b, child, m, i, depth, ply, alpha, beta, index,
                                      reversible_start, &v, &best, &score))
                continue;
        } else if (!children_probe) {
            m = list.moves[i];
            score = search_move(s, b, m, depth - 1, ply, alpha, beta, index, reversible_start);
        } else {
            m = list.moves[i];
            Child *child = &children[i & 1];
            if (i == 0 && m != made_ahead)
                child_prepare(s, b, m, depth - 1, ply, child);
            if (i + 1 < list.count)
                child_prepare(s, b, list.moves[i + 1], depth - 1, ply, &children[(i + 1) & 1]);
            score = search_child(s, child, m, depth - 1, ply, alpha, beta, index,
                                 reversible_start);
        }
        if (s->run.aborted)
            return 0;
        if (s->run.dependency < dependency)
            dependency = s->run.dependency;
        if (score <= best)
            continue;
        best = score;
        best_move = m;
        if (score <= alpha)
            continue;
        alpha = score;
        update_pv(s, ply, m);
        if (score >= beta) {
            stats->cutoffs++;
            stats->first_move_cutoffs += i == 0;
            if (s->config.killers && !move_is_jump(m))
                killers_add(&s->killers, depth, m);
            if (s->config.history && !move_is_jump(m)) /* the cut move is the last tried */
                reward_history(s, b, m, v.tried, v.tried_count - 1, depth);
            break;
        }
    }

    /* 8. Store: exact, lower or upper bound relative to the window actually searched, unless a
     * repetition of a position between the root and this node decided part of it: that value
     * holds only on this line. */
    s->run.dependency = dependency;
    bool line_dependent = dependency > s->run.history && dependency < index;
    if (use_cache && !line_dependent) {
        int lower = best > window_alpha ? best : -SCORE_INFINITE;
        int upper = best < window_beta ? best : SCORE_INFINITE;
        TTStore result = tt_store(&s->tt, tt_tag(key, depth), score_to_cache(lower, ply),
                                  score_to_cache(upper, ply), sym_move(sym, best_move));
        stats->cache_stores += result != TT_STORE_REJECTED;
        stats->cache_overwrites += result == TT_STORE_OVERWROTE;
    }
    return best;
}

/* Index of m in the canonical generated order (movegen_all): the tie-break among moves of equal
 * score, so the move chosen does not depend on which ordering features are on. */
static int canonical_rank(const MoveList *canonical, Move m) { return movelist_find(canonical, m); }

/* One pass at the root within the window (lower, upper); the full window is (-INF, +INF).
 * Every move after the first is searched with alpha one below the best score so far (or the
 * window's lower edge), so that a move scoring exactly as well is seen exactly and ties are
 * broken by canonical_rank, whatever the ordering. A score at or above upper ends the pass
 * (a fail high); a best at or below lower is a fail low. The root is never cached. */
static int search_root(Searcher *s, const Board *root, int depth, Move previous_best, int lower,
                       int upper, Move *best_move_out) {
    s->stats.nodes++;
    int index = s->run.history;
    s->run.keys[index] = board_key(root);
    if (s->config.symmetry)
        sym_keys_init(&s->run.sym_keys[0], root);
    MoveList canonical, list;
    movegen_all(root, &canonical);
    generate(s, root, &list);
    s->stats.movegens++;
    int unordered = order_moves(&list, s->config.hint ? previous_best : MOVE_NONE,
                                s->config.jumps_first, s->config.killers ? &s->killers : NULL,
                                depth);
    if (s->config.history)
        history_sort(&list, unordered, &s->history, root->side);
    int best = -SCORE_INFINITE;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int alpha = best == -SCORE_INFINITE ? lower : best - 1 > lower ? best - 1 : lower;
        int score = search_move(s, root, m, child_depth(s, m, depth, 0), 0, alpha, upper, index,
                                s->run.root_reversible_start);
        if (s->run.aborted)
            return 0;
        bool better = score > best ||
                      (score == best && canonical_rank(&canonical, m) <
                                            canonical_rank(&canonical, best_move));
        if (better) {
            best = score;
            best_move = m;
            update_pv(s, 0, m);
        }
        if (score >= upper)
            break;
    }
    *best_move_out = best_move;
    return best;
}

/* One pass at the root with an aspiration window (toggle: aspiration): +-N around the previous
 * pass's score, widened on the failing side (doubling) until the score falls strictly inside,
 * so the move and score are those of the full window. Off, or after a win score, the full
 * window. */
static int search_root_aspiration(Searcher *s, const Board *root, int depth, Move previous_best,
                                  int previous_score, Move *best_move_out) {
    int delta = s->config.aspiration;
    if (!delta || depth < 2 || score_is_win(previous_score))
        return search_root(s, root, depth, previous_best, -SCORE_INFINITE, SCORE_INFINITE,
                           best_move_out);
    int lower = previous_score - delta, upper = previous_score + delta;
    for (;;) {
        int score = search_root(s, root, depth, previous_best, lower, upper, best_move_out);
        if (s->run.aborted || (score > lower && score < upper))
            return score;
        s->stats.aspiration_researches++;
        delta *= 2;
        if (score <= lower)
            lower = lower - delta < -SCORE_WIN ? -SCORE_INFINITE : lower - delta;
        else
            upper = upper + delta > SCORE_WIN ? SCORE_INFINITE : upper + delta;
    }
}

/* Sets up the key array: the game's positions, then room for the line. */
static bool prepare_keys(Searcher *s, const Board *root, const Board *history,
                         int history_length) {
    int needed = history_length + SEARCH_MAX_PLY + 1;
    if (needed > s->run.key_capacity) {
        uint64_t *keys = realloc(s->run.keys, (size_t)needed * sizeof *keys);
        if (!keys)
            return false;
        s->run.keys = keys;
        s->run.key_capacity = needed;
    }
    s->run.history = history_length;
    s->run.root_reversible_start = 0;
    for (int i = 0; i < history_length; i++) {
        s->run.keys[i] = board_key(&history[i]);
        /* Position i + 1 follows an irreversible move when hand or captures changed. */
        const Board *next = i + 1 < history_length ? &history[i + 1] : root;
        if (next->in_hand != history[i].in_hand || next->captured != history[i].captured)
            s->run.root_reversible_start = i + 1;
    }
    return true;
}

/* The limits of one search from movetime= and the clock: a soft limit (no new pass: half of
 * movetime, or the time manager's) and a hard one (the pass cut off), in microseconds. Under
 * nodestime the hard limit becomes nodes (checked at every node, like nodes=) and no wall clock
 * is read. */
static void set_time_limits(Searcher *s) {
    const SearchConfig *c = &s->config;
    int64_t soft_us = 0, hard_us = 0;
    if (s->clock.on) {
        TimeBudget budget = timeman_budget(c, &s->clock);
        soft_us = budget.soft_us;
        hard_us = budget.hard_us;
    }
    if (c->movetime && (!hard_us || saturate_mul(c->movetime, 1000) < hard_us)) {
        hard_us = saturate_mul(c->movetime, 1000);
        soft_us = saturate_mul(c->movetime, 500);
    }
    s->run.soft_us = soft_us;
    s->run.node_limit = (uint64_t)c->nodes;
    s->run.deadline_seconds = 0;
    if (hard_us && s->clock.nodestime) {
        uint64_t hard_nodes = (uint64_t)saturate_mul_div(hard_us, s->clock.nodestime, 1000);
        if (hard_nodes < 1)
            hard_nodes = 1;
        if (!s->run.node_limit || hard_nodes < s->run.node_limit)
            s->run.node_limit = hard_nodes;
    } else if (hard_us) {
        s->run.deadline_seconds = s->run.start_seconds + (double)hard_us / 1e6;
    }
}

/* Time spent by the running search: its nodes under nodestime, else the wall clock. */
static int64_t elapsed_us(const Searcher *s) {
    if (s->clock.nodestime)
        return saturate_mul_div((int64_t)(s->stats.nodes & INT64_MAX), 1000, s->clock.nodestime);
    return (int64_t)((now_seconds() - s->run.start_seconds) * 1e6);
}

static int tigers_view(const Board *root, int score) {
    return root->side == SIDE_TIGERS ? score : -score;
}

static void describe_win(SearchResult *result) {
    result->win = RESULT_NONE;
    result->win_in = -1;
    if (result->score >= SCORE_WIN_MIN) {
        result->win = RESULT_TIGERS_WIN;
        result->win_in = SCORE_WIN - result->score;
    } else if (result->score <= -SCORE_WIN_MIN) {
        result->win = RESULT_SHEEP_WIN;
        result->win_in = SCORE_WIN + result->score;
    }
}

SearchResult search_run(Searcher *s, const Board *root, const Board *history,
                        int history_length) {
    SearchResult result;
    memset(&result, 0, sizeof result);
    memset(&s->stats, 0, sizeof s->stats);
    killers_clear(&s->killers);
    if (s->config.cache != CACHE_NONE)
        tt_clear(&s->tt);
    s->run.aborted = false;
    s->run.null_child_ply = -1;
    const SearchConfig *c = &s->config;
    s->run.loop_variants = config_loop_variants_on(c);
    if (c->history)
        history_clear(&s->history);
    /* A stop is for the search it was meant for; a late one must not end this one. */
    atomic_store(&s->stop_requested, false);
    s->run.limits_active = false;
    s->run.start_seconds = now_seconds();
    set_time_limits(s);

    if (!prepare_keys(s, root, history, history_length)) {
        result.failed = true;
        return result;
    }
    /* A finished game: nothing to search; the score says who won. */
    GameResult over = game_end_result(board_game_end(root));
    if (over != RESULT_NONE) {
        result.score = over == RESULT_TIGERS_WIN ? SCORE_WIN : -SCORE_WIN;
        describe_win(&result);
        return result;
    }

    int max_depth = s->config.depth ? s->config.depth : SEARCH_MAX_DEPTH;
    Move previous_best = s->root_hint;
    int previous_score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (s->config.cache != CACHE_NONE)
            tt_new_pass(&s->tt);
        if (s->config.history)
            history_age(&s->history);
        s->run.limits_active = depth > 1;
        Move best = MOVE_NONE;
        int score = search_root_aspiration(s, root, depth, previous_best, previous_score, &best);
        if (s->run.aborted) {
            /* Throw the unfinished pass away, its cache entries too. */
            if (s->config.cache != CACHE_NONE)
                tt_discard_pass(&s->tt);
            result.stopped = true;
            break;
        }
        previous_best = best;
        previous_score = score;
        result.move = best;
        result.score = tigers_view(root, score);
        result.depth = depth;
        result.pv_length = s->run.pv_length[0];
        memcpy(result.pv, s->run.pv[0], (size_t)result.pv_length * sizeof(Move));
        s->stats.depth = (uint64_t)depth;
        if (s->on_pass) {
            describe_win(&result);
            result.stats = s->stats;
            result.seconds = now_seconds() - s->run.start_seconds;
            s->on_pass(s->on_pass_context, &result);
        }
        if (score_is_win(score))
            break; /* a forced win or loss: deeper passes cannot change it */
        if (s->run.soft_us && elapsed_us(s) > s->run.soft_us)
            break; /* the next pass would not finish in time (movetime: half of it used) */
    }
    describe_win(&result);
    result.stats = s->stats;
    result.seconds = now_seconds() - s->run.start_seconds;
    return result;
}
