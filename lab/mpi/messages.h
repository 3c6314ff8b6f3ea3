// SPDX-License-Identifier: MIT
// The messages between rank 0 (the coordinator) and the other ranks, and the waiting that does
// not spin: OpenMPI's blocking calls poll a core at 100% while they wait, which on a machine
// with as many ranks as cores would take the cores from the games. Every wait here probes and
// sleeps 1 ms between probes.
//
// The conversation, per rank k > 0, the same whatever rank 0 runs (a match, tune, booktest):
//   0 -> k  SETUP    {"threads": N, "job": JOB} (the pool's first job), or empty: nothing to play
//   k -> 0  HELLO    "ok\nHOST\nTHREADS\nFINGERPRINT" or "error\nHOST\nMESSAGE"
//   0 -> k  GO       one byte: 1 play, 0 stop (a rank differs, or could not start)
//   k -> 0  REQUEST  how many pair numbers it wants (int32)
//   0 -> k  JOB      the pool's job when it changed (tune's next theta, booktest's next cell),
//                    before the first batch of it: {"settings": ..., "book_hash": ...}
//   0 -> k  BATCH    the job's generation, then pair numbers (int64 array), one reply per
//                    request, when there are some
//   k -> 0  RESULTS  the job's generation, then played pairs (lab/match/pair_wire.h), each
//                    replayed and checked by rank 0 before it counts
//   k -> 0  FAILED   a game could not be played: the message
//   k -> 0  ALIVE    nothing else sent for RANK_HEARTBEAT_SECONDS: the rank still runs (empty)
//   0 -> k  STOP     the run has ended: discard what is in flight
//   k -> 0  DONE     it has stopped (after which it sends nothing)
// A rank that sends nothing at all for -rank-timeout seconds (frozen, its host gone) is lost:
// rank 0 hands its pairs to the other ranks and its own threads, and drops whatever it sends
// later.
#pragma once

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

enum {
    TAG_SETUP = 1,
    TAG_HELLO,
    TAG_GO,
    TAG_REQUEST,
    TAG_BATCH,
    TAG_RESULTS,
    TAG_FAILED,
    TAG_STOP,
    TAG_DONE,
    TAG_ALIVE,
    TAG_JOB,
};

/* Sleeps between probes (1 ms). */
void messages_pause(void);

/* Waits for a message from source (MPI_ANY_SOURCE for any) with tag (MPI_ANY_TAG for any) and
 * returns its envelope. */
MPI_Status messages_wait(int source, int tag);

/* The same, giving up at deadline (cli_now_seconds() clock): false when nothing came. */
bool messages_wait_until(int source, int tag, double deadline, MPI_Status *status);

/* Receives the probed message of bytes as a malloc'd, NUL-terminated buffer (*size bytes
 * before the NUL). Out of memory aborts the job: the message cannot be left unreceived. */
char *messages_receive_bytes(const MPI_Status *probed, int *size);

/* A rank other than 0: waits for rank 0's SETUP; NULL when it is empty (nothing to play), else
 * its text (malloc'd). */
char *messages_receive_setup(void);

/* Rank 0: GO to every other rank (1 play, 0 stop). */
void messages_send_go(int ranks, bool go);

/* Splits text at its newlines, in place, into at most most lines; returns how many. */
int messages_split_lines(char *text, char *lines[], int most);

/* Sends text (its NUL not included) to rank dest with tag. */
void messages_send_text(int dest, int tag, const char *text);
