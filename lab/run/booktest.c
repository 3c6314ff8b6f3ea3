// SPDX-License-Identifier: MIT
#include "booktest.h"

#include "arguments.h"
#include "cli.h"
#include "pair_batch.h"
#include "parse.h"
#include "report.h"
#include "schedule.h"
#include "sprt.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOOKTEST_BOOKS_MAX 16
#define BOOKTEST_DIFFS_MAX 16
#define BOOKTEST_ARGS_MAX 256
#define BOOKTEST_DIFF_WORDS_MAX 32

/* The SPRT whose cost a cell estimates: fishtest's [0, 5] normalized, alpha = beta = 0.05. */
static const SprtParams PLAN_SPRT = {0, 5, 0.05, 0.05, SPRT_MODEL_NORMALIZED, false};

typedef struct {
    const char *books[BOOKTEST_BOOKS_MAX];
    int book_count;
    const char *diffs[BOOKTEST_DIFFS_MAX];
    int diff_count;
    int pairs;
    const char *json_path;
    char *rest[BOOKTEST_ARGS_MAX]; /* the match's options (-each, -srand, -concurrency, ...) */
    int rest_count;
} BooktestArgs;

/* What one book and one difference gave. */
typedef struct {
    Pentanomial penta;
    int64_t game_draws;
    int64_t plies; /* of every game, after the opening: the cell's cost at a node limit */
    SprtEstimate estimate;
    double pair_draw_ratio, game_draw_ratio, plies_per_game;
    double expected_pairs, pass_probability; /* 0 when the plan has no answer */
} Cell;

static const char *const REFUSED[] = {"-engine", "-rounds", "-games", "-sprt",   "-openings",
                                      "-out",    "-pgnout", "-plot",  "-resume", "-tb"};

static bool parse_args(BooktestArgs *a, int argc, char **argv, Error *err) {
    memset(a, 0, sizeof *a);
    a->pairs = 200;
    for (int i = 0; i < argc; i++) {
        const char *word = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(word, "-book")) {
            if (!has_value)
                return error_set(err, "-book needs a file");
            if (a->book_count == BOOKTEST_BOOKS_MAX)
                return error_set(err, "more than %d books", BOOKTEST_BOOKS_MAX);
            a->books[a->book_count++] = argv[++i];
        } else if (!strcmp(word, "-diff")) {
            if (!has_value || !argv[i + 1][0])
                return error_set(err, "-diff needs the options the first engine adds, such as "
                                      "\"killers=off\"");
            if (a->diff_count == BOOKTEST_DIFFS_MAX)
                return error_set(err, "more than %d differences", BOOKTEST_DIFFS_MAX);
            a->diffs[a->diff_count++] = argv[++i];
        } else if (!strcmp(word, "-pairs")) {
            Error inner = {{0}};
            if (!has_value || !parse_int(argv[i + 1], 1, 10000000, &a->pairs, &inner))
                return error_set(err, "-pairs: %s", has_value ? inner.text : "needs a number");
            i++;
        } else if (!strcmp(word, "-json")) {
            if (!has_value)
                return error_set(err, "-json needs a file");
            a->json_path = argv[++i];
        } else {
            for (size_t r = 0; r < sizeof REFUSED / sizeof *REFUSED; r++)
                if (!strcmp(word, REFUSED[r]))
                    return error_set(err,
                                     "%s: abtest booktest makes its engines (the -each "
                                     "configuration, and it with each -diff), books (-book) and "
                                     "length (-pairs) itself",
                                     word);
            if (a->rest_count == BOOKTEST_ARGS_MAX)
                return error_set(err, "more than %d arguments", BOOKTEST_ARGS_MAX);
            a->rest[a->rest_count++] = argv[i];
        }
    }
    if (a->book_count == 0)
        return error_set(err, "no book: give -book FILE (one per candidate)");
    if (a->diff_count == 0)
        return error_set(err, "no difference: give -diff \"OPTIONS\" (one per known difference)");
    return true;
}

/* The match of one cell: the difference's engine first (as fishtest and fastchess order
 * them), the -each configuration second, the book, -pairs rounds. */
static bool cell_settings(const BooktestArgs *a, const char *book, const char *diff,
                          MatchSettings *settings, Error *err) {
    char diff_copy[1024], book_word[1100], rounds[32];
    if (strlen(diff) >= sizeof diff_copy)
        return error_set(err, "-diff \"%.40s...\": too long", diff);
    memcpy(diff_copy, diff, strlen(diff) + 1);
    snprintf(book_word, sizeof book_word, "file=%s", book);
    snprintf(rounds, sizeof rounds, "%d", a->pairs);
    char *argv[BOOKTEST_ARGS_MAX + BOOKTEST_DIFF_WORDS_MAX + 10];
    int argc = 0;
    argv[argc++] = "-engine";
    argv[argc++] = "name=variant";
    for (char *word = strtok(diff_copy, " \t"); word; word = strtok(NULL, " \t")) {
        if (argc == 2 + BOOKTEST_DIFF_WORDS_MAX)
            return error_set(err, "-diff \"%s\": more than %d options", diff,
                             BOOKTEST_DIFF_WORDS_MAX);
        argv[argc++] = word;
    }
    char *fixed[] = {"-engine", "name=base", "-openings", book_word, "-rounds", rounds};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        argv[argc++] = fixed[i];
    for (int i = 0; i < a->rest_count; i++)
        argv[argc++] = a->rest[i];
    bool exit_now;
    Error inner = {{0}};
    if (!arguments_parse(argc, argv, settings, &exit_now, &inner))
        return error_set(err, "-diff \"%s\", -book %s: %s", diff, book, inner.text);
    if (settings->concurrency == 0)
        settings->concurrency = cli_cores();
    return true;
}

static void count_pair(Cell *cell, const PairScore *score) {
    Pentanomial *p = &cell->penta;
    switch (score->half_points) {
    case 0:
        p->ll++;
        break;
    case 1:
        p->ld++;
        break;
    case 2:
        *(score->draws == 2 ? &p->dd : &p->wl) += 1;
        break;
    case 3:
        p->wd++;
        break;
    default:
        p->ww++;
        break;
    }
    cell->game_draws += score->draws;
    cell->plies += score->plies;
}

static void finish_cell(Cell *cell, int pairs) {
    SprtSample sample = sprt_sample_pentanomial(&cell->penta);
    cell->estimate = sprt_estimate(&sample);
    cell->pair_draw_ratio = sprt_pair_draw_ratio(&cell->penta);
    cell->game_draw_ratio = pairs ? (double)cell->game_draws / (2.0 * pairs) : 0;
    cell->plies_per_game = pairs ? (double)cell->plies / (2.0 * pairs) : 0;
    sprt_plan_pairs(&PLAN_SPRT, cell->estimate.nelo, &cell->pass_probability,
                    &cell->expected_pairs);
}

/* Plays one cell's pairs over book (loaded from book_path). */
static bool play_cell(const BooktestArgs *a, const char *book_path, const Book *book,
                      const char *diff, Cell *cell, Error *err) {
    MatchSettings settings;
    if (!cell_settings(a, book_path, diff, &settings, err))
        return false;
    Error inner = {{0}};
    Schedule order;
    int64_t *pairs = malloc(sizeof *pairs * (size_t)a->pairs);
    PairScore *scores = malloc(sizeof *scores * (size_t)a->pairs);
    bool ok = pairs && scores && schedule_init(&order, book, &settings);
    if (!ok) {
        free(pairs);
        free(scores);
        return error_set(err, "out of memory");
    }
    for (int i = 0; i < a->pairs; i++)
        pairs[i] = i;
    PairBatch batch = {settings.engines, settings_pair_setup(&settings, NULL), book, &order};
    atomic_bool abort_flag;
    atomic_init(&abort_flag, false);
    ok =
        pair_batch_play(&batch, pairs, a->pairs, settings.concurrency, &abort_flag, scores, &inner);
    if (!ok)
        error_set(err, "-diff \"%s\", -book %s: %s", diff, book_path, inner.text);
    memset(cell, 0, sizeof *cell);
    for (int i = 0; ok && i < a->pairs; i++)
        count_pair(cell, &scores[i]);
    finish_cell(cell, a->pairs);
    schedule_destroy(&order);
    free(pairs);
    free(scores);
    return ok;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void print_cell(const char *book, const char *diff, const Cell *c) {
    const SprtEstimate *e = &c->estimate;
    char plan[48] = "-";
    if (c->expected_pairs > 0)
        snprintf(plan, sizeof plan, "%.0f (H1 %.0f%%)", c->expected_pairs,
                 100 * c->pass_probability);
    char ptnml[112];
    snprintf(ptnml, sizeof ptnml, "[%llu, %llu, %llu, %llu, %llu]", (unsigned long long)c->penta.ll,
             (unsigned long long)c->penta.ld, (unsigned long long)(c->penta.wl + c->penta.dd),
             (unsigned long long)c->penta.wd, (unsigned long long)c->penta.ww);
    printf("%-20s %-24s %+7.2f +/- %5.2f %+7.2f +/- %5.2f %9.1f%% %9.1f%% %10.1f %-22s %s\n", book,
           diff, e->elo, e->elo_high - e->elo, e->nelo, e->nelo_high - e->nelo,
           100 * c->pair_draw_ratio, 100 * c->game_draw_ratio, c->plies_per_game, ptnml, plan);
}

/* Whether a cell's 95% interval leaves zero out: the sign it measured is real. */
static bool sign_resolved(const Cell *c) {
    return c->estimate.elo_low > 0 || c->estimate.elo_high < 0;
}

/* Per book after the first: each difference's expected pairs against the first book's (and
 * the plies those pairs play, which at a node limit is the time they take), then whether the
 * book keeps what the first book resolved: a sign the first book's interval settles must not
 * flip where this book settles it too, nor be left unsettled, and two differences whose
 * intervals do not overlap in the first book must keep their order. A difference the first book
 * leaves within noise (a tiny one) is compared by pairs only. */
static void print_comparison(const BooktestArgs *a, const Cell *cells) {
    printf("\nagainst %s:\n", base_name(a->books[0]));
    for (int b = 1; b < a->book_count; b++) {
        printf("  %-20s", base_name(a->books[b]));
        for (int d = 0; d < a->diff_count; d++) {
            const Cell *here = &cells[b * a->diff_count + d], *first = &cells[d];
            if (here->expected_pairs > 0 && first->expected_pairs > 0)
                printf("  %s x%.2f pairs (x%.2f plies)", a->diffs[d],
                       here->expected_pairs / first->expected_pairs,
                       here->expected_pairs * here->plies_per_game /
                           (first->expected_pairs * first->plies_per_game));
            else
                printf("  %s -", a->diffs[d]);
        }
        int problems = 0;
        for (int d = 0; d < a->diff_count; d++) {
            const Cell *here = &cells[b * a->diff_count + d], *first = &cells[d];
            if (!sign_resolved(first))
                continue;
            if (!sign_resolved(here))
                printf("%s%s: sign not resolved", problems++ ? ", " : "; ", a->diffs[d]);
            else if ((here->estimate.elo > 0) != (first->estimate.elo > 0))
                printf("%s%s: sign CHANGED", problems++ ? ", " : "; ", a->diffs[d]);
            for (int o = 0; o < d; o++) {
                const Cell *first_o = &cells[o], *here_o = &cells[b * a->diff_count + o];
                bool apart = first->estimate.elo_low > first_o->estimate.elo_high ||
                             first_o->estimate.elo_low > first->estimate.elo_high;
                if (apart && (here->estimate.elo > here_o->estimate.elo) !=
                                 (first->estimate.elo > first_o->estimate.elo))
                    printf("%s%s and %s: order CHANGED", problems++ ? ", " : "; ", a->diffs[o],
                           a->diffs[d]);
            }
        }
        printf("%s\n", problems ? "" : "; resolved signs and order kept");
    }
}

/* The cells played so far (the first done of them), so that a stopped run keeps them. */
static bool write_json(const BooktestArgs *a, const Cell *cells, int done, Error *err) {
    cJSON *list = cJSON_CreateArray();
    for (int b = 0; b < a->book_count; b++)
        for (int d = 0; d < a->diff_count && b * a->diff_count + d < done; d++) {
            const Cell *c = &cells[b * a->diff_count + d];
            cJSON *item = cJSON_CreateObject();
            cJSON_AddStringToObject(item, "book", a->books[b]);
            cJSON_AddStringToObject(item, "difference", a->diffs[d]);
            cJSON_AddNumberToObject(item, "pairs", a->pairs);
            double ptnml[5] = {(double)c->penta.ll, (double)c->penta.ld,
                               (double)(c->penta.wl + c->penta.dd), (double)c->penta.wd,
                               (double)c->penta.ww};
            cJSON_AddItemToObject(item, "ptnml", cJSON_CreateDoubleArray(ptnml, 5));
            cJSON_AddNumberToObject(item, "elo", c->estimate.elo);
            cJSON_AddNumberToObject(item, "elo_error", c->estimate.elo_high - c->estimate.elo);
            cJSON_AddNumberToObject(item, "nelo", c->estimate.nelo);
            cJSON_AddNumberToObject(item, "nelo_error", c->estimate.nelo_high - c->estimate.nelo);
            cJSON_AddNumberToObject(item, "pair_draw_ratio", c->pair_draw_ratio);
            cJSON_AddNumberToObject(item, "game_draw_ratio", c->game_draw_ratio);
            cJSON_AddNumberToObject(item, "plies_per_game", c->plies_per_game);
            cJSON_AddNumberToObject(item, "expected_pairs", c->expected_pairs);
            cJSON_AddNumberToObject(item, "pass_probability", c->pass_probability);
            cJSON_AddItemToArray(list, item);
        }
    bool ok = report_write_json(list, a->json_path, err);
    cJSON_Delete(list);
    return ok;
}

int abtest_booktest_main(int argc, char **argv) {
    if (argc >= 1 && (!strcmp(argv[0], "-help") || !strcmp(argv[0], "--help"))) {
        printf("usage: abtest booktest -book FILE ... -diff \"OPTIONS\" ... [-pairs P] [-json F]\n"
               "                       [-each key=value ...] [-concurrency N] [-srand S]\n"
               "                       [-maxmoves N]\n"
               "  Plays each known difference (OPTIONS added to the first engine) against the\n"
               "  -each configuration over each book for P pairs (200) and reports per book and\n"
               "  difference: Elo and nElo with 95%% errors, pair and game draw ratios, the\n"
               "  pentanomial, and the expected pairs to an SPRT [0, 5] normalized decision;\n"
               "  then each book's expected pairs against the first book's.\n");
        return 0;
    }
    BooktestArgs args;
    Error err = {{0}};
    if (!parse_args(&args, argc, argv, &err))
        die("booktest: %s", err.text);
    Cell *cells = calloc((size_t)(args.book_count * args.diff_count), sizeof *cells);
    Book *books = calloc((size_t)args.book_count, sizeof *books);
    if (!cells || !books)
        die("booktest: out of memory");
    /* Every book and every cell's settings are checked before the first game. */
    for (int b = 0; b < args.book_count; b++) {
        Error inner = {{0}};
        if (!book_load(&books[b], args.books[b], true, &inner))
            die("booktest: -book: %s", inner.text);
        for (int d = 0; d < args.diff_count; d++) {
            MatchSettings settings;
            if (!cell_settings(&args, args.books[b], args.diffs[d], &settings, &err))
                die("booktest: %s", err.text);
        }
    }
    /* A file is rewritten after every cell (an empty list first, which checks the path before
     * any game), so that a stopped run keeps what it played; standard output gets the list once. */
    bool json_to_file = args.json_path && strcmp(args.json_path, "-");
    if (json_to_file && !write_json(&args, cells, 0, &err))
        die("booktest: -json: %s", err.text);
    printf("booktest: %d book(s) x %d difference(s), %d pairs each\n", args.book_count,
           args.diff_count, args.pairs);
    printf("%-20s %-24s %-17s %-17s %-10s %-10s %-10s %-22s %s\n", "book", "difference", "Elo",
           "nElo", "draws/pair", "draws/game", "plies/game", "ptnml", "pairs to SPRT [0, 5]");
    for (int b = 0; b < args.book_count; b++)
        for (int d = 0; d < args.diff_count; d++) {
            Cell *cell = &cells[b * args.diff_count + d];
            if (!play_cell(&args, args.books[b], &books[b], args.diffs[d], cell, &err))
                die("booktest: %s", err.text);
            print_cell(base_name(args.books[b]), args.diffs[d], cell);
            fflush(stdout);
            if (json_to_file && !write_json(&args, cells, b * args.diff_count + d + 1, &err))
                die("booktest: -json: %s", err.text);
        }
    if (args.book_count > 1)
        print_comparison(&args, cells);
    if (args.json_path && !json_to_file &&
        !write_json(&args, cells, args.book_count * args.diff_count, &err))
        die("booktest: -json: %s", err.text);
    for (int b = 0; b < args.book_count; b++)
        book_destroy(&books[b]);
    free(books);
    free(cells);
    return 0;
}
