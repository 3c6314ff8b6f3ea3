// SPDX-License-Identifier: MIT
#define _XOPEN_SOURCE 700 /* realpath */
#include "paths.h"

#include "tablebase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Up to how many directories above the program a checkout is looked for: build/bench is one
 * level below the checkout, build/asan/bench two. */
#define EXE_LEVELS 3

typedef enum { ROOT_NONE, ROOT_ENV, ROOT_CWD_CHECKOUT, ROOT_EXE_CHECKOUT, ROOT_INSTALLED } RootKind;

static const char *const ROOT_WHY[] = {
    [ROOT_NONE] = "not found",
    [ROOT_ENV] = "from TSLAB_DATA",
    [ROOT_CWD_CHECKOUT] = "the tslab checkout containing the current directory",
    [ROOT_EXE_CHECKOUT] = "the tslab checkout containing the program",
    [ROOT_INSTALLED] = "installed beside the program",
};

/* The data root, found once per process (the tools call this before starting threads). */
static struct {
    bool searched;
    RootKind kind;
    char dir[PATHS_MAX];
} root;

static bool file_exists(const char *dir, const char *relative) {
    char path[PATHS_MAX];
    struct stat st;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, relative) >= sizeof path)
        return false;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_checkout(const char *dir) {
    return file_exists(dir, "Makefile") && file_exists(dir, "lib/search/search.h") &&
           file_exists(dir, "bench/positions.txt");
}

static bool is_installed_data(const char *dir) {
    return file_exists(dir, "bench/positions.txt") && file_exists(dir, "openings/default.txt");
}

/* Cuts the last component off dir in place; false at the root. */
static bool parent_of(char *dir) {
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return false;
    *slash = '\0';
    return true;
}

/* Walks up from dir (at most levels parents; -1: to the root) to a checkout; true with dir set
 * to it. */
static bool find_checkout(char *dir, int levels) {
    for (int level = 0; levels < 0 || level <= levels; level++) {
        if (is_checkout(dir))
            return true;
        if (!parent_of(dir))
            return false;
    }
    return false;
}

static void find_root(void) {
    root.searched = true;
    const char *env = getenv("TSLAB_DATA");
    if (env && *env) {
        snprintf(root.dir, sizeof root.dir, "%s", env);
        root.kind = ROOT_ENV;
        return;
    }
    char dir[PATHS_MAX];
    if (getcwd(dir, sizeof dir) && find_checkout(dir, -1)) {
        snprintf(root.dir, sizeof root.dir, "%s", dir);
        root.kind = ROOT_CWD_CHECKOUT;
        return;
    }
    ssize_t length = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (length <= 0)
        return;
    dir[length] = '\0';
    if (!parent_of(dir))
        return;
    char exe_dir[PATHS_MAX];
    snprintf(exe_dir, sizeof exe_dir, "%s", dir);
    if (find_checkout(dir, EXE_LEVELS)) {
        snprintf(root.dir, sizeof root.dir, "%s", dir);
        root.kind = ROOT_EXE_CHECKOUT;
        return;
    }
    if (parent_of(exe_dir)) {
        char installed[PATHS_MAX];
        if ((size_t)snprintf(installed, sizeof installed, "%s/share/tslab", exe_dir) <
                sizeof installed &&
            is_installed_data(installed)) {
            snprintf(root.dir, sizeof root.dir, "%s", installed);
            root.kind = ROOT_INSTALLED;
        }
    }
}

/* True when dir is the current directory (same inode), so relative paths can stay short. */
static bool is_current_directory(const char *dir) {
    struct stat a, b;
    return stat(dir, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* root.dir/relative into out (relative alone when the root is the current directory). */
static bool data_path(const char *relative, char *out, size_t size, Error *err) {
    int written = is_current_directory(root.dir)
                      ? snprintf(out, size, "%s", relative)
                      : snprintf(out, size, "%s/%s", root.dir, relative);
    if (written < 0 || (size_t)written >= size)
        return error_set(err, "the path of the default %s is too long", relative);
    return true;
}

bool paths_data_file(const char *relative, char *out, size_t size, Error *err) {
    if (!root.searched)
        find_root();
    if (root.kind == ROOT_NONE)
        return error_set(err, "cannot find the default %s: not in a tslab checkout and no "
                              "installed data beside the program (run from a checkout, install "
                              "with make install, set TSLAB_DATA, or name the file)",
                         relative);
    if (!file_exists(root.dir, relative))
        return error_set(err, "the default %s is missing from %s (%s)", relative, root.dir,
                         ROOT_WHY[root.kind]);
    return data_path(relative, out, size, err);
}

bool paths_has_data_root(void) {
    if (!root.searched)
        find_root();
    return root.kind != ROOT_NONE;
}

bool paths_data_target(const char *relative, char *out, size_t size, Error *err) {
    if (!root.searched)
        find_root();
    if (root.kind == ROOT_NONE)
        return error_set(err, "no data root for the default %s: not in a tslab checkout and no "
                              "installed data beside the program (set TSLAB_DATA or name the "
                              "file)",
                         relative);
    return data_path(relative, out, size, err);
}

bool paths_tablebase(const char *given, char *out, size_t size, Error *err) {
    if (given) {
        if ((size_t)snprintf(out, size, "%s", given) >= size)
            return error_set(err, "tablebase path too long");
        return true;
    }
    Error where;
    if (paths_data_file(TB_DEFAULT_FILE, out, size, &where))
        return true;
    return error_set(err, "no tablebase: %s. Build it with `make tablebase` (about a minute on 2 "
                          "cores, 88 MB) or name a file",
                     where.text);
}

void paths_describe_defaults(char *out, size_t size) {
    if (!root.searched)
        find_root();
    if (root.kind == ROOT_NONE)
        snprintf(out, size, "defaults: none found (not in a tslab checkout, nothing installed "
                            "beside the program; TSLAB_DATA=DIR sets them)");
    else
        snprintf(out, size, "defaults: %s (%s; TSLAB_DATA=DIR overrides)", root.dir,
                 ROOT_WHY[root.kind]);
}

bool paths_make_parent(const char *path, Error *err) {
    char dir[PATHS_MAX];
    if ((size_t)snprintf(dir, sizeof dir, "%s", path) >= sizeof dir)
        return error_set(err, "%s: path too long", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return true; /* the current directory or the root */
    *slash = '\0';
    /* Create each missing component from the top down. */
    for (char *p = dir + 1; ; p++) {
        bool end = *p == '\0';
        if (*p == '/' || end) {
            char saved = *p;
            *p = '\0';
            struct stat st;
            if (stat(dir, &st) != 0) {
                if (mkdir(dir, 0777) != 0 && errno != EEXIST)
                    return error_set(err, "cannot create directory %s: %s", dir, strerror(errno));
            } else if (!S_ISDIR(st.st_mode)) {
                return error_set(err, "%s is not a directory", dir);
            }
            *p = saved;
        }
        if (end)
            break;
    }
    return true;
}

/* The resolved directory of path plus its last component. */
static bool resolved_name(const char *path, char *out, size_t size) {
    char dir[PATHS_MAX], resolved[PATHS_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *name = path;
    if (slash) {
        *slash = '\0';
        name = slash + 1 - dir + path;
        if (!*dir)
            snprintf(dir, sizeof dir, "/");
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    if (!realpath(dir, resolved))
        return false;
    return (size_t)snprintf(out, size, "%s/%s", resolved, name) < size;
}

bool paths_same_file(const char *a, const char *b) {
    struct stat x, y;
    if (!a[0] || !b[0])
        return false;
    if (stat(a, &x) == 0 && stat(b, &y) == 0)
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
    char ra[PATHS_MAX], rb[PATHS_MAX];
    if (resolved_name(a, ra, sizeof ra) && resolved_name(b, rb, sizeof rb))
        return !strcmp(ra, rb);
    return !strcmp(a, b);
}
