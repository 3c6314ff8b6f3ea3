// SPDX-License-Identifier: MIT
#include "program_bench.h"

#include "cli.h"
#include "program.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* One process's share: positions first, first + step, first + 2 step ... */
typedef struct {
    const ProgramBenchJob *job;
    const BookEntry *entries;
    int count, first, step;
    ProgramBenchRun *out;
    atomic_bool *abort;
    int next; /* the next of its positions expected from the program */
    bool ok;
    Error err;
    struct Progress *progress; /* shared by the shares */
} Share;

/* How far the whole bench is, said at most once a second (and at the last position). */
typedef struct Progress {
    pthread_mutex_t lock;
    int done, count;
    double said_at; /* cli_now_seconds() of the last line */
} Progress;

static void say_progress(const Share *share) {
    FILE *out = share->job->progress;
    Progress *p = share->progress;
    if (!out)
        return;
    pthread_mutex_lock(&p->lock);
    p->done++;
    double now = cli_now_seconds();
    if (p->done == 1 || p->done == p->count || now - p->said_at >= 1) {
        fprintf(out, "%s (%s): position %d of %d\n", share->job->spec->name,
                share->job->spec->program.cmd, p->done, p->count);
        fflush(out);
        p->said_at = now;
    }
    pthread_mutex_unlock(&p->lock);
}

static double children_cpu_seconds(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_CHILDREN, &usage) != 0)
        return 0;
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

/* The share's positions as a positions file (POSITION ; ID per line) at a new path in TMPDIR
 * (or /tmp): false with the reason. The program reads it by path on its command line, so the
 * path must be one word. */
static bool write_share(const Share *share, char *path, size_t size, Error *err) {
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strpbrk(tmp, " \t\r\n"))
        tmp = "/tmp";
    if ((size_t)snprintf(path, size, "%s/tslab-bench-XXXXXX", tmp) >= size)
        return error_set(err, "TMPDIR is too long");
    int fd = mkstemp(path);
    if (fd < 0)
        return error_set(err, "cannot create a positions file in %s: %s", tmp, strerror(errno));
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(path);
        return error_set(err, "%s: %s", path, strerror(errno));
    }
    for (int i = share->first; i < share->count; i += share->step) {
        char text[BOARD_TEXT_MAX];
        fprintf(f, "%s ; %s\n", board_to_text(&share->entries[i].board, text),
                share->entries[i].id);
    }
    if (fclose(f) != 0) {
        unlink(path);
        return error_set(err, "%s: %s", path, strerror(errno));
    }
    return true;
}

/* A per-position line: it must be the share's next position. */
static bool take_position(void *context, const ProgramReply *reply, Error *err) {
    Share *share = context;
    const char *cmd = share->job->spec->program.cmd;
    if (share->next >= share->count)
        return error_set(err, "%s: a bench line for '%s' after the last position", cmd,
                         reply->bench_id);
    const char *expected = share->entries[share->next].id;
    if (strcmp(reply->bench_id, expected))
        return error_set(err, "%s: the bench answered position '%s' where '%s' was next", cmd,
                         reply->bench_id, expected);
    ProgramBenchRow *row = &share->out->rows[share->next];
    snprintf(row->move, sizeof row->move, "%s", reply->move);
    row->score = reply->score;
    row->depth = reply->depth;
    row->nodes = reply->nodes;
    share->next += share->step;
    say_progress(share);
    return true;
}

static bool run_share(Share *share, Error *err) {
    const ProgramBenchJob *job = share->job;
    char path[512], arguments[600];
    if (!write_share(share, path, sizeof path, err))
        return false;
    EngineProgram x;
    uint64_t bench_nodes = 0;
    bool ok = program_start(&x, job->spec, share->abort, err);
    if (ok) {
        snprintf(arguments, sizeof arguments, "%d 1 %d %s depth", job->tt_megabytes, job->depth,
                 path);
        ProgramBenchReply bench = {.on_position = take_position, .context = share};
        ok = program_ask_bench(&x, arguments, &bench, err);
        bench_nodes = bench.nodes;
        program_stop(&x);
    }
    unlink(path);
    /* Its total must be the sum of its lines: a program whose two reports disagree is counting
     * something else than it says (fishtest reads the total, the comparison the lines). */
    uint64_t sum = 0;
    for (int i = share->first; ok && i < share->next && i < share->count; i += share->step)
        sum += share->out->rows[i].nodes;
    if (ok && share->next >= share->count && bench_nodes != sum)
        return error_set(err,
                         "%s: its bench says 'Nodes searched: %llu' but its per-position lines "
                         "add up to %llu: the two disagree",
                         job->spec->program.cmd, (unsigned long long)bench_nodes,
                         (unsigned long long)sum);
    if (ok && share->next < share->count)
        return error_set(err,
                         "%s: its bench gave no line for position '%s' (info string bench "
                         "position ...): bench against a program needs tslab's engine 0.4.1 or "
                         "later",
                         job->spec->program.cmd, share->entries[share->next].id);
    return ok;
}

static void *share_main(void *arg) {
    Share *share = arg;
    share->ok = run_share(share, &share->err);
    if (!share->ok)
        atomic_store(share->abort, true); /* the others stop within 100 ms */
    return NULL;
}

bool program_bench_run(const ProgramBenchJob *job, const BookEntry *entries, int count,
                       ProgramBenchRun *out, Error *err) {
    memset(out, 0, sizeof *out);
    int processes = job->processes < count ? job->processes : count;
    out->rows = calloc((size_t)count, sizeof *out->rows);
    Share *shares = calloc((size_t)processes, sizeof *shares);
    pthread_t *threads = calloc((size_t)processes, sizeof *threads);
    if (!out->rows || !shares || !threads) {
        free(shares);
        free(threads);
        program_bench_destroy(out);
        return error_set(err, "out of memory for %d positions", count);
    }
    out->count = count;
    atomic_bool own_abort;
    atomic_init(&own_abort, false);
    atomic_bool *abort = job->stop ? job->stop : &own_abort;
    Progress progress = {.count = count};
    pthread_mutex_init(&progress.lock, NULL);
    if (job->progress) {
        fprintf(job->progress,
                "%s (%s): bench of %d positions at depth %d on %d process(es); a process that "
                "gives no total within %lld ms is given up (stall)\n",
                job->spec->name, job->spec->program.cmd, count, job->depth, processes,
                (long long)job->spec->program.stall);
        fflush(job->progress);
    }
    double start = cli_now_seconds(), cpu_start = children_cpu_seconds();
    int started = 0;
    bool ok = true;
    for (int p = 0; p < processes; p++) {
        shares[p] = (Share){.job = job,
                            .entries = entries,
                            .count = count,
                            .first = p,
                            .step = processes,
                            .out = out,
                            .abort = abort,
                            .next = p,
                            .progress = &progress};
        if (pthread_create(&threads[p], NULL, share_main, &shares[p]) != 0) {
            ok = error_set(err, "cannot start a thread for process %d", p + 1);
            atomic_store(abort, true);
            break;
        }
        started++;
    }
    for (int p = 0; p < started; p++)
        pthread_join(threads[p], NULL);
    pthread_mutex_destroy(&progress.lock);
    out->wall_seconds = cli_now_seconds() - start;
    out->cpu_seconds = children_cpu_seconds() - cpu_start;
    /* The first failure that is not another's "aborted" says what happened. */
    for (int p = 0; ok && p < started; p++)
        if (!shares[p].ok && strcmp(shares[p].err.text, "aborted"))
            ok = error_set(err, "%s", shares[p].err.text);
    for (int p = 0; ok && p < started; p++)
        if (!shares[p].ok)
            ok = error_set(err, "%s", shares[p].err.text);
    free(shares);
    free(threads);
    if (!ok) {
        program_bench_destroy(out);
        return false;
    }
    for (int i = 0; i < count; i++)
        out->nodes += out->rows[i].nodes;
    return true;
}

void program_bench_destroy(ProgramBenchRun *run) {
    free(run->rows);
    memset(run, 0, sizeof *run);
}
