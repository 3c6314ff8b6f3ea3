// SPDX-License-Identifier: MIT
#include "gnuplot.h"

#include "output.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Writes text as a gnuplot single-quoted string: inside one, only a quote is special, written
 * twice; backquotes and @ macros are not expanded there. */
void gnuplot_put_quoted(FILE *f, const char *text) {
    fputc('\'', f);
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            fputc('\'', f);
        fputc(*p == '\n' ? ' ' : *p, f);
    }
    fputc('\'', f);
}

/* What the run concluded, for the title. */
/* A private temporary file (mkstemp: unpredictable name, created exclusively, mode 0600). */
static FILE *temporary(char *name, size_t size) {
    const char *dir = getenv("TMPDIR");
    snprintf(name, size, "%s/tslab-plot-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(name);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(name);
    }
    return f;
}

/* Runs gnuplot on the script, without a shell; its messages go to /dev/null. */
static int run_gnuplot(char *script, bool *missing) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"gnuplot", script, NULL};
    pid_t pid;
    int spawned = posix_spawnp(&pid, "gnuplot", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    *missing = spawned == ENOENT;
    if (spawned != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whether path holds a whole PNG: its signature first and its IEND chunk last. gnuplot exits 0
 * after a write that ran out of space (a 4096-byte file was seen on a full disk), so its status
 * alone does not say the chart is there. */
static bool whole_png(const char *path) {
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char end[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char head[8], tail[12];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = fread(head, 1, sizeof head, f) == sizeof head &&
              !memcmp(head, signature, sizeof head) && fseek(f, -(long)sizeof tail, SEEK_END) == 0 &&
              fread(tail, 1, sizeof tail, f) == sizeof tail && !memcmp(tail, end, sizeof tail);
    fclose(f);
    return ok;
}

bool gnuplot_draw(const OutputPlan *outputs, const char *path, GnuplotDataWriter write_points,
                  GnuplotScriptWriter write_commands, const void *context, Error *err) {
    /* gnuplot draws into a temporary beside path, renamed over it only when the chart is
     * whole: a failed drawing leaves the earlier chart as it was. */
    OutFile png;
    if (!output_begin(outputs, &png, path, err))
        return false;
    char data[PATHS_MAX], script[PATHS_MAX];
    FILE *f = temporary(data, sizeof data);
    if (!f) {
        outfile_abandon(&png);
        return error_set(err, "cannot create a temporary file: %s", strerror(errno));
    }
    bool ok = write_points(f, context);
    ok = fclose(f) == 0 && ok;
    FILE *g = ok ? temporary(script, sizeof script) : NULL;
    if (!g) {
        unlink(data);
        outfile_abandon(&png);
        return error_set(err, "cannot write temporary files for gnuplot: %s", strerror(errno));
    }
    ok = write_commands(g, png.temporary, data, context);
    ok = fclose(g) == 0 && ok;
    bool missing = false;
    int status = ok ? run_gnuplot(script, &missing) : -1;
    unlink(data);
    unlink(script);
    if (!ok)
        error_set(err, "cannot write temporary files for gnuplot");
    else if (missing)
        error_set(err, "gnuplot is not installed (make deps installs gnuplot-nox)");
    else if (status != 0)
        error_set(err, "gnuplot failed to draw %s", path);
    else if (!whole_png(png.temporary))
        error_set(err, "gnuplot's chart %s came out incomplete (a full disk?): the earlier file "
                       "is kept",
                  path);
    else
        return outfile_commit(&png, err);
    outfile_abandon(&png);
    return false;
}
