// SPDX-License-Identifier: MIT
// `bench tbaccuracy`: a search measured against perfect play wherever the game is solved. From
// each placement layer solved (sheep in hand 1..H, either side to move) and from the sliding
// phase, N positions are drawn (seeded, uniformly over the layer's positions up to symmetry),
// searched with the given options, and the move is checked against the tablebases: does it keep
// the position's value (a win stays a win, a draw a draw; every move keeps a loss), and when not,
// which blunder it is (a win thrown to a draw or to a loss, a draw to a loss).
#include "tbaccuracy_cmd.h"

#include "bench_args.h"
#include "book.h"
#include "cli.h"
#include "describe.h"
#include "flags.h"
#include "movegen.h"
#include "output.h"
#include "paths.h"
#include "rng.h"
#include "tb_shared.h"
#include "tb_judge.h"
#include "tbplace_cmd.h"
#include "textfile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_DEPTH 6
#define ROWS_MAX (2 * SHEEP_TOTAL + 1)

static const char tbaccuracy_synopsis[] =
    "usage: bench tbaccuracy [-in-hand H] [-samples N] [-seed S] [-positions FILE] [-dir DIR]\n"
    "                        [-tb FILE] [-json FILE] [key=value ...]\n"
    "  Draws N positions from each placement layer of 1..H sheep in hand (either side to move)\n"
    "  and from the sliding phase, or takes the positions of FILE (one a line; those whose\n"
    "  layer is solved), searches each with the options (default depth=6), and counts per\n"
    "  layer the moves that keep the perfect-play value and the blunders: a win thrown to a\n"
    "  draw or a loss, a draw to a loss (bench tbplace solves the layers).\n";

/* One row: a layer (in_hand > 0) or the sliding phase (in_hand 0, both sides). */
typedef struct {
    int in_hand;
    Side side;
    int positions, wins, draws, losses, kept;
    int win_to_draw, win_to_loss, draw_to_loss;
    uint64_t nodes;
} Row;

/* Each blunder, for -json: the position, its line in -positions FILE (0 when drawn), and the
 * kind, so that two configurations can be compared position by position. */
typedef struct {
    cJSON *list;
    int line;
} BlunderList;

/* Counts one searched position: its value and the value its move leaves the opponent; a
 * blunder is listed. */
static void count_position(Row *row, const Board *b, TbOutcome value, TbOutcome after,
                           uint64_t nodes, BlunderList *blunders) {
    row->positions++;
    row->nodes += nodes;
    row->wins += value == TB_WIN;
    row->draws += value == TB_DRAW;
    row->losses += value == TB_LOSS;
    TbVerdict verdict = tb_verdict(value, after);
    row->kept += verdict == TB_VERDICT_KEPT;
    row->win_to_draw += verdict == TB_VERDICT_WIN_TO_DRAW;
    row->win_to_loss += verdict == TB_VERDICT_WIN_TO_LOSS;
    row->draw_to_loss += verdict == TB_VERDICT_DRAW_TO_LOSS;
    if (verdict == TB_VERDICT_KEPT)
        return;
    char text[BOARD_TEXT_MAX];
    board_to_text(b, text);
    cJSON *item = cJSON_CreateObject();
    if (blunders->line)
        cJSON_AddNumberToObject(item, "line", blunders->line);
    cJSON_AddStringToObject(item, "position", text);
    cJSON_AddStringToObject(item, "verdict", TB_VERDICT_KEYS[verdict]);
    cJSON_AddItemToArray(blunders->list, item);
}

/* The index in movegen_all's list of m (-1: not there). */
static int move_index(const Board *b, Move m) {
    MoveList list;
    movegen_all(b, &list);
    for (int k = 0; k < list.count; k++)
        if (list.moves[k] == m)
            return k;
    return -1;
}

static SearchResult search(Searcher *searcher, const Board *b) {
    SearchResult result = search_run(searcher, b, NULL, 0);
    if (result.failed)
        die("tbaccuracy: out of memory in the search");
    return result;
}

/* The row of b: its layer, or the sliding phase (the last row). */
static Row *row_of(Row rows[], int count, const Board *b) {
    for (int i = 0; i < count - 1; i++)
        if (rows[i].in_hand == b->in_hand && rows[i].side == b->side)
            return &rows[i];
    return b->in_hand ? NULL : &rows[count - 1];
}

/* -positions FILE: each position whose layer is solved (up to in_hand), in its row; a position
 * of a layer beyond, or over, is skipped and counted. A bad line stops it, naming the line. */
static int from_file(const char *path, Row rows[], int count, TbPlaceProber *prober,
                     const Tablebase *tb, Searcher *searcher, BlunderList *blunders) {
    char *text;
    size_t length;
    Error err;
    if (!textfile_read(path, (size_t)1 << 30, false, &text, &length, &err))
        die("tbaccuracy: -positions: %s", err.text);
    int line_number = 0, skipped = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_number++;
        BookEntry entry;
        bool is_entry;
        if (!book_parse_line(line, line_number, false, &entry, &is_entry, &err))
            die("tbaccuracy: %s:%d: %s", path, line_number, err.text);
        if (!is_entry)
            continue;
        const Board b = entry.board;
        Row *row = row_of(rows, count, &b);
        if (!row || board_game_end(&b) != GAME_END_NONE) {
            skipped++;
            continue;
        }
        SearchResult result = search(searcher, &b);
        blunders->line = line_number;
        if (row->in_hand) {
            TbPlaceValue value, after[MOVES_MAX];
            if (!tb_place_probe(prober, &b, &value, after, &err))
                die("tbaccuracy: %s:%d: %s", path, line_number, err.text);
            int k = move_index(&b, result.move);
            if (k < 0)
                die("tbaccuracy: %s:%d: the search returned an illegal move", path, line_number);
            count_position(row, &b, tb_place_outcome(value), tb_place_outcome(after[k]),
                           result.stats.nodes, blunders);
        } else {
            TbValue value;
            if (!tb_probe(tb, &b, &value))
                continue;
            count_position(row, &b, value.outcome, tb_probe_after(tb, &b, result.move).outcome,
                           result.stats.nodes, blunders);
        }
    }
    free(text);
    return skipped;
}

static void sample_layer(Row *row, TbPlaceProber *prober, Searcher *searcher, int samples,
                         Rng *rng, BlunderList *blunders) {
    Error err;
    const TbLayer *layer = tb_place_prober_layer(prober, row->in_hand, row->side, &err);
    if (!layer)
        die("tbaccuracy: %s", err.text);
    for (int tries = 0; row->positions < samples && tries < 100 * samples; tries++) {
        Board b = tb_layer_board(layer, (int64_t)rng_below(rng, (uint64_t)layer->count));
        if (board_game_end(&b) != GAME_END_NONE)
            continue; /* no move to judge */
        TbPlaceValue value, after[MOVES_MAX];
        if (!tb_place_probe(prober, &b, &value, after, &err))
            die("tbaccuracy: %s", err.text);
        SearchResult result = search(searcher, &b);
        int k = move_index(&b, result.move);
        if (k < 0)
            die("tbaccuracy: the search returned an illegal move");
        count_position(row, &b, tb_place_outcome(value), tb_place_outcome(after[k]),
                       result.stats.nodes, blunders);
    }
}

static void sample_sliding(Row *row, const Tablebase *tb, Searcher *searcher, int samples,
                           Rng *rng, BlunderList *blunders) {
    const TbHeader *h = tb_header(tb);
    for (int tries = 0; row->positions < samples && tries < 100 * samples; tries++) {
        Board b = tb_index_board(tb_index(tb), (int64_t)rng_below(rng, (uint64_t)h->entries));
        TbValue value;
        if (board_game_end(&b) != GAME_END_NONE || !tb_probe(tb, &b, &value))
            continue;
        SearchResult result = search(searcher, &b);
        count_position(row, &b, value.outcome, tb_probe_after(tb, &b, result.move).outcome,
                       result.stats.nodes, blunders);
    }
}

static double percent(int part, int whole) { return whole ? 100.0 * part / whole : 0.0; }

static void row_name(const Row *row, char *out, size_t size) {
    if (row->in_hand)
        snprintf(out, size, "%d in hand, %s", row->in_hand,
                 row->side == SIDE_SHEEP ? "sheep" : "tigers");
    else
        snprintf(out, size, "sliding phase");
}

static void print_row(FILE *out, const char *name, const Row *r) {
    fprintf(out, "%-20s %6d %5d %5d %5d %6.1f%% %6d %6d %6d %10.0f\n", name, r->positions,
            r->wins, r->draws, r->losses, percent(r->kept, r->positions), r->win_to_draw,
            r->win_to_loss, r->draw_to_loss,
            r->positions ? (double)r->nodes / r->positions : 0.0);
}

static void add_row(Row *total, const Row *r) {
    total->positions += r->positions;
    total->wins += r->wins;
    total->draws += r->draws;
    total->losses += r->losses;
    total->kept += r->kept;
    total->win_to_draw += r->win_to_draw;
    total->win_to_loss += r->win_to_loss;
    total->draw_to_loss += r->draw_to_loss;
    total->nodes += r->nodes;
}

static cJSON *row_json(const char *name, const Row *r) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "layer", name);
    cJSON_AddNumberToObject(json, "in_hand", r->in_hand);
    cJSON_AddNumberToObject(json, "positions", r->positions);
    cJSON_AddNumberToObject(json, "wins", r->wins);
    cJSON_AddNumberToObject(json, "draws", r->draws);
    cJSON_AddNumberToObject(json, "losses", r->losses);
    cJSON_AddNumberToObject(json, "kept", r->kept);
    cJSON_AddNumberToObject(json, "win_to_draw", r->win_to_draw);
    cJSON_AddNumberToObject(json, "win_to_loss", r->win_to_loss);
    cJSON_AddNumberToObject(json, "draw_to_loss", r->draw_to_loss);
    cJSON_AddNumberToObject(json, "nodes", (double)r->nodes);
    return json;
}

int bench_tbaccuracy_main(int argc, char **argv) {
    SearchConfig config = config_default();
    const char *dir = NULL, *given_tb = NULL, *json_path = NULL, *positions = NULL;
    int in_hand = 4, samples = 0; /* 0 and -1: not given (100 and 1) */
    int64_t seed = -1;
    Error err;
    const CliFlag flags[] = {
        {"-in-hand", CLI_FLAG_INT, &in_hand, 0, SHEEP_TOTAL, "H",
         "the placement layers of 1..H sheep in hand (4; 0: the sliding phase only)"},
        {"-samples", CLI_FLAG_INT, &samples, 1, 1000000, "N", "positions a layer (100)"},
        {"-seed", CLI_FLAG_INT64, &seed, 0, 0x1p63, "S", "of the draw (1)"},
        {"-positions", CLI_FLAG_TEXT, &positions, 0, 0, "FILE",
         "the positions of FILE instead of a draw"},
        {"-dir", CLI_FLAG_TEXT, &dir, 0, 0, "DIR",
         "the placement layers (default: " TB_PLACE_DIR " under the data root)"},
        {"-tb", CLI_FLAG_TEXT, &given_tb, 0, 0, "FILE",
         "the sliding file (default: " TB_DEFAULT_FILE ")"},
        {"-json", CLI_FLAG_TEXT, &json_path, 0, 0, "FILE", "also write the rows as JSON"},
    };
    CliCommand command = {.name = "tbaccuracy",
                          .subcommand = "tbaccuracy",
                          .synopsis = tbaccuracy_synopsis,
                          .flags = flags,
                          .count = sizeof flags / sizeof flags[0]};
    if (!bench_parse_search_command(&command, argc, argv, &config, DEFAULT_DEPTH))
        return 0;
    if (positions && (samples || seed >= 0))
        die("tbaccuracy: %s: -positions FILE searches the file's positions; -samples and -seed "
            "are a draw's",
            samples ? "-samples" : "-seed");
    samples = samples ? samples : 100;
    seed = seed >= 0 ? seed : 1;
    char tb_path[PATHS_MAX], layers[PATHS_MAX];
    if (!paths_tablebase(given_tb, tb_path, sizeof tb_path, &err))
        die("tbaccuracy: %s", err.text);
    bench_layer_dir(dir, layers, sizeof layers, "tbaccuracy");
    OutputPlan plan; /* the files it reads are never its output: checked before any search */
    bench_plan_tb_command(&plan, json_path, positions, tb_path, layers, "tbaccuracy");
    Tablebase *tb = tb_new(tb_path, CAPTURES_TO_WIN, &err);
    if (!tb)
        die("tbaccuracy: %s", err.text);
    TbPlaceProber *prober = bench_place_prober(dir, tb, "tbaccuracy");
    Searcher *searcher = malloc(sizeof *searcher);
    if (!searcher || !cli_searcher_init(searcher, &config, &err))
        die("tbaccuracy: %s", searcher ? err.text : "out of memory");
    Row rows[ROWS_MAX];
    int count_rows = 0, skipped = 0;
    for (int h = in_hand; h >= 1; h--) /* the game's order: most sheep in hand first */
        for (int side = SIDE_SHEEP; side <= SIDE_TIGERS; side++)
            rows[count_rows++] = (Row){.in_hand = h, .side = (Side)side};
    rows[count_rows++] = (Row){.in_hand = 0};
    Rng rng = rng_seeded((uint64_t)seed);
    BlunderList blunders = {.list = cJSON_CreateArray()};
    if (positions) {
        skipped = from_file(positions, rows, count_rows, prober, tb, searcher, &blunders);
    } else {
        for (int i = 0; i < count_rows - 1; i++)
            sample_layer(&rows[i], prober, searcher, samples, &rng, &blunders);
        sample_sliding(&rows[count_rows - 1], tb, searcher, samples, &rng, &blunders);
    }

    FILE *out = bench_table_stream(json_path);
    char config_text[512], name[48];
    config_to_text(&config, config_text, sizeof config_text);
    fprintf(out, "config: %s\n", config_text);
    if (positions)
        fprintf(out, "positions of %s (%d skipped: over, or their layer not asked for)\n",
                positions, skipped);
    else
        fprintf(out, "seed %" PRId64 ", %d positions a layer\n", seed, samples);
    fprintf(out, "%-20s %6s %5s %5s %5s %7s %6s %6s %6s %10s\n", "layer", "pos", "wins",
            "draws", "loss", "kept", "W->D", "W->L", "D->L", "nodes/pos");
    Row placement = {0};
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "config", config_text);
    cJSON_AddNumberToObject(json, "seed", (double)seed);
    cJSON *list = cJSON_AddArrayToObject(json, "layers");
    for (int i = 0; i < count_rows; i++) {
        row_name(&rows[i], name, sizeof name);
        print_row(out, name, &rows[i]);
        cJSON_AddItemToArray(list, row_json(name, &rows[i]));
        if (rows[i].in_hand)
            add_row(&placement, &rows[i]);
    }
    if (placement.positions) {
        print_row(out, positions ? "placement" : "placement (sampled)", &placement);
        cJSON_AddItemToObject(json, "placement", row_json("placement", &placement));
    }
    cJSON_AddItemToObject(json, "blunders", blunders.list);
    bool ok = !json_path || output_write_json(&plan, json, json_path, &err);
    cJSON_Delete(json);
    if (!ok)
        die("tbaccuracy: -json: %s", err.text);
    searcher_destroy(searcher);
    free(searcher);
    tb_place_prober_free(prober);
    tb_free(tb);
    return 0;
}
