// SPDX-License-Identifier: MIT
#include "pair_wire.h"

#include "game.h"

#include <stdlib.h>
#include <string.h>

#define PAIR_WIRE_MAGIC 0x52505354u /* "TSPR" */
/* Far beyond any run (abtest's rounds stop at 10^12), and far enough from INT64_MAX that pair
 * arithmetic cannot overflow. */
#define PAIR_WIRE_INDEX_LIMIT ((uint64_t)1 << 62)

void wire_buffer_destroy(WireBuffer *buffer) {
    free(buffer->data);
    *buffer = (WireBuffer){NULL, 0, 0};
}

static bool reserve(WireBuffer *b, size_t more) {
    if (b->used + more <= b->capacity)
        return true;
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->used + more)
        capacity *= 2;
    uint8_t *data = realloc(b->data, capacity);
    if (!data)
        return false;
    b->data = data;
    b->capacity = capacity;
    return true;
}

/* Little-endian writes into reserved room. */
static void put(WireBuffer *b, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; i++)
        b->data[b->used++] = (uint8_t)(value >> (8 * i));
}

/* A cursor over received bytes: a read past the end sets short_read and yields 0. */
typedef struct {
    const uint8_t *data;
    size_t size, at;
    bool short_read;
} Reader;

static uint64_t get(Reader *r, int bytes) {
    if (r->size - r->at < (size_t)bytes) {
        r->short_read = true;
        r->at = r->size;
        return 0;
    }
    uint64_t value = 0;
    for (int i = 0; i < bytes; i++)
        value |= (uint64_t)r->data[r->at++] << (8 * i);
    return value;
}

bool pair_wire_encode_generation(int64_t generation, WireBuffer *out) {
    if (!reserve(out, 8))
        return false;
    put(out, (uint64_t)generation, 8);
    return true;
}

bool pair_wire_decode_generation(const uint8_t *data, size_t size, int64_t *generation,
                                 size_t *used) {
    Reader r = {data, size, 0, false};
    uint64_t value = get(&r, 8);
    *used = r.at;
    *generation = (int64_t)value;
    return !r.short_read && value < PAIR_WIRE_INDEX_LIMIT;
}

/* Bytes of one game before its moves. */
#define GAME_HEADER_BYTES (4 + 4 + 1 + 1 + 1 + 1 + 1 + 1 + 4 + MATCH_ENGINES * 5 * 8)
/* Bytes of one ply: the move and its note (score, flags, depth, time). */
#define PLY_BYTES (2 + 4 + 1 + 1 + 8)

bool pair_wire_encode(const PairRecord *pair, WireBuffer *out) {
    size_t bytes = 4 + 8 + 2 + 4;
    for (int g = 0; g < 2; g++)
        bytes += GAME_HEADER_BYTES + PLY_BYTES * (size_t)pair->games[g].plies;
    if (!reserve(out, bytes))
        return false;
    put(out, PAIR_WIRE_MAGIC, 4);
    put(out, (uint64_t)pair->index, 8);
    put(out, (uint64_t)pair->pairing, 2);
    put(out, (uint32_t)pair->opening, 4);
    for (int g = 0; g < 2; g++) {
        const GameRecord *game = &pair->games[g];
        put(out, game->start.tigers, 4);
        put(out, game->start.sheep, 4);
        put(out, game->start.in_hand, 1);
        put(out, game->start.captured, 1);
        put(out, game->start.side, 1);
        put(out, (uint64_t)game->tigers_engine, 1);
        put(out, (uint64_t)game->end, 1);
        put(out, (uint64_t)game->result, 1);
        put(out, (uint32_t)game->plies, 4);
        for (int e = 0; e < MATCH_ENGINES; e++) {
            put(out, game->engine[e].moves, 8);
            put(out, game->engine[e].nodes, 8);
            put(out, game->engine[e].depth_sum, 8);
            put(out, game->engine[e].time_us, 8);
            put(out, game->engine[e].given_us, 8);
        }
        for (int i = 0; i < game->plies; i++) {
            const MoveNote *note = &game->notes[i];
            put(out, game->moves[i], 2);
            put(out, (uint32_t)note->score, 4);
            put(out, note->flags, 1);
            put(out, note->depth, 1);
            put(out, (uint64_t)note->time_us, 8);
        }
    }
    return true;
}

static bool decode_game(Reader *r, int max_plies, GameRecord *game, int number, Error *err) {
    game->start.tigers = (uint32_t)get(r, 4);
    game->start.sheep = (uint32_t)get(r, 4);
    game->start.in_hand = (uint8_t)get(r, 1);
    game->start.captured = (uint8_t)get(r, 1);
    game->start.side = (uint8_t)get(r, 1);
    uint64_t tigers_engine = get(r, 1), end = get(r, 1), result = get(r, 1), plies = get(r, 4);
    for (int e = 0; e < MATCH_ENGINES; e++) {
        game->engine[e].moves = get(r, 8);
        game->engine[e].nodes = get(r, 8);
        game->engine[e].depth_sum = get(r, 8);
        game->engine[e].time_us = get(r, 8);
        game->engine[e].given_us = get(r, 8);
    }
    if (r->short_read)
        return error_set(err, "game %d: the message ends inside its header", number);
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (game->engine[e].time_us > MATCH_COUNT_MAX || game->engine[e].given_us > MATCH_COUNT_MAX)
            return error_set(err, "game %d: engine %d's clock times are out of range", number,
                             e + 1);
    if (!board_is_consistent(&game->start))
        return error_set(err, "game %d: the start position is not a position", number);
    if (tigers_engine >= MATCH_ENGINES)
        return error_set(err, "game %d: tigers engine %llu", number,
                         (unsigned long long)tigers_engine);
    if (end == GAME_END_NONE || end > GAME_END_MAX_MOVES)
        return error_set(err, "game %d: end reason %llu", number, (unsigned long long)end);
    if (result == RESULT_NONE || result > RESULT_DRAW)
        return error_set(err, "game %d: result %llu", number, (unsigned long long)result);
    if (plies > (uint64_t)max_plies)
        return error_set(err, "game %d: %llu plies, more than the %d allowed", number,
                         (unsigned long long)plies, max_plies);
    game->tigers_engine = (int)tigers_engine;
    game->end = (GameEnd)end;
    game->result = (GameResult)result;
    game->plies = (int)plies;
    game->moves = malloc(sizeof *game->moves * (plies ? plies : 1));
    game->notes = calloc(plies ? plies : 1, sizeof *game->notes);
    if (!game->moves || !game->notes)
        return error_set(err, "game %d: out of memory for %llu moves", number,
                         (unsigned long long)plies);
    for (uint64_t i = 0; i < plies; i++) {
        MoveNote *note = &game->notes[i];
        game->moves[i] = (Move)get(r, 2);
        note->score = (int32_t)(uint32_t)get(r, 4);
        note->flags = (uint8_t)get(r, 1);
        note->depth = (uint8_t)get(r, 1);
        uint64_t time_us = get(r, 8);
        if (time_us > MATCH_COUNT_MAX)
            return error_set(err, "game %d, ply %llu: a move's time of %llu us", number,
                             (unsigned long long)i + 1, (unsigned long long)time_us);
        note->time_us = (int64_t)time_us;
    }
    if (r->short_read)
        return error_set(err, "game %d: the message ends inside its moves", number);
    return true;
}

bool pair_wire_decode(const uint8_t *data, size_t size, int max_plies, PairRecord *out,
                      size_t *used, Error *err) {
    memset(out, 0, sizeof *out);
    *used = 0; /* defined on failure too: link-time inlining otherwise warns at the caller */
    Reader r = {data, size, 0, false};
    uint64_t magic = get(&r, 4);
    uint64_t index = get(&r, 8);
    uint64_t pairing = get(&r, 2);
    uint64_t opening = get(&r, 4);
    if (r.short_read)
        return error_set(err, "a pair message of %zu bytes is too short", size);
    if (magic != PAIR_WIRE_MAGIC)
        return error_set(err, "not a pair message (it starts %08llx)", (unsigned long long)magic);
    if (index >= PAIR_WIRE_INDEX_LIMIT || opening > (uint64_t)INT32_MAX ||
        pairing >= TOURNAMENT_PAIRINGS_MAX)
        return error_set(err, "pair number, pairing or opening out of range");
    out->index = (int64_t)index;
    out->pairing = (int)pairing;
    out->opening = (int)opening;
    for (int g = 0; g < 2; g++)
        if (!decode_game(&r, max_plies, &out->games[g], g + 1, err)) {
            match_pair_destroy(out);
            return false;
        }
    *used = r.at;
    return true;
}

/* Replays game from its start: every move legal, the end and result the rules', the engines'
 * move counts those of the sides they played. */
static bool verify_game(const GameRecord *game, int max_plies, int number, Error *err) {
    Game replay;
    Error inner;
    if (!game_init(&replay, &game->start, &inner))
        return error_set(err, "game %d: %s", number, inner.text);
    bool ok = true;
    uint64_t moves_by[MATCH_ENGINES] = {0, 0};
    for (int i = 0; ok && i < game->plies; i++) {
        const Board *now = game_current(&replay);
        int engine = now->side == SIDE_TIGERS ? game->tigers_engine : 1 - game->tigers_engine;
        moves_by[engine]++;
        if (!game_play(&replay, game->moves[i], &inner))
            ok = error_set(err, "game %d, ply %d: %s", number, i + 1, inner.text);
    }
    if (ok && replay.end == GAME_END_NONE && game->plies >= max_plies)
        game_adjudicate(&replay, GAME_END_MAX_MOVES);
    if (ok && (replay.end != game->end || replay.result != game->result))
        ok = error_set(err, "game %d: the moves end in %s, the record says %s", number,
                       game_end_name(replay.end), game_end_name(game->end));
    for (int e = 0; ok && e < MATCH_ENGINES; e++)
        if (game->engine[e].moves != moves_by[e])
            ok = error_set(err, "game %d: engine %d played %llu moves, the record says %llu",
                           number, e + 1, (unsigned long long)moves_by[e],
                           (unsigned long long)game->engine[e].moves);
    game_destroy(&replay);
    return ok;
}

bool pair_wire_verify(const PairRecord *pair, const PairSetup *setup, const Book *book,
                      const Schedule *schedule, Error *err) {
    if (pair->index < setup->segment.first_pair)
        return error_set(err, "pair %lld: before pair %lld, where the job's pairings start",
                         (long long)pair->index + 1, (long long)setup->segment.first_pair + 1);
    int pairing = tournament_pairing_of(&setup->segment, pair->index);
    if (pair->pairing != pairing)
        return error_set(err, "pair %lld: pairing %d, the schedule says %d",
                         (long long)pair->index + 1, pair->pairing + 1, pairing + 1);
    int64_t round = match_pair_round(setup, pair->index);
    int opening = schedule_opening(schedule, round);
    if (pair->opening != opening)
        return error_set(err, "pair %lld: opening %lld, the schedule says %d",
                         (long long)pair->index + 1, (long long)pair->opening + 1, opening + 1);
    Board start = match_opening_position(&book->entries[opening].board, setup->random_plies,
                                         setup->seed, round);
    for (int g = 0; g < 2; g++) {
        const GameRecord *game = &pair->games[g];
        if (!board_equal(&game->start, &start))
            return error_set(err, "pair %lld, game %d: not the pair's start position",
                             (long long)pair->index + 1, g + 1);
        if (game->tigers_engine != g)
            return error_set(err, "pair %lld, game %d: the wrong engine plays the tigers",
                             (long long)pair->index + 1, g + 1);
        Error inner;
        if (!verify_game(game, setup->max_plies, g + 1, &inner))
            return error_set(err, "pair %lld, %s", (long long)pair->index + 1, inner.text);
    }
    return true;
}
