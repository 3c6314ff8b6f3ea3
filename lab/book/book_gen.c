// SPDX-License-Identifier: MIT
// Opening books: random legal plies from the start (seeded), duplicates removed up to symmetry,
// kept only when a shallow search scores them within a balance margin. With depth or node limits
// the engines are deterministic, so a book must be larger than the runs it serves.
#include "book_gen.h"

#include "cli.h"
#include "flags.h"
#include "movegen.h"
#include "parse.h"
#include "rng.h"
#include "search.h"
#include "symmetry.h"
#include "tb_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char book_synopsis[] =
    "usage: abtest book -out FILE [-positions N] [-plies K] [-seed S] [-depth D] [-margin M]\n"
    "  Writes N openings: K random legal plies from the start, no two symmetric to each other,\n"
    "  none ending the game, each scored by a depth-D search within +-M of 0 from the tigers'\n"
    "  side. Fails, leaving no file, when no position fits.\n";

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

/* K random plies from the start, never ending the game; false if that cannot be done. */
static bool random_opening(Rng *rng, int plies, Board *out) {
    Board b = board_start();
    for (int ply = 0; ply < plies; ply++) {
        MoveList list, playable;
        movegen_all(&b, &list);
        playable.count = 0;
        for (int i = 0; i < list.count; i++) {
            Board child = b;
            board_make(&child, list.moves[i]);
            if (board_game_end(&child) == GAME_END_NONE)
                playable.moves[playable.count++] = list.moves[i];
        }
        if (playable.count == 0)
            return false;
        board_make(&b, playable.moves[rng_below(rng, (uint64_t)playable.count)]);
    }
    *out = b;
    return true;
}

int abtest_book_main(int argc, char **argv) {
    const char *out_path = NULL;
    int positions = 50000, plies = 8, depth = 4, margin = 90;
    int64_t seed = 1;
    Error err;
    const CliFlag flags[] = {
        {"-out", CLI_FLAG_TEXT, &out_path, 0, 0, "FILE", "the book to write (required)"},
        {"-positions", CLI_FLAG_INT, &positions, 1, 10000000, "N", "openings to write (50000)"},
        {"-plies", CLI_FLAG_INT, &plies, 1, 200, "K", "random plies from the start (8)"},
        {"-seed", CLI_FLAG_INT64, &seed, 0, 0x1p63, "S", "of the random plies (1)"},
        {"-depth", CLI_FLAG_INT, &depth, 1, 12, "D", "of the search that scores each (4)"},
        {"-margin", CLI_FLAG_INT, &margin, 0, 100000, "M",
         "the largest score kept, either side (90)"},
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

    SearchConfig config = config_default();
    config.depth = depth;
    config.tt_bits = 16;
    Searcher *searcher = malloc(sizeof *searcher);
    if (!searcher || !cli_searcher_init(searcher, &config, &err))
        die("book: %s", searcher ? err.text : "out of memory");
    size_t capacity = 1;
    while (capacity < 4 * (size_t)positions)
        capacity <<= 1;
    KeySet seen = {calloc(capacity, sizeof(uint64_t)), capacity - 1};
    char temporary[1024];
    snprintf(temporary, sizeof temporary, "%s.tmp", out_path);
    FILE *out = fopen(temporary, "w");
    if (!seen.keys || !out)
        die("book: cannot write %s", temporary);
    fprintf(out, "# tslab opening book: abtest book -positions %d -plies %d -seed %lld -depth %d "
                 "-margin %d\n# POSITION ; ID plies, depth-%d score (tigers' view)\n",
            positions, plies, (long long)seed, depth, margin, depth);
    Rng rng = rng_seeded((uint64_t)seed);
    int written = 0;
    int64_t attempts = 0, duplicates = 0, unbalanced = 0, limit = 200 * (int64_t)positions;
    double start = cli_now_seconds();
    while (written < positions && attempts < limit) {
        attempts++;
        Board b;
        if (!random_opening(&rng, plies, &b))
            continue;
        Board canonical = sym_canonical(&b, NULL);
        size_t slot = keyset_slot(&seen, board_key(&canonical));
        if (seen.keys[slot]) {
            duplicates++;
            continue;
        }
        SearchResult r = search_run(searcher, &b, NULL, 0);
        if (r.failed)
            die("book: out of memory in the search");
        if (r.score > margin || r.score < -margin) {
            unbalanced++;
            continue;
        }
        seen.keys[slot] = board_key(&canonical);
        char text[BOARD_TEXT_MAX];
        fprintf(out, "%s ; o%d plies %d, score %d\n", board_to_text(&b, text), ++written, plies,
                r.score);
    }
    bool closed = fclose(out) == 0;
    bool ok = closed && written > 0 && rename(temporary, out_path) == 0;
    if (!ok)
        remove(temporary); /* nothing half-written is left behind */
    fprintf(stderr, "book: %d positions written to %s in %.1f s (%lld tries: %lld duplicates up "
                    "to symmetry, %lld outside the margin)\n",
            written, ok ? out_path : "nothing", cli_now_seconds() - start, (long long)attempts,
            (long long)duplicates, (long long)unbalanced);
    searcher_destroy(searcher);
    free(searcher);
    free(seen.keys);
    if (written == 0)
        die("book: no position scored within -margin %d at depth %d in %lld tries: widen the "
            "margin or change -plies; %s was not written",
            margin, depth, (long long)attempts, out_path);
    if (!ok)
        die("book: could not write %s", out_path);
    if (written < positions)
        die("book: only %d of %d positions found: use more -plies or a wider -margin", written,
            positions);
    return 0;
}
