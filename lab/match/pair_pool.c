// SPDX-License-Identifier: MIT
// Threads (c-chess-cli style): one mutex guards the job, what is handed out and what has
// finished. A thread takes the smallest pair number waiting (one given back or added) or the
// next of the span, plays it with its own engines and stores it: in its window slot (pair i in
// slot i mod the window's size) during a span, else in the finished list. A span's pairs may
// finish at most a window ahead of the oldest one not taken (256, or twice what every source
// holds at once), so a slow pair stalls the rest only that far.
#include "pair_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POOL_WINDOW_MIN 256

typedef struct {
    PairRecord pair;
    bool ready;
} Slot;

typedef struct {
    struct PairPool *pool;
    pthread_t thread;
    bool started;
    /* Its engines, made for job `generation` (0: none yet, or the last making failed). */
    MatchWorker worker;
    EngineSpec *engines; /* [TOURNAMENT_RUN_ENGINES_MAX]: the job's, copied */
    bool has_worker;     /* under mutex: worker is made and not being destroyed */
    int64_t generation;
} PoolThread;

struct PairPool {
    PoolThread *threads;
    int thread_slots; /* threads allocated */
    int thread_count; /* threads started */
    atomic_bool own_abort;
    atomic_bool *abort;
    pthread_mutex_t mutex;
    pthread_cond_t work_cond;  /* work to hand out, a new job, or quit */
    pthread_cond_t done_cond;  /* a pair finished, a thread made its engines, or a failure */
    pthread_cond_t idle_cond;  /* the last running game returned */
    /* The job (changed only with no game running). */
    MatchSettings settings;
    PairSetup setup;
    const Book *book;
    const Schedule *order;
    int64_t generation;
    int made;          /* threads that made their engines for this generation */
    bool job_failed;   /* a thread could not: job_error says why */
    Error job_error;
    /* The span. */
    bool span_open;
    int64_t next, limit, taken; /* handed out up to next, of [.., limit); taken in order */
    Slot *window;
    int window_size;
    int64_t sources_in_flight;
    /* Pair numbers waiting before the span's next: given back, or added outside a span. */
    int64_t *waiting;
    int waiting_count, waiting_capacity;
    bool adding; /* pair_pool_add was called: pairs outside a span are kept */
    /* Finished pairs outside a span. */
    PairRecord *finished;
    int finished_count, finished_capacity;
    int playing;
    /* Who delivered what, and the other sources' traffic. */
    int64_t *source_pairs;
    int source_count;
    int64_t messages;
    double messages_seconds;
    bool stopping; /* pair_pool_end: nothing handed out, games give up */
    bool quit;
    bool failed;
    Error failure;
};

static bool grow(void **items, int *capacity, int need, size_t size) {
    if (need <= *capacity)
        return true;
    int wanted = 2 * need;
    void *grown = realloc(*items, size * (size_t)wanted);
    if (!grown)
        return false;
    *items = grown;
    *capacity = wanted;
    return true;
}

/* Under mutex: a pair may go out now. A waiting pair of a span is inside the window: it was
 * handed out and not taken. */
static bool can_hand_out(const PairPool *p) {
    if (p->stopping || p->failed || p->job_failed || p->generation == 0)
        return false;
    return p->waiting_count > 0 ||
           (p->span_open && p->next < p->limit && p->next < p->taken + p->window_size);
}

/* Under mutex, can_hand_out: the smallest waiting pair (the window waits for it), else the
 * span's next. */
static int64_t hand_out(PairPool *p) {
    if (p->waiting_count == 0)
        return p->next++;
    int smallest = 0;
    for (int i = 1; i < p->waiting_count; i++)
        if (p->waiting[i] < p->waiting[smallest])
            smallest = i;
    int64_t pair = p->waiting[smallest];
    p->waiting[smallest] = p->waiting[--p->waiting_count];
    return pair;
}

/* Under mutex: the first failure stops the span. */
static void fail_locked(PairPool *p, const Error *err) {
    if (p->failed)
        return;
    p->failed = true;
    p->failure = *err;
    pthread_cond_broadcast(&p->work_cond);
    pthread_cond_broadcast(&p->done_cond);
}

/* Under mutex: a finished pair into its slot (in a span) or the finished list. Within a span,
 * a pair outside what was handed out, or there already, is its source's fault. */
static bool store(PairPool *p, PairRecord *pair, int source, Error *err) {
    if (p->stopping || (!p->span_open && !p->adding)) { /* late: the span has ended */
        match_pair_destroy(pair);
        return true;
    }
    if (!p->span_open) {
        if (!grow((void **)&p->finished, &p->finished_capacity, p->finished_count + 1,
                  sizeof *p->finished)) {
            match_pair_destroy(pair);
            return error_set(err, "out of memory for a finished pair");
        }
        p->finished[p->finished_count++] = *pair;
    } else {
        Slot *slot = &p->window[pair->index % p->window_size];
        if (pair->index < p->taken || pair->index >= p->next || slot->ready) {
            match_pair_destroy(pair);
            return error_set(err, "pair %lld was not expected (counted up to %lld, handed out "
                                  "up to %lld)",
                             (long long)pair->index + 1, (long long)p->taken,
                             (long long)p->next);
        }
        *slot = (Slot){*pair, true};
    }
    if (source < p->source_count)
        p->source_pairs[source]++;
    pthread_cond_broadcast(&p->done_cond);
    return true;
}

/* Under mutex, entered and left locked: the thread's engines for the current job. */
static void make_engines(PoolThread *t, PairPool *p) {
    int64_t generation = p->generation;
    int count = p->settings.engine_count;
    memcpy(t->engines, p->settings.engines, sizeof *t->engines * (size_t)count);
    /* Cleared before the lock is let go: stop_searches must not reach a worker being freed. */
    bool had_worker = t->has_worker;
    t->has_worker = false;
    pthread_mutex_unlock(&p->mutex);
    if (had_worker)
        match_worker_destroy(&t->worker);
    Error err;
    bool made = match_worker_init(&t->worker, t->engines, count, p->abort, &err);
    pthread_mutex_lock(&p->mutex);
    t->has_worker = made;
    t->generation = generation;
    if (generation == p->generation) {
        p->made++;
        if (!t->has_worker && !p->job_failed) {
            p->job_failed = true;
            p->job_error = err;
        }
        pthread_cond_broadcast(&p->done_cond);
    }
}

static void *thread_main(void *arg) {
    PoolThread *t = arg;
    PairPool *p = t->pool;
    pthread_mutex_lock(&p->mutex);
    for (;;) {
        while (!p->quit && t->generation == p->generation && !(t->has_worker && can_hand_out(p)))
            pthread_cond_wait(&p->work_cond, &p->mutex);
        if (p->quit)
            break;
        if (t->generation != p->generation) {
            make_engines(t, p);
            continue;
        }
        int64_t index = hand_out(p);
        p->playing++;
        pthread_mutex_unlock(&p->mutex);

        int opening = schedule_opening(p->order, match_pair_round(&p->setup, index));
        PairRecord pair;
        Error err;
        bool ok = match_play_pair(&t->worker, &p->setup, index, &p->book->entries[opening],
                                  opening, p->abort, &pair, &err);

        pthread_mutex_lock(&p->mutex);
        p->playing--;
        if (ok) {
            Error refused;
            if (!store(p, &pair, 0, &refused)) /* only when memory is short */
                fail_locked(p, &refused);
        } else if (!p->stopping && !atomic_load(p->abort)) { /* aborted: the span is ending */
            Error failure;
            error_set(&failure, "a game failed: %s", err.text);
            fail_locked(p, &failure);
        }
        if (p->playing == 0)
            pthread_cond_broadcast(&p->idle_cond);
    }
    bool had_worker = t->has_worker;
    t->has_worker = false;
    pthread_mutex_unlock(&p->mutex);
    /* The engines stop on their own thread: a pool that ends waits for its programs' `quit`
     * (or their kill after the grace) once, all threads at a time, not once per thread. */
    if (had_worker)
        match_worker_destroy(&t->worker);
    return NULL;
}

PairPool *pair_pool_new(int threads, atomic_bool *abort, Error *err) {
    PairPool *p = calloc(1, sizeof *p);
    if (!p || !(p->threads = calloc((size_t)threads, sizeof *p->threads)) ||
        !(p->source_pairs = calloc(1, sizeof *p->source_pairs))) {
        if (p)
            free(p->threads);
        free(p);
        error_set(err, "out of memory for %d game threads", threads);
        return NULL;
    }
    p->thread_slots = threads;
    atomic_init(&p->own_abort, false);
    p->abort = abort ? abort : &p->own_abort;
    p->source_count = 1;
    p->window_size = POOL_WINDOW_MIN;
    pthread_mutex_init(&p->mutex, NULL);
    pthread_cond_init(&p->work_cond, NULL);
    pthread_cond_init(&p->done_cond, NULL);
    pthread_cond_init(&p->idle_cond, NULL);
    for (int i = 0; i < threads; i++) {
        PoolThread *t = &p->threads[i];
        t->pool = p;
        t->engines = calloc(TOURNAMENT_RUN_ENGINES_MAX, sizeof *t->engines);
        if (!t->engines) {
            error_set(err, "out of memory for the engines of game thread %d", i + 1);
            pair_pool_free(p);
            return NULL;
        }
        if (pthread_create(&t->thread, NULL, thread_main, t) != 0) {
            error_set(err, "cannot start game thread %d", i + 1);
            pair_pool_free(p);
            return NULL;
        }
        t->started = true;
        p->thread_count++;
    }
    return p;
}

/* Under mutex: running searches return at once (a program's move ends by the abort flag). */
static void stop_searches(PairPool *p) {
    for (int i = 0; i < p->thread_count; i++)
        if (p->threads[i].has_worker)
            match_worker_stop(&p->threads[i].worker);
}

void pair_pool_free(PairPool *p) {
    if (!p)
        return;
    pthread_mutex_lock(&p->mutex);
    p->quit = p->stopping = true;
    atomic_store(p->abort, true);
    stop_searches(p);
    pthread_cond_broadcast(&p->work_cond);
    pthread_mutex_unlock(&p->mutex);
    for (int i = 0; i < p->thread_count; i++)
        pthread_join(p->threads[i].thread, NULL);
    for (int i = 0; i < p->thread_slots; i++)
        free(p->threads[i].engines);
    for (int i = 0; p->window && i < p->window_size; i++)
        if (p->window[i].ready)
            match_pair_destroy(&p->window[i].pair);
    pair_pool_records_destroy(p->finished, p->finished_count);
    free(p->finished);
    free(p->window);
    free(p->waiting);
    free(p->source_pairs);
    free(p->threads);
    pthread_mutex_destroy(&p->mutex);
    pthread_cond_destroy(&p->work_cond);
    pthread_cond_destroy(&p->done_cond);
    pthread_cond_destroy(&p->idle_cond);
    free(p);
}

bool pair_pool_set_job(PairPool *p, const PairJob *job, Error *err) {
    pthread_mutex_lock(&p->mutex);
    p->settings = *job->settings;
    p->setup = settings_pair_setup(&p->settings, job->tablebase);
    if (job->segment)
        p->setup.segment = *job->segment;
    p->book = job->book;
    p->order = job->order;
    p->generation++;
    p->made = 0;
    p->job_failed = false;
    pthread_cond_broadcast(&p->work_cond);
    while (p->made < p->thread_count)
        pthread_cond_wait(&p->done_cond, &p->mutex);
    bool ok = !p->job_failed;
    if (!ok)
        *err = p->job_error;
    pthread_mutex_unlock(&p->mutex);
    return ok;
}

bool pair_pool_add_sources(PairPool *p, int sources, int64_t in_flight, Error *err) {
    int64_t *counts = calloc((size_t)sources, sizeof *counts);
    if (!counts)
        return error_set(err, "out of memory for %d sources of pairs", sources);
    pthread_mutex_lock(&p->mutex);
    free(p->source_pairs);
    p->source_pairs = counts;
    p->source_count = sources;
    p->sources_in_flight = in_flight;
    pthread_mutex_unlock(&p->mutex);
    return true;
}

void pair_pool_start(PairPool *p, int64_t first, int64_t limit) {
    pthread_mutex_lock(&p->mutex);
    int64_t size = 2 * (p->thread_count + p->sources_in_flight);
    size = size < POOL_WINDOW_MIN ? POOL_WINDOW_MIN : size;
    if (!p->window || size != p->window_size) {
        free(p->window);
        p->window_size = (int)size;
        p->window = calloc((size_t)p->window_size, sizeof *p->window);
    }
    if (!p->window) {
        Error err;
        error_set(&err, "out of memory for the window of finished pairs");
        fail_locked(p, &err);
    }
    p->next = p->taken = first;
    p->limit = limit;
    p->span_open = p->window != NULL;
    pthread_cond_broadcast(&p->work_cond);
    pthread_mutex_unlock(&p->mutex);
}

/* A deadline seconds from now on the condition variables' clock. */
static struct timespec deadline_in(double seconds) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long nanoseconds = (long)(seconds * 1e9);
    until.tv_sec += nanoseconds / 1000000000L;
    until.tv_nsec += nanoseconds % 1000000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    return until;
}

PoolNext pair_pool_next(PairPool *p, double seconds, PairRecord *out) {
    pthread_mutex_lock(&p->mutex);
    struct timespec until = deadline_in(seconds);
    PoolNext result = POOL_WAITING;
    for (;;) {
        if (p->failed) {
            result = POOL_FAILED;
            break;
        }
        Slot *slot = &p->window[p->taken % p->window_size];
        if (slot->ready) {
            *out = slot->pair;
            slot->ready = false;
            p->taken++;
            pthread_cond_broadcast(&p->work_cond);
            result = POOL_PAIR;
            break;
        }
        if (pthread_cond_timedwait(&p->done_cond, &p->mutex, &until) != 0)
            break;
    }
    pthread_mutex_unlock(&p->mutex);
    return result;
}

int64_t pair_pool_end(PairPool *p) {
    pthread_mutex_lock(&p->mutex);
    p->stopping = true;
    atomic_store(p->abort, true);
    stop_searches(p);
    int given_up = p->playing;
    while (p->playing > 0)
        pthread_cond_wait(&p->idle_cond, &p->mutex);
    /* A span's pairs handed out and not taken are next - taken, whether they finished, were
     * given up or wait to go out again; added pairs are those waiting, finished or given up. */
    int64_t not_taken = p->span_open ? p->next - p->taken
                                     : p->waiting_count + p->finished_count + given_up;
    for (int i = 0; p->window && i < p->window_size; i++)
        if (p->window[i].ready) {
            match_pair_destroy(&p->window[i].pair);
            p->window[i].ready = false;
        }
    pair_pool_records_destroy(p->finished, p->finished_count);
    p->finished_count = p->waiting_count = 0;
    p->span_open = p->adding = false;
    p->stopping = p->failed = false;
    atomic_store(p->abort, false);
    pthread_mutex_unlock(&p->mutex);
    return not_taken;
}

void pair_pool_records_destroy(PairRecord records[], int count) {
    for (int i = 0; i < count; i++)
        match_pair_destroy(&records[i]);
}

bool pair_pool_play(PairPool *p, int64_t first, int count, PairRecord out[], Error *err) {
    pair_pool_start(p, first, first + count);
    int got = 0;
    bool stopped = false;
    while (got < count && !stopped) {
        PoolNext next = pair_pool_next(p, 1.0, &out[got]);
        got += next == POOL_PAIR;
        /* Games given up for the abort flag report nothing: the span would wait forever. */
        stopped = next == POOL_FAILED || (next == POOL_WAITING && atomic_load(p->abort));
    }
    bool ok = got == count;
    if (!ok) {
        if (!pair_pool_failure(p, err))
            error_set(err, "stopped before its games ended");
        pair_pool_records_destroy(out, got);
    }
    pair_pool_end(p);
    return ok;
}

bool pair_pool_add(PairPool *p, const int64_t pairs[], int count) {
    pthread_mutex_lock(&p->mutex);
    bool ok = grow((void **)&p->waiting, &p->waiting_capacity, p->waiting_count + count,
                   sizeof *p->waiting);
    for (int i = 0; ok && i < count; i++)
        p->waiting[p->waiting_count++] = pairs[i];
    p->adding = true;
    pthread_cond_broadcast(&p->work_cond);
    pthread_mutex_unlock(&p->mutex);
    return ok;
}

int pair_pool_collect(PairPool *p, PairRecord out[], int most) {
    pthread_mutex_lock(&p->mutex);
    int count = p->finished_count < most ? p->finished_count : most;
    if (count == 0) { /* finished may still be NULL: memcpy must not see it */
        pthread_mutex_unlock(&p->mutex);
        return 0;
    }
    memcpy(out, p->finished, sizeof *out * (size_t)count);
    memmove(p->finished, p->finished + count,
            sizeof *p->finished * (size_t)(p->finished_count - count));
    p->finished_count -= count;
    pthread_mutex_unlock(&p->mutex);
    return count;
}

int pair_pool_queued(PairPool *p) {
    pthread_mutex_lock(&p->mutex);
    int queued = p->waiting_count;
    pthread_mutex_unlock(&p->mutex);
    return queued;
}

PairPoolJob pair_pool_job(PairPool *p) {
    pthread_mutex_lock(&p->mutex);
    PairPoolJob job = {&p->settings, p->setup, p->book, p->order, p->generation};
    pthread_mutex_unlock(&p->mutex);
    return job;
}

int pair_pool_take(PairPool *p, int64_t pairs[], int most, int64_t *generation) {
    int taken = 0;
    pthread_mutex_lock(&p->mutex);
    *generation = p->generation;
    while (taken < most && can_hand_out(p))
        pairs[taken++] = hand_out(p);
    pthread_mutex_unlock(&p->mutex);
    return taken;
}

void pair_pool_give_back(PairPool *p, const int64_t pairs[], int count) {
    pthread_mutex_lock(&p->mutex);
    if (!grow((void **)&p->waiting, &p->waiting_capacity, p->waiting_count + count,
              sizeof *p->waiting)) {
        Error err;
        error_set(&err, "out of memory for %d pairs to play again", count);
        fail_locked(p, &err);
    } else {
        for (int i = 0; i < count; i++)
            p->waiting[p->waiting_count++] = pairs[i];
        pthread_cond_broadcast(&p->work_cond);
    }
    pthread_mutex_unlock(&p->mutex);
}

bool pair_pool_deposit(PairPool *p, PairRecord *pair, int source, Error *err) {
    pthread_mutex_lock(&p->mutex);
    bool ok = store(p, pair, source, err);
    pthread_mutex_unlock(&p->mutex);
    return ok;
}

void pair_pool_fail(PairPool *p, const Error *err) {
    pthread_mutex_lock(&p->mutex);
    fail_locked(p, err);
    pthread_mutex_unlock(&p->mutex);
}

void pair_pool_note_messages(PairPool *p, int64_t messages, double busy_seconds) {
    pthread_mutex_lock(&p->mutex);
    p->messages = messages;
    p->messages_seconds = busy_seconds;
    pthread_mutex_unlock(&p->mutex);
}

bool pair_pool_failure(PairPool *p, Error *err) {
    pthread_mutex_lock(&p->mutex);
    bool failed = p->failed;
    if (failed)
        *err = p->failure;
    pthread_mutex_unlock(&p->mutex);
    return failed;
}

void pair_pool_traffic(PairPool *p, SessionRanks *session) {
    pthread_mutex_lock(&p->mutex);
    for (int i = 0; i < session->count; i++)
        session->ranks[i].pairs = i < p->source_count ? p->source_pairs[i] : 0;
    session->messages = p->messages;
    session->coordinator_seconds = p->messages_seconds;
    pthread_mutex_unlock(&p->mutex);
}
