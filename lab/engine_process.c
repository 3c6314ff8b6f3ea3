// SPDX-License-Identifier: MIT
/* pipe2: the pipes are close-on-exec from the start, so an engine started by another worker
 * thread at the same moment never inherits them (an inherited write end would hide this
 * engine's exit: its output would never reach end of file). */
#define _GNU_SOURCE
#include "engine_process.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's codes for a start that failed before the program ran (as the shell uses them). */
#define EXIT_CANNOT_ENTER_DIR 126
#define EXIT_CANNOT_EXEC 127

/* Splits args into words in place: spaces separate, double quotes group. */
static int split_args(char *text, char **words, int max) {
    int count = 0;
    char *p = text;
    while (*p && count < max) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (*p == '"') {
            words[count++] = ++p;
            while (*p && *p != '"')
                p++;
        } else {
            words[count++] = p;
            while (*p && *p != ' ')
                p++;
        }
        if (*p)
            *p++ = '\0';
    }
    return count;
}

bool engine_process_start(EngineProcess *p, const char *cmd, const char *args, const char *dir,
                          Error *err) {
    memset(p, 0, sizeof *p);
    p->to_engine = p->from_engine = -1;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return error_set(err, "cannot make a pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return error_set(err, "cannot make a pipe: %s", strerror(errno));
    }
    /* Copied before fork: the child may only call async-signal-safe functions. */
    char arg_text[4096];
    snprintf(arg_text, sizeof arg_text, "%s", args ? args : "");
    char *argv[ENGINE_ARGS_MAX + 2];
    argv[0] = (char *)cmd;
    int argc = 1 + split_args(arg_text, argv + 1, ENGINE_ARGS_MAX);
    argv[argc] = NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return error_set(err, "cannot start a process: %s", strerror(errno));
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        /* Its own process group: a Ctrl-C meant for abtest does not kill the engines under it
         * (abtest stops them itself, after saving). */
        setpgid(0, 0);
        if (dir && *dir && chdir(dir) != 0)
            _exit(EXIT_CANNOT_ENTER_DIR);
        execvp(cmd, argv);
        _exit(EXIT_CANNOT_EXEC);
    }
    close(in[0]);
    close(out[1]);
    p->pid = pid;
    p->to_engine = in[1];
    p->from_engine = out[0];
    return true;
}

bool engine_process_send(EngineProcess *p, const char *line) {
    if (p->pid <= 0)
        return false;
    size_t length = strlen(line);
    char stack[1024];
    /* One write per line when it fits, so that a line is never split by another writer. */
    const char *parts[2] = {line, "\n"};
    size_t sizes[2] = {length, 1};
    if (length + 1 <= sizeof stack) {
        memcpy(stack, line, length);
        stack[length] = '\n';
        parts[0] = stack;
        sizes[0] = length + 1;
        sizes[1] = 0;
    }
    /* A write to an engine that has exited raises SIGPIPE, which abtest takes as "stop the
     * run" (its own output closed). So SIGPIPE is blocked in this thread while writing, and one
     * raised here is taken back: the write's EPIPE says the engine is gone. */
    sigset_t pipe_only, previous;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    bool ok = true, broken = false;
    for (int i = 0; ok && i < 2; i++) {
        size_t done = 0;
        while (ok && done < sizes[i]) {
            ssize_t n = write(p->to_engine, parts[i] + done, sizes[i] - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                broken = n < 0 && errno == EPIPE;
                ok = false;
            } else {
                done += (size_t)n;
            }
        }
    }
    if (broken && !sigismember(&previous, SIGPIPE)) {
        const struct timespec now = {0, 0};
        sigtimedwait(&pipe_only, NULL, &now);
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return ok;
}

/* Moves one complete line out of the buffer, if there is one. */
static bool take_line(EngineProcess *p, char *out, size_t size) {
    char *newline = memchr(p->buffer, '\n', p->used);
    if (!newline)
        return false;
    size_t length = (size_t)(newline - p->buffer);
    size_t keep = length < size - 1 ? length : size - 1;
    for (size_t i = 0; i < keep; i++)
        out[i] = p->buffer[i] ? p->buffer[i] : ' ';
    if (keep > 0 && out[keep - 1] == '\r')
        keep--;
    out[keep] = '\0';
    p->used -= length + 1;
    memmove(p->buffer, newline + 1, p->used);
    return true;
}

EngineRead engine_process_read(EngineProcess *p, int64_t deadline_ms, char *out, size_t size) {
    for (;;) {
        if (take_line(p, out, size)) {
            if (!p->dropping)
                return ENGINE_READ_LINE;
            p->dropping = false; /* the end of an over-long line */
            continue;
        }
        if (p->used == sizeof p->buffer) { /* a line longer than the buffer: cut it here */
            p->used = 0;
            p->dropping = true;
        }
        if (p->at_end || p->pid <= 0)
            return ENGINE_READ_CLOSED;
        int wait_ms = -1;
        if (deadline_ms > 0) {
            int64_t left = deadline_ms - cli_now_ms();
            if (left <= 0)
                return ENGINE_READ_TIMEOUT;
            wait_ms = left > 1000000 ? 1000000 : (int)left;
        }
        struct pollfd fd = {p->from_engine, POLLIN, 0};
        int ready = poll(&fd, 1, wait_ms);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            continue; /* the deadline check above decides */
        ssize_t n = read(p->from_engine, p->buffer + p->used, sizeof p->buffer - p->used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            p->at_end = true;
            continue;
        }
        p->used += (size_t)n;
    }
}

void engine_process_ending(EngineProcess *p, int64_t wait_ms, char *out, size_t size) {
    int status;
    int64_t deadline = cli_now_ms() + wait_ms;
    const struct timespec pause = {0, 2 * 1000 * 1000};
    pid_t done;
    while ((done = waitpid(p->pid, &status, WNOHANG)) == 0 && cli_now_ms() < deadline)
        nanosleep(&pause, NULL);
    if (done != p->pid) {
        snprintf(out, size, "still running");
        return;
    }
    p->pid = -p->pid; /* reaped: engine_process_stop must not wait for it again */
    if (WIFSIGNALED(status))
        snprintf(out, size, "killed by signal %d", WTERMSIG(status));
    else if (WEXITSTATUS(status) == EXIT_CANNOT_EXEC)
        snprintf(out, size, "could not be run: not found or not executable");
    else if (WEXITSTATUS(status) == EXIT_CANNOT_ENTER_DIR)
        snprintf(out, size, "could not enter its directory");
    else
        snprintf(out, size, "exit status %d", WEXITSTATUS(status));
}

void engine_process_stop(EngineProcess *p, int64_t grace_ms) {
    if (p->pid == 0)
        return;
    if (p->pid < 0) { /* already reaped by engine_process_ending */
        close(p->to_engine);
        close(p->from_engine);
        p->pid = 0;
        return;
    }
    engine_process_send(p, "quit");
    close(p->to_engine);
    int64_t deadline = cli_now_ms() + grace_ms;
    int status;
    const struct timespec pause = {0, 2 * 1000 * 1000};
    while (waitpid(p->pid, &status, WNOHANG) == 0) {
        if (cli_now_ms() >= deadline) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            break;
        }
        nanosleep(&pause, NULL);
    }
    close(p->from_engine);
    p->pid = 0;
    p->to_engine = p->from_engine = -1;
}
