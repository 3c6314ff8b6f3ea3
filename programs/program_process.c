// SPDX-License-Identifier: MIT
/* pipe2: the pipes are close-on-exec from the start, so an engine started by another worker
 * thread at the same moment never inherits them (an inherited write end would hide this
 * engine's exit: its output would never reach end of file). */
#define _GNU_SOURCE
#include "program_process.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's codes for a start that failed before the program ran (as the shell uses them). */
#define EXIT_CANNOT_ENTER_DIR 126
#define EXIT_CANNOT_EXEC 127
/* Every wait polls in slices this long, then looks at the abort flag and whether the process
 * has exited: a stopping run waits at most this for an engine. */
#define POLL_SLICE_MS 100

int program_args_split(char *text, char **words, int max) {
    int count = 0;
    char *p = text;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            return count;
        if (count == max)
            return -1;
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
}

/* The child, between fork and exec: only async-signal-safe calls. */
static void exec_child(int in[2], int out[2], const char *dir, const char *cmd, char **argv,
                       pid_t parent) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    /* Its own process group: a Ctrl-C meant for abtest does not kill the engines under it
     * (abtest stops them itself, after saving), and abtest can kill the whole group. */
    setpgid(0, 0);
    /* If abtest dies without stopping it (kill -9), the engine is killed too. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(EXIT_CANNOT_EXEC);
    /* The engine starts with the default SIGPIPE: abtest's ranks ignore it, and an ignored
     * signal would stay ignored across exec. */
    struct sigaction standard;
    memset(&standard, 0, sizeof standard);
    standard.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &standard, NULL);
    if (dir && *dir && chdir(dir) != 0)
        _exit(EXIT_CANNOT_ENTER_DIR);
    execvp(cmd, argv);
    _exit(EXIT_CANNOT_EXEC);
}

bool program_process_start(ProgramProcess *p, const char *cmd, const char *args, const char *dir,
                          const atomic_bool *abort, Error *err) {
    memset(p, 0, sizeof *p);
    p->to_engine = p->from_engine = -1;
    p->abort = abort;
    /* Split before fork: the child may only call async-signal-safe functions. */
    char arg_text[ENGINE_ARGS_TEXT_MAX];
    if (snprintf(arg_text, sizeof arg_text, "%s", args ? args : "") >= (int)sizeof arg_text)
        return error_set(err, "args= is longer than %d characters", ENGINE_ARGS_TEXT_MAX - 1);
    char *argv[ENGINE_ARGS_MAX + 2];
    argv[0] = (char *)cmd;
    int words = program_args_split(arg_text, argv + 1, ENGINE_ARGS_MAX);
    if (words < 0)
        return error_set(err, "args= has more than %d words", ENGINE_ARGS_MAX);
    argv[1 + words] = NULL;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return error_set(err, "cannot make a pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return error_set(err, "cannot make a pipe: %s", strerror(errno));
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return error_set(err, "cannot start a process: %s", strerror(errno));
    }
    if (pid == 0)
        exec_child(in, out, dir, cmd, argv, parent);
    setpgid(pid, pid); /* as the child does: whichever runs first, the group exists */
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    p->pid = pid;
    p->to_engine = in[1];
    p->from_engine = out[0];
    return true;
}

static bool aborted(const ProgramProcess *p) {
    return p->abort && atomic_load_explicit(p->abort, memory_order_relaxed);
}

/* Whether the process has exited, without reaping it (its pid, and so its group's id, stays
 * reserved until it is reaped: killing the group cannot hit another process). */
static bool has_exited(const ProgramProcess *p) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return p->pid > 0 && waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == p->pid;
}

/* How long the next poll may wait: up to the deadline, at most a slice; 0 when it has passed. */
static int poll_wait(int64_t deadline_ms) {
    int64_t left = deadline_ms - cli_now_ms();
    return left <= 0 ? 0 : left > POLL_SLICE_MS ? POLL_SLICE_MS : (int)left;
}

/* Writes bytes with the deadline; the pipe is non-blocking, so a full pipe waits in poll. */
static ProgramIo write_all(ProgramProcess *p, const char *bytes, size_t count, int64_t deadline_ms) {
    size_t done = 0;
    while (done < count) {
        ssize_t n = write(p->to_engine, bytes + done, count - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN)
            return PROGRAM_IO_CLOSED; /* EPIPE: it closed its input or exited */
        if (aborted(p))
            return PROGRAM_IO_ABORTED;
        if (has_exited(p))
            return PROGRAM_IO_CLOSED;
        int wait_ms = poll_wait(deadline_ms);
        if (wait_ms == 0)
            return PROGRAM_IO_TIMEOUT;
        struct pollfd fd = {p->to_engine, POLLOUT, 0};
        poll(&fd, 1, wait_ms);
    }
    return PROGRAM_IO_OK;
}

ProgramIo program_process_send(ProgramProcess *p, const char *line, int64_t deadline_ms) {
    if (p->pid <= 0)
        return PROGRAM_IO_CLOSED;
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
    ProgramIo result = PROGRAM_IO_OK;
    for (int i = 0; result == PROGRAM_IO_OK && i < 2; i++)
        result = write_all(p, parts[i], sizes[i], deadline_ms);
    if (result == PROGRAM_IO_CLOSED && !sigismember(&previous, SIGPIPE)) {
        const struct timespec now = {0, 0};
        sigtimedwait(&pipe_only, NULL, &now);
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return result;
}

/* Moves one complete line out of the buffer, if there is one. */
static bool take_line(ProgramProcess *p, char *out, size_t size) {
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

ProgramIo program_process_read(ProgramProcess *p, int64_t deadline_ms, char *out, size_t size) {
    bool exited = false;
    for (;;) {
        if (take_line(p, out, size)) {
            if (!p->dropping)
                return PROGRAM_IO_OK;
            p->dropping = false; /* the end of an over-long line */
            continue;
        }
        if (p->used == sizeof p->buffer) { /* a line longer than the buffer: cut it here */
            p->used = 0;
            p->dropping = true;
        }
        if (p->at_end || p->pid <= 0)
            return PROGRAM_IO_CLOSED;
        if (aborted(p))
            return PROGRAM_IO_ABORTED;
        /* Past the deadline, what the pipe holds is read once more (an answer that came in
         * time is not lost to a late reader) and nothing after it: a program that floods lines
         * cannot keep a wait going. */
        if (!exited && cli_now_ms() >= deadline_ms) {
            if (p->drained_for == deadline_ms)
                return PROGRAM_IO_TIMEOUT;
            p->drained_for = deadline_ms;
        }
        /* Once the process has exited, what it wrote is drained without waiting; an output that
         * stays open then is held by a process it started, and counts as closed. */
        int wait_ms = exited ? 0 : poll_wait(deadline_ms);
        struct pollfd fd = {p->from_engine, POLLIN, 0};
        int ready = poll(&fd, 1, wait_ms);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            if (exited) {
                p->at_end = p->output_held = true;
                continue;
            }
            if (cli_now_ms() >= deadline_ms)
                return PROGRAM_IO_TIMEOUT;
            exited = has_exited(p);
            continue;
        }
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

/* Kills what is left of the process group of an exited (or killed) process, then reaps it. */
static int kill_group_and_reap(ProgramProcess *p) {
    int status = 0;
    kill(-p->pid, SIGKILL);
    while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
        ;
    p->pid = -p->pid;
    return status;
}

void program_process_ending(ProgramProcess *p, int64_t wait_ms, char *out, size_t size) {
    if (p->pid < 0) { /* reaped: by an earlier call, whose answer it keeps, or by a stop */
        snprintf(out, size, "%s", p->ending[0] ? p->ending : "already stopped");
        return;
    }
    int64_t deadline = cli_now_ms() + wait_ms;
    const struct timespec pause = {0, 2 * 1000 * 1000};
    while (!has_exited(p) && cli_now_ms() < deadline)
        nanosleep(&pause, NULL);
    if (!has_exited(p)) {
        snprintf(out, size, "still running");
        return;
    }
    int status = kill_group_and_reap(p);
    const char *held = p->output_held ? "; a process it started held its output open" : "";
    char *how = p->ending;
    size_t room = sizeof p->ending;
    if (WIFSIGNALED(status))
        snprintf(how, room, "killed by signal %d%s", WTERMSIG(status), held);
    else if (WEXITSTATUS(status) == EXIT_CANNOT_EXEC)
        snprintf(how, room, "could not be run: not found or not executable");
    else if (WEXITSTATUS(status) == EXIT_CANNOT_ENTER_DIR)
        snprintf(how, room, "could not enter its directory");
    else
        snprintf(how, room, "exit status %d%s", WEXITSTATUS(status), held);
    snprintf(out, size, "%s", how);
}

void program_process_stop(ProgramProcess *p, int64_t grace_ms) {
    if (p->pid == 0)
        return;
    if (p->pid > 0) {
        int64_t deadline = cli_now_ms() + grace_ms;
        program_process_send(p, "quit", deadline);
        close(p->to_engine);
        p->to_engine = -1;
        const struct timespec pause = {0, 2 * 1000 * 1000};
        while (!has_exited(p) && cli_now_ms() < deadline)
            nanosleep(&pause, NULL);
        /* Exited or not, its group goes: a script's children, one that ignores quit. */
        kill_group_and_reap(p);
    }
    if (p->to_engine >= 0)
        close(p->to_engine);
    close(p->from_engine);
    p->pid = 0;
    p->to_engine = p->from_engine = -1;
}
