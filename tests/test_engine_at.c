// SPDX-License-Identifier: MIT
// `make engine-at REV=... OUT=...` with hostile names: REV and OUT reach tools/engine_at.sh as
// arguments only, so names that are shell code (backquotes, $(...), quotes and semicolons, all
// valid in git branch names) are never run, whether the revision exists or not; a REV that
// would read as an option or holds a control character is refused. Runs in a clone of this
// checkout (with this checkout's Makefile and script), never touching its branches. On a tree
// with uncommitted changes, REV=HEAD is refused and REV=WORKTREE builds the tree as it is. The
// clone also serves `make EXE=PATH` as OpenBench runs it.
// Skipped, saying so, outside a git checkout.
#include "test_util.h"

#include <sys/stat.h>

static char dir[96], repo[160], marker[200];
static const char *skip_reason;

static int setup(void **state) {
    (void)state;
    if (test_make_dir(dir, sizeof dir, "engine_at") != 0)
        return -1;
    snprintf(repo, sizeof repo, "%s/repo", dir);
    snprintf(marker, sizeof marker, "%s/marker", dir);
    char command[1024];
    snprintf(command, sizeof command,
             "git -C " TSLAB_SOURCE_DIR " rev-parse --git-dir "
             ">/dev/null 2>&1");
    if (TEST_ADDRESS_SANITIZER) {
        /* What it checks is the script and the plain builds it makes: no instrumented code of
         * ours runs (a minute of CI's sanitizer run; the plain and clang runs keep it). */
        skip_reason = "under ASan: the builds it makes are not instrumented";
        printf("test_engine_at: skipped: %s\n", skip_reason);
        return 0;
    }
    if (system(command) != 0) {
        skip_reason = TSLAB_SOURCE_DIR " is not a git checkout";
        printf("test_engine_at: skipped: %s\n", skip_reason);
        return 0;
    }
    snprintf(command, sizeof command,
             "git clone -q --shared " TSLAB_SOURCE_DIR " %s && cp " TSLAB_SOURCE_DIR
             "/Makefile %s/Makefile && cp " TSLAB_SOURCE_DIR "/tools/engine_at.sh "
             TSLAB_SOURCE_DIR "/tools/install.sh " TSLAB_SOURCE_DIR "/tools/tree_changes.sh "
             "%s/tools/",
             repo, repo, repo);
    return system(command) == 0 ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

/* Runs make engine-at in the clone with the given (shell-quoted) variables; returns the exit
 * status and the output in *out. The marker must not exist afterwards. */
static int engine_at(const char *variables, char **out) {
    char command[2048];
    snprintf(command, sizeof command, "cd %s && OPT=-O0 timeout 300 make -s engine-at %s", repo,
             variables);
    int status = test_run(command, out);
    if (access(marker, F_OK) == 0)
        fail_msg("make engine-at %s ran the name as a command:\n%s", variables, *out);
    char in_repo[256];
    snprintf(in_repo, sizeof in_repo, "%s/marker", repo);
    if (access(in_repo, F_OK) == 0)
        fail_msg("make engine-at %s ran the name as a command:\n%s", variables, *out);
    return status;
}

/* Each was run by the shell before (the first four by the recipe's `test -n "$(REV)"` even
 * before the script); now each is refused with a message, exit 2. */
static void hostile_names__refused_never_run(void **state) {
    (void)state;
    if (skip_reason)
        skip();
    char rows[8][2][512];
    int count = 0;
    snprintf(rows[count][0], 512, "REV='`touch %s`'", marker);
    snprintf(rows[count++][1], 512, "is not a revision");
    snprintf(rows[count][0], 512, "REV='x\";touch %s;\"'", marker);
    snprintf(rows[count++][1], 512, "is not a revision");
    snprintf(rows[count][0], 512, "REV='$$(touch %s)'", marker);
    snprintf(rows[count++][1], 512, "is not a revision");
    snprintf(rows[count][0], 512, "REV=\"x';touch %s;'\"", marker);
    snprintf(rows[count++][1], 512, "is not a revision");
    snprintf(rows[count][0], 512, "REV=HEAD OUT='o\";touch %s;\"' REV='--output=%s'", marker,
             marker);
    snprintf(rows[count++][1], 512, "starts with '-'");
    snprintf(rows[count][0], 512, "REV=\"$(printf 'HEAD\\033[2J')\"");
    snprintf(rows[count++][1], 512, "control character");
    snprintf(rows[count][0], 512, "REV=");
    snprintf(rows[count++][1], 512, "usage: make engine-at REV=");
    for (int i = 0; i < count; i++) {
        char *out;
        int status = engine_at(rows[i][0], &out);
        if (status != 2 || !strstr(out, rows[i][1]))
            fail_msg("make engine-at %s: exit %d, '%s', expected '%s'", rows[i][0], status, out,
                     rows[i][1]);
        free(out);
    }
}

/* A branch whose name is shell code is built under that name into an OUT that is shell code
 * too: the engine lands in a directory of exactly that name, and nothing runs. */
static void hostile_branch__built_as_named(void **state) {
    (void)state;
    if (skip_reason)
        skip();
    const char *branch = "x\";touch${IFS}marker;\"";
    char command[1024], *out;
    snprintf(command, sizeof command, "git -C %s branch '%s'", repo, branch);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, "REV='%s' OUT='o\";touch${IFS}marker;\"'", branch);
    int status = engine_at(command, &out);
    if (status != 0)
        fail_msg("make engine-at %s: exit %d:\n%s", command, status, out);
    free(out);
    snprintf(command, sizeof command, "'%s/o\";touch${IFS}marker;\"/bin/tslab-engine' -version",
             repo);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "tslab"));
    free(out);
}

/* The per-position comparison in a bench compare's JSON file, as text. */
static char *positions_of(const char *path) {
    cJSON *json = test_load_json(path);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(json, "positions"));
    cJSON_Delete(json);
    assert_non_null(text);
    return text;
}

/* A tree with uncommitted changes (the version text, so the engine shows which tree it was built
 * from, and the futility margin's default, 0 -> 70: a code change): REV=HEAD is refused with a
 * pointer to REV=WORKTREE, which builds the tree as it is and reports git <HEAD>-dirty; bench
 * compare of that build against this one gives exactly what the toggle futility=70 gives in
 * process; another name of HEAD's commit builds the commit with a note (CC=false stops that build
 * right after the note); tools/install.sh from that tree says so. The changes are undone at the
 * end. */
static void dirty_tree__head_refused_worktree_built(void **state) {
    (void)state;
    if (skip_reason)
        skip();
    char command[2048], *out;
    snprintf(command, sizeof command,
             "sed -i 's/^#define TSLAB_VERSION \"\\(.*\\)\"$/#define TSLAB_VERSION \"\\1-wt\"/' "
             "%s/cli/version.h && grep -q -- '-wt\"' %s/cli/version.h && git -C %s branch at-head "
             "&& sed -i 's/\\(\\.offset = FIELD(futility), \\.default_text = \\)\"0\",/\\1\"70\",/' "
             "%s/lib/search/config.c && grep -q "
             "'FIELD(futility), .default_text = \"70\"' %s/lib/search/config.c",
             repo, repo, repo, repo, repo);
    assert_int_equal(system(command), 0);

    int status = engine_at("REV=HEAD", &out);
    if (status != 2 || !strstr(out, "uncommitted change(s) that a build of HEAD") ||
        !strstr(out, "REV=WORKTREE builds the tree as it is"))
        fail_msg("REV=HEAD on a dirty tree: exit %d:\n%s", status, out);
    free(out);

    status = engine_at("REV=at-head CC=false", &out);
    if (status != 2 || !strstr(out, "note: at-head is HEAD") ||
        !strstr(out, "are not in this build (REV=WORKTREE builds them)"))
        fail_msg("REV=at-head on a dirty tree: exit %d:\n%s", status, out);
    free(out);

    status = engine_at("REV=WORKTREE OUT=wt", &out);
    if (status != 0 || !strstr(out, "building the working tree"))
        fail_msg("REV=WORKTREE: exit %d:\n%s", status, out);
    free(out);
    snprintf(command, sizeof command, "%s/wt/bin/tslab-engine -version", repo);
    assert_int_equal(test_run(command, &out), 0);
    if (!strstr(out, "-wt (git ") || !strstr(out, "-dirty)"))
        fail_msg("the WORKTREE engine reports '%s'", out);
    free(out);

    /* The code change against this build, as the toggle in process. */
    char program_json[256], toggle_json[256];
    snprintf(program_json, sizeof program_json, "%s/program.json", dir);
    snprintf(toggle_json, sizeof toggle_json, "%s/toggle.json", dir);
    snprintf(command, sizeof command,
             TSLAB_BUILD_DIR "/bench compare -base -cand-engine %s/wt -depth 5 -repeat 1 -json %s "
                             ">/dev/null && " TSLAB_BUILD_DIR "/bench compare -base -cand "
                             "futility=70 -depth 5 -repeat 1 -json %s >/dev/null",
             repo, program_json, toggle_json);
    assert_int_equal(system(command), 0);
    char *program = positions_of(program_json), *toggle = positions_of(toggle_json);
    assert_string_equal(program, toggle);
    free(program);
    free(toggle);
    cJSON *json = test_load_json(program_json); /* and the change changed the work */
    assert_true(cJSON_GetObjectItem(json, "total_node_ratio")->valuedouble < 0.99);
    cJSON_Delete(json);

    /* make install from that tree says so, with the version the tools report. */
    snprintf(command, sizeof command, "sh %s/tools/install.sh %s/prefix " TSLAB_BUILD_DIR, repo,
             dir);
    assert_int_equal(test_run(command, &out), 0);
    if (!strstr(out, "note: installed from a working tree with ") ||
        !strstr(out, "uncommitted change(s): the tools report 'tslab "))
        fail_msg("install from a dirty tree:\n%s", out);
    free(out);

    snprintf(command, sizeof command, "git -C %s checkout -q -- cli/version.h lib/search/config.c",
             repo);
    assert_int_equal(system(command), 0);
}

/* OpenBench's client builds an engine with `make -j EXE=PATH` and runs PATH: the engine lands
 * there and benches from that directory alone (its suite is built in). */
static void make_exe__the_engine_at_the_path(void **state) {
    (void)state;
    if (skip_reason)
        skip();
    char command[1024], *out;
    snprintf(command, sizeof command,
             "cd %s && OPT=-O0 timeout 600 make -s -j2 EXE=%s/y/eng >/dev/null 2>&1 && cd %s/y && "
             "env -u TSLAB_DATA ./eng bench 16 1 3 default depth 2>&1",
             repo, dir, dir);
    int status = test_run(command, &out);
    if (status != 0 || !strstr(out, "bench/positions.txt (built in)") ||
        !strstr(out, "Nodes searched  : "))
        fail_msg("make EXE=, then ./eng bench: exit %d:\n%s", status, out);
    free(out);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_names__refused_never_run),
        cmocka_unit_test(hostile_branch__built_as_named),
        cmocka_unit_test(dirty_tree__head_refused_worktree_built),
        cmocka_unit_test(make_exe__the_engine_at_the_path),
    };
    return tslab_run_tests_setup("engine_at", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
