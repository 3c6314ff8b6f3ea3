// SPDX-License-Identifier: MIT
// `bench tbgen`, `bench tbprobe` and `bench tbverify`: build the sliding-phase tablebase, read
// it, and check it (docs/tablebase.md).
#include "tb_cmd.h"

#include "book.h"
#include "cli.h"
#include "describe.h"
#include "flags.h"
#include "movegen.h"
#include "output.h"
#include "parse.h"
#include "paths.h"
#include "rng.h"
#include "tablebase.h"
#include "tb_verify.h"
#include "tbplace_cmd.h"
#include "textfile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const char tbgen_synopsis[] =
    "usage: bench tbgen [-out FILE] [-threads N] [-captures K]\n"
    "  Solves every sliding-phase position (no sheep in hand, 0-4 captured, either side to\n"
    "  move; 88,260,972 up to symmetry) by retrograde analysis and writes the tablebase.\n"
    "  A smaller test game (-captures 1-4) needs -out: the default file is the rules' game.\n";

static const char tbprobe_synopsis[] =
    "usage: bench tbprobe -fen POSITION [-tb FILE] [-dir DIR] [-json FILE|-]\n"
    "       bench tbprobe -positions FILE [-tb FILE] [-dir DIR] [-json FILE|-]\n"
    "       bench tbprobe -info [-tb FILE] [-json FILE|-]\n"
    "  The value of a position for its side to move and the moves that keep it: in the\n"
    "  sliding phase win or loss in N plies, or draw; with sheep in hand win, draw or loss\n"
    "  from the placement layers (bench tbplace). -positions answers a file of positions,\n"
    "  one a line, in order; -info prints the sliding file's header and counts.\n";

static const char tbverify_synopsis[] =
    "usage: bench tbverify [-tb FILE] [-threads N] [-samples N] [-depth D] [-seed S]\n"
    "       bench tbverify -placement H [-dir DIR] [-tb FILE] [-threads N]\n"
    "  Checks every position against its successors by forward move generation (a win in n\n"
    "  has a successor lost in n - 1 and none sooner, a loss in n only successors won in at\n"
    "  most n - 1, a draw a drawn successor and no lost one), then up to N sampled positions\n"
    "  of each value up to D plies in each level (wins and losses in 0..D, and draws) against\n"
    "  a plain forward search and their eight symmetric images. Exits 1 when anything\n"
    "  disagrees. -placement H checks the placement layers of 1..H sheep in hand instead\n"
    "  (bench tbplace): every position's value the best of its successors' values.\n";

#define TB_FILE_HELP "default: " TB_DEFAULT_FILE " under the data root (make tablebase)"
#define TB_CAPTURES_HELP "the file's game: K captures win (default 5, the rules; 1-4: tests)"
#define TB_PLACE_DIR_HELP "the placement layers (default: " TB_PLACE_DIR " under the data root)"

#define TB_MAX_SAMPLE_PLIES 13 /* the forward search grows several times per ply */
#define SAMPLE_TRIES 20000000  /* classes drawn for the samples (about a second) */

static int default_threads(void) {
    int cores = cli_cores();
    return cores > 64 ? 64 : cores;
}

/* The value as text: "win in 7 plies", "loss in 0 plies", "draw". */
static char *value_text(TbValue v, char *out, size_t size) {
    if (v.outcome == TB_DRAW || v.plies < 0)
        snprintf(out, size, "%s", tb_outcome_name(v.outcome));
    else
        snprintf(out, size, "%s in %d plies", tb_outcome_name(v.outcome), v.plies);
    return out;
}

static const char *side_name(int side) { return side == SIDE_TIGERS ? "tigers" : "sheep"; }

static void print_counts(FILE *out, const TbIndex *index, int win_captures, const TbCounts *c) {
    fprintf(out, "captured  to move  %10s %10s %10s %10s\n", "positions", "wins", "losses",
            "draws");
    int64_t total = 0;
    for (int captured = 0; captured < win_captures; captured++)
        for (int side = 0; side < 2; side++) {
            fprintf(out, "%8d  %-7s  %10" PRId64 " %10" PRId64 " %10" PRId64 " %10" PRId64 "\n",
                    captured, side_name(side), c->positions[captured][side],
                    c->wins[captured][side], c->losses[captured][side], c->draws[captured][side]);
            total += c->positions[captured][side];
        }
    char text[BOARD_TEXT_MAX];
    fprintf(out, "positions up to symmetry: %" PRId64 "\n", total);
    if (c->longest_index >= 0) {
        Board b = tb_index_board(index, c->longest_index);
        fprintf(out, "longest win: %d plies, %s to move: %s\n", c->longest_plies, side_name(b.side),
                board_to_text(&b, text));
    }
}

static cJSON *counts_json(const TbIndex *index, int win_captures, const TbCounts *c) {
    cJSON *levels = cJSON_CreateArray();
    for (int captured = 0; captured < win_captures; captured++)
        for (int side = 0; side < 2; side++) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddNumberToObject(row, "captured", captured);
            cJSON_AddStringToObject(row, "side", side_name(side));
            cJSON_AddNumberToObject(row, "positions", (double)c->positions[captured][side]);
            cJSON_AddNumberToObject(row, "wins", (double)c->wins[captured][side]);
            cJSON_AddNumberToObject(row, "losses", (double)c->losses[captured][side]);
            cJSON_AddNumberToObject(row, "draws", (double)c->draws[captured][side]);
            cJSON_AddItemToArray(levels, row);
        }
    (void)index;
    return levels;
}

static void progress(void *context, const char *line) {
    (void)context;
    printf("%s\n", line);
    fflush(stdout);
}

int bench_tbgen_main(int argc, char **argv) {
    const char *out = NULL;
    int threads = default_threads(), captures = CAPTURES_TO_WIN;
    Error err;
    const CliFlag flags[] = {
        {"-out", CLI_FLAG_TEXT, &out, 0, 0, "FILE",
         "default: " TB_DEFAULT_FILE " under the data root (where the tools look)"},
        {"-threads", CLI_FLAG_INT, &threads, 1, 64, "N", "default: every core"},
        {"-captures", CLI_FLAG_INT, &captures, 1, TB_LEVELS, "K",
         "solve the smaller game that K captures win (1-5, default 5: the rules)"},
    };
    const CliCommand command = {.name = "tbgen",
                                .subcommand = "tbgen",
                                .synopsis = tbgen_synopsis,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    /* The default file is what every tool probes for the rules' game: a test game there would
     * give its values to positions of another game. */
    if (!out && captures != CAPTURES_TO_WIN)
        die("tbgen: -captures %d solves a test game: give -out FILE (the default file is the "
            "rules' game, %d captures, which every tool reads)",
            captures, CAPTURES_TO_WIN);
    char path[PATHS_MAX];
    if (!out && !paths_data_target(TB_DEFAULT_FILE, path, sizeof path, &err))
        die("tbgen: %s", err.text);
    if (out)
        snprintf(path, sizeof path, "%s", out);
    /* Minutes of solving: the file is checked before it starts, and locked while it runs. */
    /* A sliding file there is solved again; any other file is moved aside, as every command
     * moves an earlier output. */
    OutputPlan plan = {.tablebase_magic = TB_FILE_MAGIC};
    OutLock lock;
    output_plan_add(&plan, "-out", path, NULL);
    if (!output_plan_check(&plan, &err) ||
        !output_lock(&lock, "-out", path, "tbgen", "write the file twice", &err) ||
        !output_plan_move_aside(&plan, stdout, &err))
        die("tbgen: %s", err.text);
    TbIndex *index = tb_index_new();
    int64_t classes = index ? tb_gen_classes(index, captures) : 0;
    TbCode *codes = index ? calloc((size_t)classes, sizeof *codes) : NULL;
    if (!codes)
        die("tbgen: out of memory");
    printf("solving %" PRId64 " positions up to symmetry (%d captures win) on %d threads\n",
           classes, captures, threads);
    double wall = cli_now_seconds(), cpu = cli_cpu_seconds();
    TbGenSetup setup = {captures, threads, progress, NULL};
    if (!tb_generate(index, &setup, codes, &err))
        die("tbgen: %s", err.text);
    wall = cli_now_seconds() - wall;
    cpu = cli_cpu_seconds() - cpu;
    OutFile file;
    if (!output_begin(&plan, &file, path, &err) || !tb_write(&file, index, captures, codes, &err))
        die("tbgen: %s", err.text);
    TbCounts counts;
    tb_count(index, captures, codes, &counts);
    print_counts(stdout, index, captures, &counts);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("solved in %.1f s (%.1f s CPU), peak memory %ld MB; wrote %s\n", wall, cpu,
           usage.ru_maxrss / 1024, path);
    free(codes);
    tb_index_free(index);
    outfile_unlock(&lock);
    return 0;
}

static Tablebase *open_given(const char *given, int captures, char *path, size_t size,
                             const char *command) {
    Error err;
    if (!paths_tablebase(given, path, size, &err))
        die("%s: %s", command, err.text);
    Tablebase *tb = tb_new(path, captures, &err);
    if (!tb)
        die("%s: %s", command, err.text);
    return tb;
}

/* json written as -json asks (through the checked plan), then freed. */
static void write_json(const OutputPlan *plan, cJSON *json, const char *json_path) {
    Error err;
    bool ok = output_write_json(plan, json, json_path, &err);
    cJSON_Delete(json);
    if (!ok)
        die("tbprobe: -json: %s", err.text);
}

static int print_info(const Tablebase *tb, const char *path, const OutputPlan *plan,
                      const char *json_path) {
    const TbHeader *h = tb_header(tb);
    FILE *out = json_path && !strcmp(json_path, "-") ? stderr : stdout;
    fprintf(out, "file: %s\nformat: %d, rules: %s, %d captures win\n", path, h->version, TB_RULES,
            h->win_captures);
    fprintf(out, "entries: %" PRId64 " of %d byte(s), checksum %016" PRIx64 "\n", h->entries,
            h->entry_bytes, h->checksum);
    print_counts(out, tb_index(tb), h->win_captures, &h->counts);
    if (!json_path)
        return 0;
    cJSON *json = cJSON_CreateObject();
    char hex[20], text[BOARD_TEXT_MAX];
    snprintf(hex, sizeof hex, "%016" PRIx64, h->checksum);
    cJSON_AddStringToObject(json, "file", path);
    cJSON_AddNumberToObject(json, "version", h->version);
    cJSON_AddStringToObject(json, "rules", TB_RULES);
    cJSON_AddNumberToObject(json, "win_captures", h->win_captures);
    cJSON_AddNumberToObject(json, "classes", (double)h->entries);
    cJSON_AddNumberToObject(json, "entry_bytes", h->entry_bytes);
    cJSON_AddStringToObject(json, "checksum", hex);
    cJSON_AddItemToObject(json, "levels", counts_json(tb_index(tb), h->win_captures, &h->counts));
    if (h->counts.longest_index >= 0) {
        Board b = tb_index_board(tb_index(tb), h->counts.longest_index);
        cJSON *longest = cJSON_AddObjectToObject(json, "longest_win");
        cJSON_AddNumberToObject(longest, "plies", h->counts.longest_plies);
        cJSON_AddStringToObject(longest, "position", board_to_text(&b, text));
    }
    write_json(plan, json, json_path);
    return 0;
}

/* A move and the value it leaves the opponent. */
typedef struct {
    Move move;
    TbValue after;
    bool keeps, best;
} Successor;

/* Best for the mover first: the opponent's fastest loss, then draws, then its slowest win. */
static int successor_rank(const Successor *s) {
    if (s->after.outcome == TB_LOSS)
        return s->after.plies;
    if (s->after.outcome == TB_DRAW)
        return 100000;
    return 200000 - s->after.plies;
}

static int compare_successors(const void *a, const void *b) {
    int x = successor_rank(a), y = successor_rank(b);
    return (x > y) - (x < y);
}

/* A position's answer: its value for the side to move (a placement position's without a
 * distance: plies -1) and each move's, best for the mover first. */
typedef struct {
    Board board;
    TbValue value;
    int count;
    Successor successors[MOVES_MAX];
} Answer;

static TbValue place_value(TbPlaceValue v) {
    return (TbValue){v == TB_PLACE_WIN ? TB_WIN : v == TB_PLACE_LOSS ? TB_LOSS : TB_DRAW, -1};
}

/* Answers b from the sliding file, or with sheep in hand from the placement layers (read on
 * first use). False with err when b is in neither. */
static bool answer(const Tablebase *tb, TbPlaceProber *prober, const Board *b, Answer *out,
                   Error *err) {
    out->board = *b;
    MoveList moves;
    movegen_all(b, &moves);
    out->count = moves.count;
    TbValue after[MOVES_MAX];
    if (b->in_hand) {
        TbPlaceValue value = TB_PLACE_NONE, place_after[MOVES_MAX];
        if (!tb_place_probe(prober, b, &value, place_after, err))
            return false;
        out->value = place_value(value);
        for (int i = 0; i < moves.count; i++)
            after[i] = place_value(place_after[i]);
    } else {
        if (!tb_probe(tb, b, &out->value))
            return error_set(err, "not in the tablebase: the game is over by captures");
        for (int i = 0; i < moves.count; i++)
            after[i] = tb_probe_after(tb, b, moves.moves[i]);
    }
    for (int i = 0; i < moves.count; i++) {
        bool best = out->value.plies >= 0 && tb_move_is_best(out->value, after[i]);
        /* Every move keeps a loss: the ones listed for it are those that delay it most (a
         * placement position's loss has no distance: every move). */
        bool keeps = out->value.outcome == TB_LOSS && out->value.plies >= 0
                         ? best
                         : tb_move_keeps(out->value, after[i]);
        out->successors[i] = (Successor){moves.moves[i], after[i], keeps, best};
    }
    qsort(out->successors, (size_t)moves.count, sizeof *out->successors, compare_successors);
    return true;
}

static void print_answer(FILE *out, const Answer *a) {
    char text[BOARD_TEXT_MAX], value[48], move[MOVE_TEXT_MAX];
    fprintf(out, "position: %s\nvalue: %s for the %s to move\n", board_to_text(&a->board, text),
            value_text(a->value, value, sizeof value), side_name(a->board.side));
    fprintf(out, "moves that keep it:");
    for (int i = 0; i < a->count; i++)
        if (a->successors[i].keeps)
            fprintf(out, " %s%s", move_to_text(a->successors[i].move, move),
                    a->successors[i].best && a->value.outcome != TB_DRAW ? "*" : "");
    fprintf(out, "%s\n",
            a->value.outcome == TB_DRAW || a->value.plies < 0 ? ""
                                                               : "  (* fastest win / slowest loss)");
    for (int i = 0; i < a->count; i++)
        fprintf(out, "  %-6s -> %s for the %s\n", move_to_text(a->successors[i].move, move),
                value_text(a->successors[i].after, value, sizeof value),
                side_name(a->board.side ^ 1));
}

static cJSON *answer_json(const Answer *a) {
    char text[BOARD_TEXT_MAX], move[MOVE_TEXT_MAX];
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "position", board_to_text(&a->board, text));
    cJSON_AddStringToObject(json, "side", side_name(a->board.side));
    cJSON_AddStringToObject(json, "value", tb_outcome_name(a->value.outcome));
    if (a->value.plies >= 0)
        cJSON_AddNumberToObject(json, "plies", a->value.plies);
    else
        cJSON_AddNullToObject(json, "plies");
    cJSON *keeping = cJSON_AddArrayToObject(json, "moves");
    cJSON *best = cJSON_AddArrayToObject(json, "best_moves");
    cJSON *all = cJSON_AddArrayToObject(json, "successors");
    for (int i = 0; i < a->count; i++) {
        const Successor *s = &a->successors[i];
        move_to_text(s->move, move);
        if (s->keeps)
            cJSON_AddItemToArray(keeping, cJSON_CreateString(move));
        if (s->best)
            cJSON_AddItemToArray(best, cJSON_CreateString(move));
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "move", move);
        cJSON_AddStringToObject(row, "value", tb_outcome_name(s->after.outcome));
        if (s->after.plies >= 0)
            cJSON_AddNumberToObject(row, "plies", s->after.plies);
        else
            cJSON_AddNullToObject(row, "plies");
        cJSON_AddItemToArray(all, row);
    }
    return json;
}

static int probe_position(const Tablebase *tb, TbPlaceProber *prober, const char *fen,
                          const OutputPlan *plan, const char *json_path) {
    Board b;
    Error err;
    if (!board_from_text(fen, &b, &err))
        die("tbprobe: -fen '%s': %s", fen, err.text);
    Answer a;
    if (!answer(tb, prober, &b, &a, &err))
        die("tbprobe: -fen '%s': %s", fen, err.text);
    print_answer(json_path && !strcmp(json_path, "-") ? stderr : stdout, &a);
    if (json_path)
        write_json(plan, answer_json(&a), json_path);
    return 0;
}

/* -positions FILE: a position a line in the book format (lib/game/book.h: blank lines and text
 * from '#' on skipped, a "; ID ..." after the position ignored, so a book or the bench suite is
 * read as it is), one answer a line in order: "POSITION: VALUE; keeps M1 M2 ...". A bad line or
 * a position not solved stops it, naming the file and line, before anything is written. */
static int probe_positions(const Tablebase *tb, TbPlaceProber *prober, const char *path,
                           const OutputPlan *plan, const char *json_path) {
    char *text;
    size_t length;
    Error err;
    if (!textfile_read(path, (size_t)1 << 30, false, &text, &length, &err))
        die("tbprobe: -positions: %s", err.text);
    cJSON *list = cJSON_CreateArray();
    FILE *out = json_path && !strcmp(json_path, "-") ? stderr : stdout;
    int line_number = 0, answered = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_number++;
        line[strcspn(line, "\r")] = '\0';
        BookEntry entry;
        bool is_entry;
        Answer a;
        if (!book_parse_line(line, line_number, false, &entry, &is_entry, &err) ||
            (is_entry && !answer(tb, prober, &entry.board, &a, &err)))
            die("tbprobe: %s:%d: '%s': %s", path, line_number, line, err.text);
        if (!is_entry)
            continue;
        const Board b = entry.board;
        char board_text[BOARD_TEXT_MAX], value[48], move[MOVE_TEXT_MAX];
        fprintf(out, "%s: %s; keeps", board_to_text(&b, board_text),
                value_text(a.value, value, sizeof value));
        for (int i = 0; i < a.count; i++)
            if (a.successors[i].keeps)
                fprintf(out, " %s", move_to_text(a.successors[i].move, move));
        fputc('\n', out);
        cJSON_AddItemToArray(list, answer_json(&a));
        answered++;
    }
    free(text);
    fflush(out);
    fprintf(stderr, "tbprobe: %d positions answered from %s\n", answered, path);
    if (json_path)
        write_json(plan, list, json_path);
    else
        cJSON_Delete(list);
    return 0;
}

int bench_tbprobe_main(int argc, char **argv) {
    const char *fen = NULL, *given = NULL, *json_path = NULL, *positions = NULL, *dir = NULL;
    bool info = false;
    int captures = CAPTURES_TO_WIN;
    const CliFlag flags[] = {
        {"-fen", CLI_FLAG_TEXT, &fen, 0, 0, "POSITION", "the position to probe"},
        {"-positions", CLI_FLAG_TEXT, &positions, 0, 0, "FILE", "positions to probe, one a line"},
        {"-dir", CLI_FLAG_TEXT, &dir, 0, 0, "DIR", TB_PLACE_DIR_HELP},
        {"-info", CLI_FLAG_SWITCH, &info, 0, 0, NULL, "the file's header and counts"},
        {"-tb", CLI_FLAG_TEXT, &given, 0, 0, "FILE", TB_FILE_HELP},
        {"-captures", CLI_FLAG_INT, &captures, 1, TB_LEVELS, "K", TB_CAPTURES_HELP},
        {"-json", CLI_FLAG_TEXT, &json_path, 0, 0, "FILE|-", "also write the answer as JSON"},
    };
    const CliCommand command = {.name = "tbprobe",
                                .subcommand = "tbprobe",
                                .synopsis = tbprobe_synopsis,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    if (info + (fen != NULL) + (positions != NULL) != 1)
        die("tbprobe: give one of -fen POSITION, -positions FILE or -info (bench tbprobe -help)");
    if (info && dir)
        die("tbprobe: -dir: -info prints the sliding file's header; the layers are probed with "
            "-fen or -positions");
    char path[PATHS_MAX], layers[PATHS_MAX];
    Error err;
    if (!paths_tablebase(given, path, sizeof path, &err))
        die("tbprobe: %s", err.text);
    bench_layer_dir(dir, layers, sizeof layers, "tbprobe");
    OutputPlan plan; /* the files it reads are never its output */
    bench_plan_tb_command(&plan, json_path, positions, path, layers, "tbprobe");
    Tablebase *tb = open_given(given, captures, path, sizeof path, "tbprobe");
    TbPlaceProber *prober = bench_place_prober(dir, tb, "tbprobe");
    int status = info  ? print_info(tb, path, &plan, json_path)
                 : fen ? probe_position(tb, prober, fen, &plan, json_path)
                       : probe_positions(tb, prober, positions, &plan, json_path);
    tb_place_prober_free(prober);
    tb_free(tb);
    return status;
}

/* Whether the plain forward search agrees with v about b (searching at most max_plies). */
static bool search_agrees(const Board *b, TbValue v, int win_captures, int max_plies) {
    switch (v.outcome) {
    case TB_WIN:
        return tb_win_within(b, v.plies, win_captures) &&
               !tb_win_within(b, v.plies - 2, win_captures);
    case TB_LOSS:
        return tb_lost_within(b, v.plies, win_captures) &&
               (v.plies < 2 || !tb_lost_within(b, v.plies - 2, win_captures));
    default:
        return !tb_win_within(b, max_plies, win_captures) &&
               !tb_lost_within(b, max_plies, win_captures);
    }
}

/* Samples of each value up to max_plies, from every level alike (the 4-captured level holds 73%
 * of the classes): in each level, every win and loss distance is a bucket of its own, and the
 * draws one more. Each sample is checked against the forward search and its eight images.
 * Returns how many disagree. */
static int check_samples(const Tablebase *tb, int samples, int max_plies, uint64_t seed) {
    const TbHeader *h = tb_header(tb);
    const TbIndex *index = tb_index(tb);
    Rng rng = rng_seeded(seed);
    int found[TB_LEVELS][TB_MAX_SAMPLE_PLIES + 2] = {{0}}, failures = 0;
    double start = cli_now_seconds();
    /* Some buckets stay short (few positions with one empty point lose in 8), so the draws are
     * bounded by a number of tries rather than by every bucket filling. */
    for (int64_t tries = 0; tries < SAMPLE_TRIES; tries++) {
        int level = (int)(tries % h->win_captures);
        int64_t first = tb_index_block_start(index, level, SIDE_SHEEP);
        int64_t i = first + (int64_t)rng_below(
                                &rng, 2 * (uint64_t)tb_index_block_size(index, level, SIDE_SHEEP));
        TbValue v = tb_value_of(tb_code_at(tb, i));
        int bucket = v.outcome == TB_DRAW ? max_plies + 1 : v.plies;
        if (bucket > max_plies + 1 || found[level][bucket] >= samples)
            continue;
        found[level][bucket]++;
        Board b = tb_index_board(index, i);
        bool agrees = search_agrees(&b, v, h->win_captures, max_plies);
        for (Symmetry s = 0; s < SYMMETRIES; s++) {
            Board image = sym_board(s, &b);
            TbValue w;
            agrees =
                agrees && tb_probe(tb, &image, &w) && w.outcome == v.outcome && w.plies == v.plies;
        }
        if (!agrees && failures++ < 10) {
            char text[BOARD_TEXT_MAX], value[48];
            printf("  disagrees: %s: tablebase %s\n", board_to_text(&b, text),
                   value_text(v, value, sizeof value));
        }
    }
    printf("forward search (to %d plies) and symmetric images, sampled per level:", max_plies);
    for (int level = 0; level < h->win_captures; level++) {
        int wins = 0, losses = 0;
        for (int bucket = 0; bucket <= max_plies; bucket++)
            *(bucket % 2 ? &wins : &losses) += found[level][bucket];
        printf("%s %d captured %d wins, %d losses, %d draws", level ? ";" : "", level, wins, losses,
               found[level][max_plies + 1]);
    }
    printf("; %d disagree (%.1f s)\n", failures, cli_now_seconds() - start);
    return failures;
}

int bench_tbverify_main(int argc, char **argv) {
    const char *given = NULL;
    /* -1 and 0: not given (the sliding check's 100 samples, 9 plies, seed 1) */
    int threads = default_threads(), samples = -1, depth = 0, captures = CAPTURES_TO_WIN;
    int placement = 0, from = 1;
    const char *dir = NULL;
    int64_t seed = -1;
    Error err;
    const CliFlag flags[] = {
        {"-tb", CLI_FLAG_TEXT, &given, 0, 0, "FILE", TB_FILE_HELP},
        {"-placement", CLI_FLAG_INT, &placement, 1, SHEEP_TOTAL, "H",
         "check the placement layers of 1..H sheep in hand"},
        {"-from", CLI_FLAG_INT, &from, 1, SHEEP_TOTAL, "L",
         "with -placement: check from L sheep in hand (the layers below read only: a "
         "verification stopped part way goes on)"},
        {"-dir", CLI_FLAG_TEXT, &dir, 0, 0, "DIR", TB_PLACE_DIR_HELP},
        {"-captures", CLI_FLAG_INT, &captures, 1, TB_LEVELS, "K", TB_CAPTURES_HELP},
        {"-threads", CLI_FLAG_INT, &threads, 1, 64, "N", "default: every core"},
        {"-samples", CLI_FLAG_INT, &samples, 0, 100000, "N",
         "sampled positions of each value and level (100)"},
        {"-depth", CLI_FLAG_INT, &depth, 1, TB_MAX_SAMPLE_PLIES, "D",
         "the samples' longest distance, in plies (9)"},
        {"-seed", CLI_FLAG_INT64, &seed, 0, 0x1p63, "S", "of the samples (1)"},
    };
    const CliCommand command = {.name = "tbverify",
                                .subcommand = "tbverify",
                                .synopsis = tbverify_synopsis,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    char path[PATHS_MAX];
    Tablebase *tb = open_given(given, captures, path, sizeof path, "tbverify");
    if (dir && !placement)
        die("tbverify: -dir is the placement layers' directory: give -placement H");
    if (from > 1 && (!placement || from > placement))
        die("tbverify: -from %d needs -placement H with H >= %d", from, from);
    if (placement && (samples >= 0 || depth || seed >= 0))
        die("tbverify: %s: the samples belong to the sliding file's check; -placement checks "
            "every position of its layers",
            samples >= 0 ? "-samples" : depth ? "-depth" : "-seed");
    samples = samples >= 0 ? samples : 100;
    depth = depth ? depth : 9;
    seed = seed >= 0 ? seed : 1;
    if (placement) {
        int status = bench_tbplace_verify(dir, tb, from, placement, threads);
        tb_free(tb);
        return status;
    }
    const TbHeader *h = tb_header(tb);
    TbCode *codes = malloc((size_t)h->entries * sizeof *codes);
    if (!codes)
        die("tbverify: out of memory");
    for (int64_t i = 0; i < h->entries; i++)
        codes[i] = tb_code_at(tb, i);
    printf("%s: %" PRId64 " positions, checksum %016" PRIx64 " (checked on opening)\n", path,
           h->entries, h->checksum);
    double wall = cli_now_seconds();
    TbCheck check;
    if (!tb_verify(tb_index(tb), h->win_captures, codes, 0, h->entries, threads, &check, &err))
        die("tbverify: %s", err.text);
    printf("successors: %" PRId64 " positions checked, %" PRId64 " inconsistent (%.1f s, %d "
           "threads)\n",
           check.checked, check.failures, cli_now_seconds() - wall, threads);
    if (check.failures) {
        char text[BOARD_TEXT_MAX];
        Board b = tb_index_board(tb_index(tb), check.first_failure);
        printf("  first: %s: %s\n", board_to_text(&b, text), check.first_reason);
    }
    TbCounts counts;
    tb_count(tb_index(tb), h->win_captures, codes, &counts);
    bool counts_match = counts.longest_plies == h->counts.longest_plies &&
                        counts.longest_index == h->counts.longest_index &&
                        !memcmp(counts.positions, h->counts.positions, sizeof counts.positions) &&
                        !memcmp(counts.wins, h->counts.wins, sizeof counts.wins) &&
                        !memcmp(counts.losses, h->counts.losses, sizeof counts.losses) &&
                        !memcmp(counts.draws, h->counts.draws, sizeof counts.draws);
    printf("header counts %s the entries\n", counts_match ? "match" : "DO NOT match");
    int disagreements = check_samples(tb, samples, depth, (uint64_t)seed);
    free(codes);
    tb_free(tb);
    bool ok = !check.failures && counts_match && !disagreements;
    printf("%s\n", ok ? "tablebase verified" : "TABLEBASE CHECK FAILED");
    return ok ? 0 : 1;
}
