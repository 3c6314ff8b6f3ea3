// SPDX-License-Identifier: MIT
// The search spine. search_node() reads as numbered steps; each feature is a helper behind its
// toggle. Scores inside are from the side to move's view (negamax); reports turn them to the
// tigers' view.
#include "search.h"

#include "movegen.h"
#include "symmetry.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TIME_CHECK_MASK 1023 /* read the clock every 1024 nodes */

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

void searcher_destroy(Searcher *s) {
    if (s->config.cache != CACHE_NONE)
        tt_destroy(&s->tt);
    free(s->run.keys);
    s->run.keys = NULL;
}

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
    if (s->config.nodes && s->stats.nodes > (uint64_t)s->config.nodes)
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

/* Cache lookup key: the position's own key, or its canonical image's (symmetry=on), with the
 * symmetry that maps the position to the stored board. */
static uint64_t cache_key(const Searcher *s, const Board *b, Symmetry *sym) {
    *sym = 0;
    if (!s->config.symmetry)
        return board_key(b);
    Board canonical = sym_canonical(b, sym);
    return board_key(&canonical);
}

static int search_node(Searcher *s, const Board *b, int depth, int ply, int alpha, int beta,
                       int reversible_start);

/* Plays m from b (at key index `index` of the line) and searches the child; returns the score
 * from b's side. A placement or capture starts a new reversible stretch for the repetition
 * scan. */
static int search_move(Searcher *s, const Board *b, Move m, int depth, int ply, int alpha,
                       int beta, int index, int reversible_start) {
    Board child = *b;
    board_make(&child, m);
    int child_start = is_irreversible(m) ? index + 1 : reversible_start;
    return -search_node(s, &child, depth - 1, ply + 1, -beta, -alpha, child_start);
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

    /* 3. Leaf: evaluate, unless the side to move has no move (a loss). */
    if (depth == 0) {
        if (movegen_count(b) == 0) {
            stats->terminals++;
            return lost_score(ply);
        }
        stats->leaves++;
        int eval = eval_tigers(b, &s->config);
        return b->side == SIDE_TIGERS ? eval : -eval;
    }

    /* 4. Cache (toggles: cache, symmetry, hint). Bounds narrow the window or end the node;
     * the stored move is the hint; with no entry at this depth, the previous pass's entry at
     * depth - 1 still gives a hint. */
    Move hint = MOVE_NONE;
    Symmetry sym = 0;
    uint64_t key = 0;
    bool use_cache = s->config.cache != CACHE_NONE;
    if (use_cache) {
        key = cache_key(s, b, &sym);
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

    /* 5. Moves, ordered: hint, jumps (toggle: jumps_first), killers (toggle: killers). */
    MoveList list;
    generate(s, b, &list);
    stats->movegens++;
    if (list.count == 0) {
        stats->terminals++;
        return lost_score(ply);
    }
    order_moves(&list, hint, s->config.jumps_first, s->config.killers ? &s->killers : NULL,
                depth);

    /* 6. The move loop, fail-soft. */
    int best = -SCORE_INFINITE, dependency = INT_MAX;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int score = search_move(s, b, m, depth, ply, alpha, beta, index, reversible_start);
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
            break;
        }
    }

    /* 7. Store: exact, lower or upper bound relative to the window actually searched, unless a
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

/* One pass at the root. Every move after the first is searched with alpha one below the best
 * score so far, so that a move scoring exactly as well is seen exactly and ties are broken by
 * canonical_rank, whatever the ordering. The root is never cached. */
static int search_root(Searcher *s, const Board *root, int depth, Move previous_best,
                       Move *best_move_out) {
    s->stats.nodes++;
    int index = s->run.history;
    s->run.keys[index] = board_key(root);
    MoveList canonical, list;
    movegen_all(root, &canonical);
    generate(s, root, &list);
    s->stats.movegens++;
    order_moves(&list, s->config.hint ? previous_best : MOVE_NONE, s->config.jumps_first,
                s->config.killers ? &s->killers : NULL, depth);
    int best = -SCORE_INFINITE;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int alpha = best == -SCORE_INFINITE ? -SCORE_INFINITE : best - 1;
        int score = search_move(s, root, m, depth, 0, alpha, SCORE_INFINITE, index,
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
    }
    *best_move_out = best_move;
    return best;
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
    /* A stop is for the search it was meant for; a late one must not end this one. */
    atomic_store(&s->stop_requested, false);
    s->run.limits_active = false;
    s->run.start_seconds = now_seconds();
    s->run.deadline_seconds =
        s->config.movetime ? s->run.start_seconds + (double)s->config.movetime / 1000.0 : 0;

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
    for (int depth = 1; depth <= max_depth; depth++) {
        if (s->config.cache != CACHE_NONE)
            tt_new_pass(&s->tt);
        s->run.limits_active = depth > 1;
        Move best = MOVE_NONE;
        int score = search_root(s, root, depth, previous_best, &best);
        if (s->run.aborted) {
            /* Throw the unfinished pass away, its cache entries too. */
            if (s->config.cache != CACHE_NONE)
                tt_discard_pass(&s->tt);
            result.stopped = true;
            break;
        }
        previous_best = best;
        result.move = best;
        result.score = tigers_view(root, score);
        result.depth = depth;
        result.pv_length = s->run.pv_length[0];
        memcpy(result.pv, s->run.pv[0], (size_t)result.pv_length * sizeof(Move));
        s->stats.depth = (uint64_t)depth;
        if (score_is_win(score))
            break; /* a forced win or loss: deeper passes cannot change it */
        double elapsed = now_seconds() - s->run.start_seconds;
        if (s->config.movetime && elapsed * 2000.0 > (double)s->config.movetime)
            break; /* more than half the time used: the next pass would not finish */
    }
    describe_win(&result);
    result.stats = s->stats;
    result.seconds = now_seconds() - s->run.start_seconds;
    return result;
}
