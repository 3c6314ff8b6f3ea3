// SPDX-License-Identifier: MIT
// An engine as a child process in a process group of its own: started with its arguments in its
// directory, talked to by lines over two pipes, every read and every write with a deadline (an
// engine that stops reading cannot block abtest), and stopped with `quit`, then by killing its
// whole group (a script's children go with it).
#pragma once

#include "error.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ENGINE_LINE_MAX 65536 /* a longer line is cut here (the rest is read and dropped) */
#define ENGINE_ARGS_MAX 64    /* words of args=; more are refused (program_args_split) */
#define ENGINE_ARGS_TEXT_MAX 4096

typedef struct {
    pid_t pid;                /* > 0 running or not yet reaped; < 0 reaped (-pid); 0 none */
    int to_engine;            /* its stdin, non-blocking: writes wait in poll with a deadline */
    int from_engine;          /* its stdout */
    const atomic_bool *abort; /* raised: every wait returns PROGRAM_IO_ABORTED (NULL: never) */
    char buffer[ENGINE_LINE_MAX];
    size_t used;         /* bytes in buffer not yet returned as a line */
    bool dropping;       /* inside an over-long line: drop until its newline */
    bool at_end;         /* its stdout reached end of file */
    bool output_held;    /* it exited while a process it started held its stdout open */
    int64_t drained_for; /* the deadline past which the pipe was read a last time */
    char ending[96];     /* how it ended, once program_process_ending has reaped it */
} ProgramProcess;

typedef enum {
    PROGRAM_IO_OK,      /* a line arrived, or the line was written */
    PROGRAM_IO_TIMEOUT, /* the deadline passed first */
    PROGRAM_IO_CLOSED,  /* the engine closed its end of the pipe, or exited */
    PROGRAM_IO_ABORTED, /* the abort flag was raised: the run is stopping */
} ProgramIo;

/* Splits args into words in place: spaces separate, double quotes group ("a b" is one word).
 * Returns the number of words, or -1 when there are more than max. */
int program_args_split(char *text, char **words, int max);

/* Starts cmd with args (program_args_split's words) in dir (NULL or "": the current directory),
 * in a process group of its own. A program that cannot be run shows up as a closed output on
 * the first read; fails only when the arguments are too many or long, or pipes or processes
 * cannot be made. Every wait of the process's reads and writes returns PROGRAM_IO_ABORTED within
 * 100 ms of *abort becoming true (abort may be NULL). */
bool program_process_start(ProgramProcess *p, const char *cmd, const char *args, const char *dir,
                          const atomic_bool *abort, Error *err);

/* Sends one line (a newline is added), waiting until deadline_ms (cli_now_ms() clock) for the
 * engine to take it: an engine that does not read its input gets PROGRAM_IO_TIMEOUT, not a
 * blocked abtest. A line cut short by a timeout leaves the engine unusable: stop it. */
ProgramIo program_process_send(ProgramProcess *p, const char *line, int64_t deadline_ms);

/* The next line (without its newline, NUL bytes replaced) into out, waiting until deadline_ms.
 * Past the deadline the lines already sent are still returned, but the pipe is read only once
 * more for that deadline: a program that floods lines cannot keep a wait going. An engine whose
 * process has exited reads as closed once its output is drained, even when a process it started
 * still holds that output open. */
ProgramIo program_process_read(ProgramProcess *p, int64_t deadline_ms, char *out, size_t size);

/* After its output closed: how the process ended, waiting up to wait_ms for it, as text into
 * out ("exit status 3", "killed by signal 9", "could not be run: not found or not executable",
 * "could not enter its directory", or "still running"). An ended process's group is killed
 * and the process reaped; asked again, it gives the same answer (a write and then a read may
 * both find the process gone). */
void program_process_ending(ProgramProcess *p, int64_t wait_ms, char *out, size_t size);

/* Sends quit and waits up to grace_ms for the engine to exit, then kills its process group.
 * Always reaps; safe to call twice. */
void program_process_stop(ProgramProcess *p, int64_t grace_ms);
