// SPDX-License-Identifier: MIT
// An engine as a child process: started with its arguments in its directory, talked to by lines
// over two pipes, read with a deadline, stopped with `quit` or killed.
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ENGINE_LINE_MAX 65536 /* a longer line is cut here (the rest is read and dropped) */
#define ENGINE_ARGS_MAX 64

typedef struct {
    pid_t pid;               /* 0: not running */
    int to_engine;           /* its stdin */
    int from_engine;         /* its stdout */
    char buffer[ENGINE_LINE_MAX];
    size_t used;             /* bytes in buffer not yet returned as a line */
    bool dropping;           /* inside an over-long line: drop until its newline */
    bool at_end;             /* its stdout reached end of file */
} EngineProcess;

typedef enum {
    ENGINE_READ_LINE,    /* a line arrived */
    ENGINE_READ_TIMEOUT, /* the deadline passed first */
    ENGINE_READ_CLOSED,  /* the engine closed its output or exited */
} EngineRead;

/* Starts cmd with args (split on spaces; "..." groups words) in dir (NULL or "": the current
 * directory). A program that cannot be run shows up as a closed output on the first read;
 * fails only when pipes or processes cannot be made. */
bool engine_process_start(EngineProcess *p, const char *cmd, const char *args, const char *dir,
                          Error *err);

/* Sends one line (a newline is added). False when the engine is gone. */
bool engine_process_send(EngineProcess *p, const char *line);

/* The next line (without its newline, NUL bytes replaced) into out, waiting until deadline_ms
 * (cli_now_ms() clock; <= 0: no deadline). */
EngineRead engine_process_read(EngineProcess *p, int64_t deadline_ms, char *out, size_t size);

/* After its output closed: how the process ended, waiting up to wait_ms for it, as text into
 * out ("exit status 3", "killed by signal 9", "could not be run: not found or not executable",
 * "could not enter its directory", or "still running"). */
void engine_process_ending(EngineProcess *p, int64_t wait_ms, char *out, size_t size);

/* Sends quit and waits up to grace_ms for the engine to exit, then kills it. Always reaps. */
void engine_process_stop(EngineProcess *p, int64_t grace_ms);
