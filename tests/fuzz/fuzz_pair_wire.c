// SPDX-License-Identifier: MIT
// Pair messages from other ranks: any bytes decode or are refused with a message; what decodes
// encodes back to the same bytes, and the verifier (replaying the games against a one-position
// book) accepts or refuses it without crashing.
#include "fuzz.h"
#include "pair_wire.h"

static const char BOOK_TEXT[] = "T3T/5/5/5/T3T s 20 0 ; start\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static Book book;
    static Schedule schedule;
    static bool ready;
    Error err;
    if (!ready) {
        MatchSettings settings = {0};
        settings.start = 1;
        if (!book_parse_text(&book, BOOK_TEXT, sizeof BOOK_TEXT - 1, "fuzz", true, &err) ||
            !schedule_init(&schedule, &book, &settings))
            abort();
        ready = true;
    }
    /* A match: one pairing, engine 0 against engine 1, open from pair 0. */
    PairSetup setup = {.pairings = {.count = 1, .pairings = {{0, 1}}},
                       .segment = tournament_segment_all(1),
                       .max_plies = 300,
                       .seed = 1};
    size_t at = 0;
    while (at < size) { /* a message may hold several pairs */
        PairRecord pair;
        size_t used;
        if (!pair_wire_decode(data + at, size - at, setup.max_plies, &pair, &used, &err))
            break;
        WireBuffer again = {0};
        if (!pair_wire_encode(&pair, &again) || again.used != used ||
            memcmp(again.data, data + at, used))
            abort();
        wire_buffer_destroy(&again);
        pair_wire_verify(&pair, &setup, &book, &schedule, &err);
        match_pair_destroy(&pair);
        at += used;
    }
    return 0;
}
