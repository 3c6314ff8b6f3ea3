// SPDX-License-Identifier: MIT
#include "fingerprint.h"

#include "tb_shared.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* One position of each phase of the bench suite (bench/positions.txt): placement from the
 * start, the middle and the end of it, a capture in reach, and the movement phase. */
static const char *const FINGERPRINT_SUITE[] = {
    "T3T/5/5/5/T3T s 20 0",
    "T3T/1S1S1/5/1S1S1/T3T t 16 0",
    "T2S1/2S2/3T1/5/T1SST s 16 0",
    "2SS1/3SS/T2SS/ST3/ST2T s 11 1",
    "SSSSS/1S1SS/S2SS/STT1S/S1TTS t 4 1",
    "SS1SS/S1TSS/1TSSS/STS1S/SSSTS t 0 3",
    "SSSSS/SS3/STTSS/STSSS/T1SSS t 0 3",
};
#define FNV_OFFSET 0xcbf29ce484222325ull

static uint64_t fnv_mix(uint64_t hash, uint64_t value) {
    for (int i = 0; i < 8; i++) {
        hash ^= (value >> (8 * i)) & 0xff;
        hash *= 0x100000001b3ull;
    }
    return hash;
}

/* Searches the suite with config (its limits replaced by the fixed depth), mixing every move,
 * score and node count into *hash and adding the nodes to *nodes. */
static bool search_suite(const SearchConfig *given, uint64_t *hash, uint64_t *nodes, Error *err) {
    SearchConfig config = *given;
    config.depth = FINGERPRINT_DEPTH;
    config.nodes = 0;
    config.movetime = 0;
    Searcher searcher;
    if (!cli_searcher_init(&searcher, &config, err))
        return false;
    for (size_t i = 0; i < sizeof FINGERPRINT_SUITE / sizeof *FINGERPRINT_SUITE; i++) {
        Board board;
        if (!board_from_text(FINGERPRINT_SUITE[i], &board, err)) {
            searcher_destroy(&searcher);
            return false;
        }
        SearchResult result = search_run(&searcher, &board, NULL, 0);
        *hash = fnv_mix(*hash, result.move);
        *hash = fnv_mix(*hash, (uint64_t)(int64_t)result.score);
        *hash = fnv_mix(*hash, result.stats.nodes);
        *nodes += result.stats.nodes;
    }
    searcher_destroy(&searcher);
    return true;
}

bool fingerprint_compute(const EngineSpec *engines, const Book *book, Fingerprint *out,
                         Error *err) {
    memset(out, 0, sizeof *out); /* defined on failure too (-O3's inlining warns otherwise) */
    uint64_t hash = FNV_OFFSET, nodes = 0;
    for (int e = 0; e < MATCH_ENGINES; e++) {
        if (!search_suite(&engines[e].config, &hash, &nodes, err))
            return false;
        out->configs[e] = config_hash(&engines[e].config);
    }
    out->search = hash;
    out->nodes = nodes;
    out->book = book->content_hash;
    return true;
}

bool fingerprint_signature(const SearchConfig *config, uint64_t *hash, uint64_t *nodes,
                           Error *err) {
    *hash = FNV_OFFSET;
    *nodes = 0;
    return search_suite(config, hash, nodes, err);
}

void fingerprint_text(const Fingerprint *f, char *out, size_t size) {
    snprintf(out, size, "search:%016" PRIx64 " nodes:%" PRIu64 " configs:%016" PRIx64 "/%016" PRIx64
                        " book:%016" PRIx64,
             f->search, f->nodes, f->configs[0], f->configs[1], f->book);
}
