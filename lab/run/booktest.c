// SPDX-License-Identifier: MIT
#include "booktest.h"

#include "arguments.h"
#include "booktest_file.h"
#include "cli.h"
#include "describe.h"
#include "output.h"
#include "pair_pool.h"
#include "parse.h"
#include "schedule.h"
#include "sprt.h"

#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOOKTEST_DIFF_WORDS_MAX 32

typedef struct {
    const char *books[BOOKTEST_BOOKS_MAX];
    int book_count;
    const char *diffs[BOOKTEST_DIFFS_MAX];
    int diff_count;
    int pairs;
    const char *json_path;
    MatchSettings base; /* the match's options booktest takes; both engines the -each one */
    bool help_shown;    /* -help or -version among the options: printed, nothing to run */
} BooktestArgs;

typedef BooktestCell Cell;

/* A difference is engine options only (key=value words, as after -engine): a word of another
 * kind would reach the match's command line and act on the whole cell, or be lost. */
static bool check_difference(const char *diff, Error *err) {
    char copy[BOOKTEST_DIFF_TEXT];
    if (strlen(diff) >= sizeof copy)
        return error_set(err, "-diff \"%.40s...\": too long", diff);
    memcpy(copy, diff, strlen(diff) + 1);
    int words = 0;
    for (char *word = strtok(copy, " \t"); word; word = strtok(NULL, " \t")) {
        const char *equals = strchr(word, '=');
        if (word[0] == '-' || !equals || equals == word)
            return error_set(err, "-diff \"%s\": '%s' is not an engine option (key=value); a "
                                  "difference holds only the options the first engine adds",
                             diff, word);
        if (!strncmp(word, "name=", 5))
            return error_set(err, "-diff \"%s\": name= is booktest's (the engines are variant "
                                  "and base)",
                             diff);
        if (++words > BOOKTEST_DIFF_WORDS_MAX)
            return error_set(err, "-diff \"%s\": more than %d options", diff,
                             BOOKTEST_DIFF_WORDS_MAX);
    }
    return true;
}

static const char BOOKTEST_USAGE[] =
    "usage: abtest booktest -book FILE ... -diff \"OPTIONS\" ... [-pairs P] [-json F]\n"
    "                       [-each key=value ...] [the match's options below]\n"
    "       abtest booktest -resume F.json [-allow-engine-change]\n"
    "  Plays each known difference (OPTIONS added to the first engine) against the\n"
    "  -each configuration over each book for P pairs (200) and reports per book and\n"
    "  difference: Elo and nElo with 95% errors, pair and game draw ratios, the\n"
    "  pentanomial, and the expected pairs to an SPRT [0, 5] normalized decision;\n"
    "  then each book's expected pairs against the first book's. Each book needs at\n"
    "  least P positions; the -json file is kept after every cell and resumes.\n";

static bool take_book(void *context, const char *value, Error *err) {
    BooktestArgs *a = context;
    if (a->book_count == BOOKTEST_BOOKS_MAX)
        return error_set(err, "more than %d books", BOOKTEST_BOOKS_MAX);
    a->books[a->book_count++] = value;
    return true;
}

static bool take_diff(void *context, const char *value, Error *err) {
    BooktestArgs *a = context;
    if (!value[0])
        return error_set(err, "-diff needs the options the first engine adds, such as "
                              "\"killers=off\"");
    if (a->diff_count == BOOKTEST_DIFFS_MAX)
        return error_set(err, "more than %d differences", BOOKTEST_DIFFS_MAX);
    if (!check_difference(value, err))
        return false;
    a->diffs[a->diff_count++] = value;
    return true;
}

static bool take_pairs(void *context, const char *value, Error *err) {
    Error inner = {{0}};
    if (!parse_int(value, 1, 10000000, &((BooktestArgs *)context)->pairs, &inner))
        return error_set(err, "-pairs: %s", inner.text);
    return true;
}

static bool take_json(void *context, const char *value, Error *err) {
    (void)err;
    ((BooktestArgs *)context)->json_path = value;
    return true;
}

static const ArgumentsOwn BOOKTEST_OPTIONS[] = {
    {"-book", "a file", take_book},
    {"-diff", "the options the first engine adds, such as \"killers=off\"", take_diff},
    {"-pairs", "a number", take_pairs},
    {"-json", "a file", take_json},
};

static const ArgumentsCommand BOOKTEST_COMMAND = {
    .usage = BOOKTEST_USAGE,
    .trait = SETTINGS_FOR_BOOKTEST,
    .makes = "abtest booktest makes its engines (the -each configuration, and it with each "
             "-diff), books (-book) and length (-pairs) itself",
    .own = BOOKTEST_OPTIONS,
    .own_count = sizeof BOOKTEST_OPTIONS / sizeof BOOKTEST_OPTIONS[0],
    .engine_names = {"variant", "base"},
};

/* booktest's own options and the match's it takes (the rows marked SETTINGS_FOR_BOOKTEST). */
static bool parse_args(BooktestArgs *a, int argc, char **argv, Error *err) {
    memset(a, 0, sizeof *a);
    a->pairs = 200;
    bool exit_now;
    if (!arguments_parse_command(&BOOKTEST_COMMAND, a, argc, argv, &a->base, &exit_now, err))
        return false;
    if (exit_now) { /* -help or -version, printed: the run ends at once, exit status 0 */
        a->help_shown = true;
        return true;
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
    char diff_copy[BOOKTEST_DIFF_TEXT];
    if (strlen(diff) >= sizeof diff_copy)
        return error_set(err, "-diff \"%.40s...\": too long", diff);
    memcpy(diff_copy, diff, strlen(diff) + 1);
    char *words[BOOKTEST_DIFF_WORDS_MAX];
    int count = 0;
    for (char *word = strtok(diff_copy, " \t"); word; word = strtok(NULL, " \t")) {
        if (count == BOOKTEST_DIFF_WORDS_MAX)
            return error_set(err, "-diff \"%s\": more than %d options", diff,
                             BOOKTEST_DIFF_WORDS_MAX);
        words[count++] = word;
    }
    *settings = a->base;
    settings->rounds = a->pairs;
    Error inner = {{0}};
    if (!arguments_engine_words(&settings->engines[0], words, count, &inner) ||
        !settings_field_from_text(settings_field("book"), settings, book, &inner) ||
        !settings_check(settings, &inner))
        return error_set(err, "-diff \"%s\", -book %s: %s", diff, book, inner.text);
    return true;
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

/* The run: its arguments (given, or those a booktest file recorded), the record being written,
 * the books loaded. */
typedef struct {
    BooktestArgs args;
    BooktestRecord *record;   /* this run's (cells of a resumed run copied in) */
    BooktestRecord *resumed;  /* the file resumed (NULL: a fresh run) */
    const char *resume_path;
    bool allow_engine_change;
    Book books[BOOKTEST_BOOKS_MAX];
    /* The cell playing: its match and the book's order under it; the pool; the ranks. */
    MatchSettings cell;
    Schedule order;
    bool has_order;
    PairPool *pool;
    SessionRanks session;
    OutputPlan outputs; /* the booktest file against the books (cli/output.h) */
} Booktest;

/* -resume F [-allow-engine-change]: the recorded arguments; otherwise those given. */
static bool read_arguments(Booktest *b, int argc, char **argv, Error *err) {
    if (argc < 1 || strcmp(argv[0], "-resume"))
        return word_list_set(&b->record->arguments, argc, argv, err) &&
               parse_args(&b->args, argc, argv, err);
    bool allow = argc == 3 && !strcmp(argv[2], "-allow-engine-change");
    if (argc < 2 || (argc > 2 && !allow))
        return error_set(err, "-resume F.json takes nothing else but -allow-engine-change: the "
                              "run's arguments are in the file");
    b->resumed = malloc(sizeof *b->resumed);
    if (!b->resumed)
        return error_set(err, "out of memory");
    booktest_record_init(b->resumed);
    Error inner;
    if (!booktest_record_load(argv[1], b->resumed, &inner))
        return error_set(err, "-resume: %s", inner.text);
    b->resume_path = argv[1];
    b->allow_engine_change = allow;
    if (!word_list_set(&b->record->arguments, b->resumed->arguments.count,
                       b->resumed->arguments.words, err) ||
        !parse_args(&b->args, b->record->arguments.count, b->record->arguments.words, err))
        return false;
    /* The file resumed is the one kept up to date, wherever it was moved. */
    b->args.json_path = b->resume_path;
    return true;
}

/* Every book loaded and able to fill the run's pairs with openings of their own, and every
 * cell's settings checked, before the first game. */
static bool load_books(Booktest *b, Error *err) {
    const BooktestArgs *a = &b->args;
    BooktestRecord *r = b->record;
    for (int i = 0; i < a->book_count; i++) {
        Error inner = {{0}};
        if (!book_load(&b->books[i], a->books[i], true, &inner))
            return error_set(err, "-book: %s", inner.text);
        /* A pair replaying an opening is not an independent pair: the cell's error bars would
         * be too narrow (20 pairs of one opening gave [0,0,20,0,0] at +-1.70 Elo). */
        if (b->books[i].count < a->pairs)
            return error_set(err, "-book %s has %d position(s): -pairs %d would replay openings, "
                                  "and replayed pairs are not independent (the error bars would "
                                  "be too narrow); give -pairs %d or less, or a larger book",
                             a->books[i], b->books[i].count, a->pairs, b->books[i].count);
        BooktestBook *book = &r->books[r->book_count++];
        snprintf(book->path, sizeof book->path, "%s", a->books[i]);
        book->hash = b->books[i].content_hash;
        book->positions = b->books[i].count;
        for (int d = 0; d < a->diff_count; d++) {
            MatchSettings settings;
            if (!cell_settings(a, a->books[i], a->diffs[d], &settings, err))
                return false;
        }
    }
    for (int d = 0; d < a->diff_count; d++)
        snprintf(r->differences[r->diff_count++], BOOKTEST_DIFF_TEXT, "%s", a->diffs[d]);
    r->pairs = a->pairs;
    return true;
}

/* On resume: the books have the bytes the run began with, and the cells played are taken over
 * (their figures were checked against their counts by the reader). */
static bool take_resumed_cells(Booktest *b, Error *err) {
    const BooktestRecord *then = b->resumed;
    BooktestRecord *now = b->record;
    if (!then)
        return true;
    for (int i = 0; i < now->book_count; i++)
        if (now->books[i].hash != then->books[i].hash)
            return error_set(err, "-resume: -book %s has changed since the run started (its "
                                  "bytes hashed %016" PRIx64 ", now %016" PRIx64 ")",
                             now->books[i].path, then->books[i].hash, now->books[i].hash);
    memcpy(now->cells, then->cells, sizeof now->cells);
    now->done = then->done;
    memcpy(now->accepted_changes, then->accepted_changes, sizeof now->accepted_changes);
    return true;
}

/* The build and the base configuration's signature, recorded; on resume compared, a change
 * refused unless allowed (then recorded). */
static bool check_build(Booktest *b, Error *err) {
    BooktestRecord *r = b->record;
    MatchSettings settings;
    if (!cell_settings(&b->args, b->args.books[0], b->args.diffs[0], &settings, err))
        return false;
    const EngineSpec *base = &settings.engines[1];
    provenance_build(&r->build);
    if (!engine_is_program(base) && !provenance_signature(&base->config, &r->signature, err))
        return false;
    if (!b->resumed)
        return true;
    char changes[512];
    if (!provenance_changes(&b->resumed->build, &r->build, &b->resumed->signature, &r->signature,
                            changes, sizeof changes))
        return true;
    if (!b->allow_engine_change)
        return error_set(err, "-resume: the engines are not the build the run began with: %s. "
                              "Their cells would be mixed with the first build's: "
                              PROVENANCE_ADVICE,
                         changes);
    printf("note: the engines changed since the run began (%s); resumed as "
           "-allow-engine-change asks\n",
           changes);
    size_t used = strlen(r->accepted_changes);
    snprintf(r->accepted_changes + used, sizeof r->accepted_changes - used, "cell %d: %s\n",
             r->done + 1, changes);
    return true;
}

static bool write_file(const Booktest *b, Error *err) {
    cJSON *json = booktest_record_to_json(b->record);
    bool ok = json ? output_write_json(&b->outputs, json, b->args.json_path, err)
                   : error_set(err, "out of memory");
    cJSON_Delete(json);
    return ok;
}

/* The run's output and inputs (cli/output.h). */
static void output_plan(Booktest *b) {
    const BooktestArgs *a = &b->args;
    OutputPlan *plan = &b->outputs;
    *plan = (OutputPlan){0};
    output_plan_add(plan, "-json", a->json_path, b->resumed ? NULL : booktest_file_unfinished);
    for (int i = 0; i < a->book_count; i++)
        output_plan_input(plan, "-book", a->books[i]);
}

static bool to_file(const Booktest *b) {
    return b->args.json_path && strcmp(b->args.json_path, "-");
}

/* Before the other ranks are asked: the booktest file can be written. */
static bool check_outputs(Booktest *b, Error *err) {
    output_plan(b);
    return !to_file(b) || output_plan_check(&b->outputs, err);
}

/* The booktest file: checked, locked and written (the cells so far) before any game; a fresh
 * run moves an earlier file aside and refuses over an unfinished one. Standard output gets the
 * file once, at the end. */
static bool claim_outputs(Booktest *b, OutLock *lock, Error *err) {
    const BooktestArgs *a = &b->args;
    if (!to_file(b))
        return true;
    output_plan(b);
    return output_plan_check(&b->outputs, err) &&
           output_lock(lock, b->resumed ? "-resume" : "-json", a->json_path, "abtest booktest",
                       "lose one of the two runs", err) &&
           (b->resumed || output_plan_move_aside(&b->outputs, stdout, err)) && write_file(b, err);
}

/* Cell i's job (book-major): the difference's engine against the -each configuration over
 * the book, in the order its seed gives. */
static bool cell_job(Booktest *b, int i, PairJob *job, Error *err) {
    const BooktestArgs *a = &b->args;
    int book = i / a->diff_count, diff = i % a->diff_count;
    if (!cell_settings(a, a->books[book], a->diffs[diff], &b->cell, err))
        return false;
    if (b->has_order)
        schedule_destroy(&b->order);
    b->has_order = schedule_init(&b->order, &b->books[book], &b->cell);
    if (!b->has_order)
        return error_set(err, "out of memory");
    *job = (PairJob){&b->cell, &b->books[book], &b->order, NULL, b->cell.concurrency, NULL};
    return true;
}

/* Plays cell i's pairs on the pool and counts them as a match does. */
static bool play_cell(Booktest *b, int i, Cell *cell, Error *err) {
    const BooktestArgs *a = &b->args;
    PairJob job;
    if (!cell_job(b, i, &job, err))
        return false;
    PairRecord *records = malloc(sizeof *records * (size_t)a->pairs);
    Error inner = {{0}};
    bool ok = records && pair_pool_set_job(b->pool, &job, &inner) &&
              pair_pool_play(b->pool, 0, a->pairs, records, &inner);
    if (!records)
        error_set(&inner, "out of memory");
    if (!ok) {
        free(records);
        return error_set(err, "-diff \"%s\", -book %s: %s", a->diffs[i % a->diff_count],
                         a->books[i / a->diff_count], inner.text);
    }
    MatchTotals totals;
    totals_init(&totals);
    for (int j = 0; j < a->pairs; j++)
        totals_add_pair(&totals, &records[j]);
    memset(cell, 0, sizeof *cell);
    cell->penta = totals.penta;
    cell->game_draws = (int64_t)totals.wdl.draws;
    cell->plies = (int64_t)totals.plies;
    booktest_cell_finish(cell, a->pairs);
    totals_destroy(&totals);
    pair_pool_records_destroy(records, a->pairs);
    free(records);
    return true;
}

/* The pool, with this process's threads (-concurrency, or the default). */
static bool open_pool(Booktest *b, const PairRemote *remote, Error *err) {
    MatchSettings settings;
    if (!cell_settings(&b->args, b->args.books[0], b->args.diffs[0], &settings, err))
        return false;
    if (remote && remote->refuses(remote->context, &settings))
        return error_set(err, "the ranks cannot play this run (said above)");
    int threads = settings.concurrency ? settings.concurrency
                  : remote                ? remote->default_threads
                                          : cli_cores();
    b->pool = pair_pool_new(threads, NULL, err);
    return b->pool != NULL;
}

/* The other ranks, with the first cell to play as their first job: before the file is claimed,
 * so that a rank that cannot play leaves nothing behind. A run with every cell played asks
 * none. False after saying why. */
static bool begin_ranks(Booktest *b, const PairRemote *remote) {
    if (!remote || b->record->done >= b->args.book_count * b->args.diff_count)
        return true;
    PairJob job;
    Error err;
    if (!cell_job(b, b->record->done, &job, &err)) {
        cli_error("booktest: %s", err.text);
        return false;
    }
    return remote->begin(remote->context, b->pool, &job, &b->session);
}

static void booktest_free(Booktest *b) {
    pair_pool_free(b->pool);
    free(b->session.ranks);
    if (b->has_order)
        schedule_destroy(&b->order);
    for (int i = 0; i < b->args.book_count; i++)
        book_destroy(&b->books[i]);
    if (b->record)
        booktest_record_destroy(b->record);
    if (b->resumed)
        booktest_record_destroy(b->resumed);
    free(b->record);
    free(b->resumed);
    free(b);
}

int abtest_booktest_main(int argc, char **argv, const PairRemote *remote) {
    if (argc >= 1 && (!strcmp(argv[0], "-help") || !strcmp(argv[0], "--help"))) {
        arguments_command_usage(&BOOKTEST_COMMAND, stdout);
        return 0;
    }
    Booktest *b = calloc(1, sizeof *b);
    Error err = {{0}};
    OutLock lock;
    outfile_lock_init(&lock);
    if (!b || !(b->record = malloc(sizeof *b->record)))
        die("booktest: out of memory");
    booktest_record_init(b->record);
    bool ready = read_arguments(b, argc, argv, &err);
    if (ready && b->args.help_shown) { /* through the same ending as any run: MPI ends cleanly */
        booktest_free(b);
        return 0;
    }
    ready = ready && load_books(b, &err) && take_resumed_cells(b, &err) && check_build(b, &err) &&
            open_pool(b, remote, &err);
    if (ready && !check_outputs(b, &err))
        ready = false;
    if (!ready)
        cli_error("booktest: %s", err.text);
    bool begun = ready && begin_ranks(b, remote);
    if (begun && !claim_outputs(b, &lock, &err)) {
        cli_error("booktest: %s", err.text);
        ready = false;
    }
    if (!ready || !begun) {
        if (begun && remote && b->session.count)
            remote->end(remote->context, b->pool);
        outfile_unlock(&lock);
        booktest_free(b);
        return 2;
    }
    const BooktestArgs *a = &b->args;
    BooktestRecord *r = b->record;
    bool json_to_file = a->json_path && strcmp(a->json_path, "-");
    printf("booktest: %d book(s) x %d difference(s), %d pairs each%s\n", a->book_count,
           a->diff_count, a->pairs, r->done ? " (resumed)" : "");
    printf("%-20s %-24s %-17s %-17s %-10s %-10s %-10s %-22s %s\n", "book", "difference", "Elo",
           "nElo", "draws/pair", "draws/game", "plies/game", "ptnml", "pairs to SPRT [0, 5]");
    int status = 0;
    for (int i = 0; i < a->book_count * a->diff_count; i++) {
        int book = i / a->diff_count, diff = i % a->diff_count;
        if (i >= r->done) {
            if (!play_cell(b, i, &r->cells[i], &err)) {
                cli_error("booktest: %s", err.text);
                status = 1;
                break;
            }
            r->done = i + 1;
            if (json_to_file && !write_file(b, &err)) {
                cli_error("booktest: -json: %s", err.text);
                status = 1;
                break;
            }
        }
        print_cell(base_name(a->books[book]), a->diffs[diff], &r->cells[i]);
        fflush(stdout);
    }
    if (remote && b->session.count)
        remote->end(remote->context, b->pool);
    if (!status && a->book_count > 1)
        print_comparison(a, r->cells);
    if (!status && a->json_path && !json_to_file && !write_file(b, &err)) {
        cli_error("booktest: -json: %s", err.text);
        status = 2;
    }
    if (!output_stdout_ok(&err)) {
        cli_error("booktest: %s", err.text);
        status = status ? status : 2;
    }
    outfile_unlock(&lock);
    booktest_free(b);
    return status;
}
