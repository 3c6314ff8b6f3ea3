// SPDX-License-Identifier: MIT
// build/abtest-mpi: build/abtest's matches, tune and booktest on MPI ranks (`mpirun -np R
// build/abtest-mpi [tune|booktest] <options>`). Rank 0 runs the command, its pair pool with the
// other ranks as a remote (lab/mpi/coordinator.c); every other rank plays what rank 0 hands out
// (lab/mpi/rank_worker.c), whatever the command. docs/distributed.md.
#include "arguments.h"
#include "cli.h"
#include "coordinator.h"
#include "messages.h"
#include "parse.h"
#include "rank_limits.h"
#include "rank_worker.h"
#include "settings.h"
#include "booktest.h"
#include "runner.h"
#include "tune.h"

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

/* The match as its options give it (none: the built-in main job); false when there is none
 * to run (-help, or an error said), *code then the exit status. */
static bool match_settings(int argc, char **argv, MatchSettings *settings, int *code) {
    Error err;
    *code = 2;
    if (argc < 2) {
        if (!arguments_main_job(settings, &err)) {
            cli_error("%s", err.text);
            return false;
        }
        printf("abtest-mpi: no options: running the built-in main job (abtest -help for "
               "options)\n");
        return true;
    }
    bool exit_now = false;
    if (!arguments_parse(argc - 1, argv + 1, settings, &exit_now, &err)) {
        cli_error("%s", err.text);
        return false;
    }
    *code = 0;
    return !exit_now;
}

/* Rank 0: the command (a match, tune or booktest) with the other ranks as a remote of its pair
 * pool. Whatever stops it before a run, the other ranks are told there is none (by
 * coordinator_free), so every rank ends. *lost: ranks that went silent (the job cannot
 * finalize). */
static int coordinator_main(int argc, char **argv, int ranks, int default_threads,
                            double timeout, int *lost) {
    const char *command = argc >= 2 ? argv[1] : "";
    if (!strcmp(command, "sprt") || !strcmp(command, "book") || !strcmp(command, "simulate") ||
        !strcmp(command, "report")) {
        cli_error("abtest-mpi plays pairs (matches, tune, booktest); run `abtest %s` for that",
                  command);
        coordinator_send_nothing(ranks);
        return 2;
    }
    Coordinator *coordinator = coordinator_new(ranks, default_threads, timeout);
    if (!coordinator) {
        cli_error("out of memory");
        coordinator_send_nothing(ranks);
        return 2;
    }
    PairRemote remote = coordinator_remote(coordinator);
    int code;
    MatchSettings settings;
    if (!strcmp(command, "tune"))
        code = abtest_tune_main(argc - 2, argv + 2, &remote);
    else if (!strcmp(command, "booktest"))
        code = abtest_booktest_main(argc - 2, argv + 2, &remote);
    else if (match_settings(argc, argv, &settings, &code))
        code = runner_run(&settings, &remote);
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
    if (rank != 0) {
        code = rank_worker_main(default_threads);
    } else if (!take_rank_timeout(&argc, argv, &timeout)) {
        coordinator_send_nothing(ranks);
        code = 2;
    } else {
        code = coordinator_main(argc, argv, ranks, default_threads, timeout, &lost);
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
