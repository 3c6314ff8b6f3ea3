// SPDX-License-Identifier: MIT
// Threads (c-chess-cli style): settings and book are frozen before the workers start; one mutex
// guards the dispatch counter and the window of finished pairs. Workers take pair numbers in
// order; a pair's games depend only on its number, never on the worker. The main thread consumes
// finished pairs strictly in pair order, so counts, SPRT decision and records are the same for any
// -concurrency. Pairs may finish at most RUNNER_WINDOW ahead of the oldest unconsumed one.
#include "runner.h"

#include "cli.h"
#include "outputs.h"
#include "pgn.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "rng.h"
#include "status.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define RUNNER_WINDOW 256
#define STATUS_PERIOD_SECONDS 0.25

static volatile sig_atomic_t interrupt_signal = 0;

static void on_signal(int signal_number) { interrupt_signal = signal_number; }

typedef struct {
    PairRecord pair;
    bool ready;
} Slot;

typedef struct Runner Runner;

typedef struct {
    Runner *runner;
    MatchWorker worker;
    pthread_t thread;
    bool started;
} WorkerThread;

struct Runner {
    MatchSettings *settings;
    Book book;
    int *order;             /* book index of each opening slot (after the shuffle) */
    MatchTotals totals;
    PairSetup setup;
    FILE *pgn;
    char command[4096];
    /* Shared with the workers, under mutex. */
    pthread_mutex_t mutex;
    pthread_cond_t work_cond; /* window moved or stop */
    pthread_cond_t done_cond; /* a pair finished */
    int64_t next_dispatch;
    int64_t consumed;         /* == totals.pairs */
    int64_t limit;            /* rounds */
    Slot window[RUNNER_WINDOW];
    bool stop;
    bool failed;
    Error failure;
    atomic_bool abort;        /* makes running games give up */
    WorkerThread *workers;
    int worker_count;
};

static int opening_of(const Runner *r, int64_t pair) {
    int64_t slot = (r->settings->start - 1 + pair) % r->book.count;
    return r->order[slot];
}

static void *worker_main(void *arg) {
    WorkerThread *self = arg;
    Runner *r = self->runner;
    pthread_mutex_lock(&r->mutex);
    for (;;) {
        while (!r->stop && r->next_dispatch < r->limit &&
               r->next_dispatch >= r->consumed + RUNNER_WINDOW)
            pthread_cond_wait(&r->work_cond, &r->mutex);
        if (r->stop || r->next_dispatch >= r->limit)
            break;
        int64_t index = r->next_dispatch++;
        pthread_mutex_unlock(&r->mutex);

        int opening = opening_of(r, index);
        PairRecord pair;
        Error err;
        bool ok = match_play_pair(&self->worker, &r->setup, index, &r->book.entries[opening],
                                  opening, &r->abort, &pair, &err);

        pthread_mutex_lock(&r->mutex);
        if (ok && !r->stop) {
            r->window[index % RUNNER_WINDOW] = (Slot){pair, true};
            pthread_cond_signal(&r->done_cond);
        } else {
            if (ok)
                match_pair_free(&pair);
            else if (!r->stop) {
                r->failed = true;
                r->failure = err;
                r->stop = true;
                pthread_cond_broadcast(&r->work_cond);
                pthread_cond_signal(&r->done_cond);
            }
        }
    }
    pthread_mutex_unlock(&r->mutex);
    return NULL;
}

/* Fisher-Yates with the run's seed: the one shuffle of the book. */
static bool build_order(Runner *r) {
    r->order = malloc(sizeof *r->order * (size_t)r->book.count);
    if (!r->order)
        return false;
    for (int i = 0; i < r->book.count; i++)
        r->order[i] = i;
    if (r->settings->order_random) {
        Rng rng = rng_new(r->settings->seed);
        for (int i = r->book.count - 1; i > 0; i--) {
            int j = (int)rng_below(&rng, (uint64_t)i + 1);
            int swap = r->order[i];
            r->order[i] = r->order[j];
            r->order[j] = swap;
        }
    }
    return true;
}

static int default_concurrency(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)cores : 1;
}

/* Writes the results file (atomically) after making the game records durable up to `pairs`. */
static bool checkpoint(Runner *r, RunState state, double session_start, double seconds_before) {
    if (r->pgn) {
        if (fflush(r->pgn) != 0 || fsync(fileno(r->pgn)) != 0) {
            cli_error("%s: write failed: %s", r->settings->pgn_path, strerror(errno));
            return false;
        }
        r->totals.pgn_bytes = (uint64_t)ftello(r->pgn);
    }
    if (!r->settings->out_path[0])
        return true;
    r->totals.seconds = seconds_before + (cli_now_seconds() - session_start);
    cJSON *json = results_to_json(r->settings, &r->totals, state, r->book.content_hash,
                                  r->book.count, r->command);
    Error err;
    bool ok = report_write_json(json, r->settings->out_path, &err);
    cJSON_Delete(json);
    if (!ok)
        cli_error("%s", err.text);
    return ok;
}

/* Opens the game-record file: fresh, or cut back to what the results file covers. */
static bool open_pgn(Runner *r, bool resuming) {
    if (!r->settings->pgn_path[0])
        return true;
    if (resuming) {
        if (truncate(r->settings->pgn_path, (off_t)r->totals.pgn_bytes) != 0 &&
            !(errno == ENOENT && r->totals.pgn_bytes == 0)) {
            cli_error("%s: cannot cut back to %llu bytes for resume: %s",
                    r->settings->pgn_path, (unsigned long long)r->totals.pgn_bytes,
                    strerror(errno));
            return false;
        }
        r->pgn = fopen(r->settings->pgn_path, "a");
    } else {
        r->pgn = fopen(r->settings->pgn_path, "w");
    }
    if (!r->pgn)
        cli_error("%s: cannot open: %s", r->settings->pgn_path, strerror(errno));
    return r->pgn != NULL;
}

static bool start_workers(Runner *r) {
    r->worker_count = r->settings->concurrency;
    r->workers = calloc((size_t)r->worker_count, sizeof *r->workers);
    if (!r->workers)
        return false;
    for (int w = 0; w < r->worker_count; w++) {
        WorkerThread *t = &r->workers[w];
        Error err;
        t->runner = r;
        if (!match_worker_init(&t->worker, r->settings->engines, &err)) {
            cli_error("%s", err.text);
            return false;
        }
        if (pthread_create(&t->thread, NULL, worker_main, t) != 0) {
            match_worker_destroy(&t->worker);
            cli_error("cannot start worker thread %d", w + 1);
            return false;
        }
        t->started = true;
    }
    return true;
}

/* Stops dispatching, makes running games give up, joins the workers, and counts the pairs that
 * were dispatched but not counted. */
static void stop_workers(Runner *r) {
    pthread_mutex_lock(&r->mutex);
    r->stop = true;
    pthread_cond_broadcast(&r->work_cond);
    pthread_mutex_unlock(&r->mutex);
    atomic_store(&r->abort, true);
    for (int w = 0; w < r->worker_count; w++)
        if (r->workers[w].started)
            match_worker_stop(&r->workers[w].worker);
    for (int w = 0; w < r->worker_count; w++)
        if (r->workers[w].started) {
            pthread_join(r->workers[w].thread, NULL);
            match_worker_destroy(&r->workers[w].worker);
        }
    for (int i = 0; i < RUNNER_WINDOW; i++)
        if (r->window[i].ready) {
            match_pair_free(&r->window[i].pair);
            r->window[i].ready = false;
        }
    r->totals.discarded_pairs = r->next_dispatch - r->consumed;
}

/* Counts one pair (the next in order): totals, records, per-game lines, SPRT. Returns the new
 * state. */
static RunState count_pair(Runner *r, PairRecord *pair, bool live) {
    totals_add_pair(&r->totals, pair);
    if (r->pgn)
        pgn_write_pair(r->pgn, r->settings, pair, r->book.entries[pair->opening].id);
    if (!r->settings->quiet) {
        if (live)
            status_line_clear(stdout);
        status_game_lines(stdout, r->settings, pair);
    }
    if (r->totals.pairs > r->book.count && !r->totals.book_exhausted) {
        r->totals.book_exhausted = true;
        if (live)
            status_line_clear(stdout);
        printf("note: pair %" PRId64 " replays an opening: the book has %d%s\n", r->totals.pairs,
               r->book.count, r->settings->random_plies ? "" : " (deterministic engines replay "
                                                                "the same games: use a larger "
                                                                "book or randomplies=)");
    }
    if (r->settings->has_sprt) {
        SprtSample sample = totals_sample(&r->totals);
        SprtDecision decision = sprt_decide(sprt_llr(&sample, &r->settings->sprt), &r->settings->sprt);
        if (decision != SPRT_CONTINUE) {
            r->totals.decision = decision;
            r->totals.decision_pair = r->totals.pairs;
            return RUN_SPRT;
        }
    }
    return r->totals.pairs >= r->limit ? RUN_ROUNDS : RUN_RUNNING;
}

static void print_start(const Runner *r, FILE *out, bool resuming) {
    const MatchSettings *s = r->settings;
    fprintf(out, "abtest: %s vs %s (every number from the first engine's side), %d worker(s)%s\n",
            s->engines[0].name, s->engines[1].name, s->concurrency,
            settings_reproducible(s) ? "" : "; movetime limits: results are NOT reproducible");
    fprintf(out, "command: %s\n", r->command);
    for (int e = 0; e < MATCH_ENGINES; e++)
        fprintf(out, "config hash %s: %016llx\n", s->engines[e].name,
                (unsigned long long)config_hash(&s->engines[e].config));
    fprintf(out, "book: %s, %d openings, %s order, seed %llu\n", s->book_path, r->book.count,
            s->order_random ? "random" : "sequential", (unsigned long long)s->seed);
    /* Only a planned maximum can exceed the book; an SPRT without -rounds gets a note if and
     * when it passes the book's size. */
    if (r->limit != SETTINGS_UNBOUNDED_ROUNDS && r->limit > r->book.count)
        fprintf(out, "note: -rounds %" PRId64 " is more than the book's %d openings; beyond them, "
                     "openings are replayed%s\n",
                r->limit, r->book.count, s->random_plies ? "" : " (deterministic engines replay "
                                                                "the same games: use a larger "
                                                                "book or randomplies=)");
    if (resuming)
        fprintf(out, "resuming at pair %lld from %s\n", (long long)r->totals.pairs + 1,
                s->resume_path);
    fflush(out);
}

static int finish(Runner *r, RunState state, double session_start, double seconds_before) {
    const MatchSettings *s = r->settings;
    FILE *out = stdout;
    if (r->totals.trajectory_count == 0 ||
        r->totals.trajectory[r->totals.trajectory_count - 1].pairs != r->totals.pairs)
        if (state != RUN_INTERRUPTED) /* an interrupted run adds its points when it goes on */
            totals_add_point(&r->totals, &s->sprt, s->has_sprt);
    bool saved = checkpoint(r, state, session_start, seconds_before);
    if (!s->quiet || state != RUN_INTERRUPTED)
        status_block(out, s, &r->totals);
    status_final(out, s, &r->totals, state, r->book.count);
    if (s->plot_path[0]) {
        Error err;
        if (plot_write(s->plot_path, s, &r->totals, state, &err))
            fprintf(out, "plot: %s\n", s->plot_path);
        else
            fprintf(out, "plot: not drawn: %s\n", err.text);
    }
    if (s->out_path[0])
        fprintf(out, "results: %s%s\n", s->out_path, saved ? "" : " (NOT saved: see the error)");
    if (state == RUN_INTERRUPTED) {
        if (s->out_path[0] && saved)
            fprintf(out, "resume with: %s -resume %s\n", cli_program(), s->out_path);
        else
            fprintf(out, "no -out file: this run cannot be resumed\n");
        return interrupt_signal == SIGTERM ? 143 : 130;
    }
    fprintf(out, "Finished match\n"); /* fastchess's last line */
    return saved ? 0 : 2;
}

static bool setup_resume(Runner *r, MatchSettings *s) {
    MatchSettings from_file;
    uint64_t book_hash;
    Error err;
    if (!results_load(s->resume_path, &from_file, &r->totals, &book_hash, &err)) {
        cli_error("-resume: %s", err.text);
        return false;
    }
    if (s->engines[0].name[0] && !settings_same_experiment(s, &from_file, &err)) {
        cli_error("-resume %s: %s", s->resume_path, err.text);
        return false;
    }
    /* The experiment comes from the file; how it runs may change. */
    int concurrency = s->concurrency;
    bool quiet = s->quiet;
    char resume_path[SETTINGS_PATH_MAX], plot_path[SETTINGS_PATH_MAX];
    int stop_after = s->debug_stop_after;
    strcpy(resume_path, s->resume_path);
    strcpy(plot_path, s->plot_path[0] ? s->plot_path : from_file.plot_path);
    *s = from_file;
    s->concurrency = concurrency ? concurrency : from_file.concurrency;
    s->quiet = quiet;
    s->debug_stop_after = stop_after;
    strcpy(s->resume_path, resume_path);
    strcpy(s->plot_path, plot_path);
    if (!s->out_path[0])
        strcpy(s->out_path, resume_path);
    if (!book_load(&r->book, s->book_path, true, &err)) {
        cli_error("%s", err.text);
        return false;
    }
    if (r->book.content_hash != book_hash) {
        cli_error("-resume: the book %s has changed since the run started",
                s->book_path);
        return false;
    }
    return true;
}

int runner_run(MatchSettings *s) {
    Runner *r = calloc(1, sizeof *r);
    if (!r) {
        cli_error("out of memory");
        return 2;
    }
    int code = 2;
    bool resuming = s->resume_path[0] != '\0';
    r->settings = s;
    totals_init(&r->totals);
    pthread_mutex_init(&r->mutex, NULL);
    pthread_cond_init(&r->work_cond, NULL);
    pthread_cond_init(&r->done_cond, NULL);
    atomic_init(&r->abort, false);
    if (resuming) {
        if (!setup_resume(r, s))
            goto out_free;
    } else {
        Error err;
        if (!book_load(&r->book, s->book_path, true, &err)) {
            cli_error("-openings: %s", err.text);
            goto out_free;
        }
    }
    if (!s->concurrency)
        s->concurrency = default_concurrency();
    settings_command_line(s, r->command, sizeof r->command);
    Error output_err;
    if (!(resuming ? outputs_check_writable(s, &output_err)
                   : outputs_prepare_fresh(s, stdout, &output_err))) {
        cli_error("%s", output_err.text);
        goto out_free;
    }
    if (!resuming)
        cli_utc_now(r->totals.started);
    if (!build_order(r) || !open_pgn(r, resuming))
        goto out_free;
    r->setup = (PairSetup){s->engines, s->max_plies, s->random_plies, s->seed};
    r->limit = s->rounds;
    r->consumed = r->next_dispatch = r->totals.pairs;
    print_start(r, stdout, resuming);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);

    double session_start = cli_now_seconds(), seconds_before = r->totals.seconds;
    int64_t session_first = r->totals.pairs;
    if (r->totals.pairs >= r->limit) {
        code = finish(r, RUN_ROUNDS, session_start, seconds_before);
        goto out_free;
    }
    if (!start_workers(r)) {
        stop_workers(r);
        goto out_free;
    }
    bool live = !s->quiet && isatty(STDOUT_FILENO);
    RunState state = RUN_RUNNING;
    pthread_mutex_lock(&r->mutex);
    while (state == RUN_RUNNING) {
        if (r->failed || interrupt_signal ||
            (s->debug_stop_after && r->totals.pairs - session_first >= s->debug_stop_after)) {
            state = RUN_INTERRUPTED;
            break;
        }
        Slot *slot = &r->window[r->consumed % RUNNER_WINDOW];
        if (!slot->ready) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += (long)(STATUS_PERIOD_SECONDS * 1e9);
            until.tv_sec += until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
            pthread_cond_timedwait(&r->done_cond, &r->mutex, &until);
            continue;
        }
        PairRecord pair = slot->pair;
        slot->ready = false;
        r->consumed++;
        pthread_cond_broadcast(&r->work_cond);
        pthread_mutex_unlock(&r->mutex);

        state = count_pair(r, &pair, live);
        match_pair_free(&pair);
        double now = cli_now_seconds();
        if (r->totals.pairs % s->rating_interval == 0) {
            totals_add_point(&r->totals, &s->sprt, s->has_sprt);
            if (state == RUN_RUNNING) {
                if (live)
                    status_line_clear(stdout);
                if (!s->quiet)
                    status_block(stdout, s, &r->totals);
                checkpoint(r, RUN_RUNNING, session_start, seconds_before);
            }
        }
        if (live) { /* the game lines scrolled it away: it stays below them */
            double rate = (double)(r->totals.pairs - session_first) / (now - session_start);
            status_line(stdout, s, &r->totals, rate);
        }
        pthread_mutex_lock(&r->mutex);
    }
    bool failed = r->failed;
    Error failure = r->failure;
    pthread_mutex_unlock(&r->mutex);
    stop_workers(r);
    if (live)
        status_line_clear(stdout);
    if (failed)
        cli_error("a game failed: %s", failure.text);
    if (state == RUN_INTERRUPTED && interrupt_signal)
        fprintf(stdout, "abtest: stopped by signal %d\n", (int)interrupt_signal);
    code = finish(r, state, session_start, seconds_before);
    if (failed)
        code = 2;
out_free:
    if (r->pgn)
        fclose(r->pgn);
    free(r->workers);
    free(r->order);
    book_free(&r->book);
    totals_free(&r->totals);
    pthread_mutex_destroy(&r->mutex);
    pthread_cond_destroy(&r->work_cond);
    pthread_cond_destroy(&r->done_cond);
    free(r);
    return code;
}
