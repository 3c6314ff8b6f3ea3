// SPDX-License-Identifier: MIT
// build/abtest-mpi: build/abtest's matches on MPI ranks (`mpirun -np R build/abtest-mpi
// <abtest options>`). Rank 0 parses the options and runs the match (lab/mpi/coordinator.c);
// every other rank plays what rank 0 hands out (lab/mpi/rank_worker.c). docs/distributed.md.
#include "arguments.h"
#include "cli.h"
#include "coordinator.h"
#include "messages.h"
#include "parse.h"
#include "rank_limits.h"
#include "rank_worker.h"
#include "settings.h"
#include "tune.h"
#include "tune_ranks.h"
#include "tune_worker.h"

#include <stdio.h>
#include <string.h>

/* The ranks on this rank's host, to share its cores among them. */
static int local_rank_count(void) {
    MPI_Comm local;
    int count = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
        MPI_SUCCESS) {
        MPI_Comm_size(local, &count);
        MPI_Comm_free(&local);
    }
    return count;
}

/* Takes -rank-timeout S out of argv (abtest-mpi's own option; the rest are abtest's). False
 * after saying what is wrong. */
static bool take_rank_timeout(int *argc, char **argv, double *timeout) {
    *timeout = RANK_TIMEOUT_DEFAULT_SECONDS;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "-rank-timeout"))
            continue;
        Error err;
        if (i + 1 >= *argc) {
            cli_error("-rank-timeout needs a number of seconds");
            return false;
        }
        if (!parse_double(argv[i + 1], 1, RANK_TIMEOUT_MAX_SECONDS, timeout, &err)) {
            cli_error("-rank-timeout: %s (seconds a rank may stay silent)", err.text);
            return false;
        }
        memmove(argv + i, argv + i + 2, sizeof *argv * (size_t)(*argc - i - 1));
        *argc -= 2;
        i--;
    }
    return true;
}

/* Rank 0 of `abtest-mpi tune`: the tuner, with the other ranks playing shares of each
 * iteration. */
static int tune_main(int argc, char **argv, int ranks, int default_threads, double timeout,
                     int *lost) {
    TuneRanks *tune_ranks = tune_ranks_new(ranks, default_threads, timeout);
    if (!tune_ranks) {
        cli_error("out of memory");
        coordinator_send_nothing(ranks);
        return 2;
    }
    TuneRemote remote = tune_ranks_remote(tune_ranks);
    int code = abtest_tune_main(argc - 2, argv + 2, &remote);
    *lost = tune_ranks_lost(tune_ranks);
    tune_ranks_free(tune_ranks);
    return code;
}

/* Rank 0: the options, then the run. Whatever stops it before a run, the other ranks are told
 * there is none, so every rank ends. *lost: ranks that went silent (the job cannot finalize). */
static int coordinator_main(int argc, char **argv, int ranks, int default_threads,
                            double timeout, int *lost) {
    MatchSettings settings;
    Error err;
    if (argc >= 2 && (!strcmp(argv[1], "sprt") || !strcmp(argv[1], "book"))) {
        cli_error("abtest-mpi plays matches; run `abtest %s` for that", argv[1]);
        coordinator_send_nothing(ranks);
        return 2;
    }
    if (argc < 2) {
        if (!arguments_main_job(&settings, &err)) {
            cli_error("%s", err.text);
            coordinator_send_nothing(ranks);
            return 2;
        }
        printf("abtest-mpi: no options: running the built-in main job (abtest -help for "
               "options)\n");
    } else {
        bool exit_now = false;
        bool ok = arguments_parse(argc - 1, argv + 1, &settings, &exit_now, &err);
        if (!ok)
            cli_error("%s", err.text);
        if (!ok || exit_now) {
            coordinator_send_nothing(ranks);
            return ok ? 0 : 2;
        }
    }
    int threads_option = settings.concurrency; /* 0: each rank's own default */
    if (!settings.concurrency)
        settings.concurrency = default_threads;
    Coordinator *coordinator = coordinator_new(ranks, threads_option, timeout);
    if (!coordinator) {
        cli_error("out of memory");
        coordinator_send_nothing(ranks);
        return 2;
    }
    RunnerRemote remote = coordinator_remote(coordinator);
    int code = runner_run(&settings, &remote);
    *lost = coordinator_lost_ranks(coordinator);
    coordinator_free(coordinator);
    return code;
}

int main(int argc, char **argv) {
    cli_init(argv[0]);
    int provided = 0, rank = 0, ranks = 1;
    /* Rank 0 calls MPI from its comm thread while the run plays, never from two threads at
     * once: SERIALIZED. */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (provided < MPI_THREAD_SERIALIZED) {
        if (rank == 0)
            cli_error("this MPI library does not allow threads to call it in turn "
                      "(MPI_THREAD_SERIALIZED)");
        MPI_Finalize();
        return 2;
    }
    int default_threads = rank_limits_default_threads(local_rank_count());
    int lost = 0, code;
    double timeout;
    bool tune = argc >= 2 && !strcmp(argv[1], "tune"); /* every rank has the same command */
    if (rank != 0) {
        code = tune ? tune_worker_main(default_threads) : rank_worker_main(rank, default_threads);
    } else if (!take_rank_timeout(&argc, argv, &timeout)) {
        coordinator_send_nothing(ranks);
        code = 2;
    } else {
        code = tune ? tune_main(argc, argv, ranks, default_threads, timeout, &lost)
                    : coordinator_main(argc, argv, ranks, default_threads, timeout, &lost);
    }
    if (lost) {
        /* MPI_Finalize waits for every rank, and a frozen one never comes: the results are
         * saved, so the job ends here, mpirun killing what is left. */
        fprintf(stdout, "abtest-mpi: %d rank(s) lost: ending the job with MPI_Abort (exit %d; "
                        "the results above are saved)\n",
                lost, code);
        fflush(stdout);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, code);
    }
    MPI_Finalize();
    return code;
}
