// SPDX-License-Identifier: MIT
// Golden files: what a fixed-seed match (results file and game records), a 12-iteration tune
// and a booktest write, on 1 thread, 2 threads and 3 MPI ranks, compared to the byte with the
// files in tests/golden/, which were taken from main before the pair pool replaced the loops
// that played pairs (issue 41). What may differ between runs of the same experiment is taken
// out first, and only that: the build and host, clocks, the shape the run had (threads, ranks,
// the command line that gave them), and the checkout's own path. A change that moves any other
// byte (a game, a count, a digit of a double) fails here. After a change meant to move them
// (one that re-pins the bench), `TSLAB_GOLDEN_UPDATE=1 build/tests/test_golden` rewrites them,
// and the same with build/clang/tests/test_golden rewrites the clang copies (tests/golden/clang/).
#include "test_util.h"

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define GOLDEN TSLAB_SOURCE_DIR "/tests/golden/"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

#define MATCH                                                                                      \
    " -engine name=cand -engine name=base killers=off hint=off -each " TEST_MATCH_PRESET          \
    " nodes=1000 -openings file=" BOOK " -rounds 40 -srand 7 -ratinginterval 10 -quiet"           \
    " -out m.json -pgnout file=m.pgn"
#define TUNE                                                                                       \
    " tune -param 'futility, int, 100, 0, 300, 30, 0.002' -param 'lmr_moves, int, 3, 1, 8, 1,"    \
    " 0.002' -iterations 12 -pairs 4 -each " TEST_MATCH_PRESET " nodes=500 -openings file=" BOOK  \
    " -srand 3 -out t.json"
#define BOOKTEST                                                                                   \
    " booktest -book " BOOK " -diff killers=off -diff hint=off -pairs 30 -each "                  \
    TEST_MATCH_PRESET " nodes=500 -srand 5 -json b.json"

static char dir[64];
static const char *mpi_missing;

static int setup(void **state) {
    (void)state;
    mpi_missing = test_mpi_missing();
    if (mpi_missing)
        printf("test_golden: the 3-rank shapes are skipped: %s\n", mpi_missing);
    return test_make_dir(dir, sizeof dir, "golden");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

/* Removes the member a path names ("ranks", "settings.concurrency"), where there is one. */
static void drop(cJSON *json, const char *path) {
    char name[64];
    const char *dot = strchr(path, '.');
    if (!dot) {
        cJSON_DeleteItemFromObjectCaseSensitive(json, path);
        return;
    }
    snprintf(name, sizeof name, "%.*s", (int)(dot - path), path);
    cJSON *inner = cJSON_GetObjectItemCaseSensitive(json, name);
    if (inner)
        drop(inner, dot + 1);
}

/* What runs of one experiment may differ in, per file kind (NULL-terminated). */
static const char *const RESULTS_VOLATILE[] = {
    "commit", "build", "host", "started", "updated", "ended", "seconds", "ranks", "command",
    "settings.concurrency", NULL};
static const char *const RECORD_VOLATILE[] = {"build", "arguments", "arguments_hash", NULL};

/* text with every occurrence of from replaced by to (malloc'd). */
static char *replace_all(const char *text, const char *from, const char *to) {
    size_t from_length = strlen(from), to_length = strlen(to), count = 0;
    for (const char *at = strstr(text, from); at; at = strstr(at + from_length, from))
        count++;
    char *out = malloc(strlen(text) + count * to_length + 1), *write = out;
    for (const char *at; (at = strstr(text, from)); text = at + from_length) {
        memcpy(write, text, (size_t)(at - text));
        write += at - text;
        memcpy(write, to, to_length);
        write += to_length;
    }
    strcpy(write, text);
    return out;
}

/* A JSON file without its volatile members, one member per line, the checkout as SRC. */
static char *normal_json(const char *path, const char *const *volatile_keys) {
    cJSON *json = test_load_json(path);
    for (; *volatile_keys; volatile_keys++)
        drop(json, *volatile_keys);
    size_t size = 1 << 16, used = 0;
    char *text = malloc(size);
    text[0] = '\0';
    const cJSON *member;
    cJSON_ArrayForEach(member, json) {
        char *value = json_text(member);
        size_t need = strlen(member->string) + strlen(value) + 8;
        if (used + need >= size)
            text = realloc(text, size = 2 * (used + need));
        used += (size_t)sprintf(text + used, "\"%s\": %s\n", member->string, value);
        free(value);
    }
    cJSON_Delete(json);
    char *out = replace_all(text, TSLAB_SOURCE_DIR, "SRC");
    free(text);
    return out;
}

/* Game records without their [Date] tags. */
static char *normal_pgn(const char *path) {
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read %s", path);
    char *out = malloc(strlen(text) + 1), *write = out;
    for (char *line = text, *next; *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        if (strncmp(line, "[Date ", 6) != 0) {
            memcpy(write, line, (size_t)(next - line));
            write += next - line;
        }
    }
    *write = '\0';
    free(text);
    return out;
}

/* A clang build plays the same games and counts, but the statistics drawn from the counts
 * (Elo and its interval through log, sqrt and the normal quantile) differ from gcc's in their
 * last bits: 18.987044729819253 where gcc gives 18.987044729819182. Such files have a clang
 * copy, taken from the same commit built with clang; every other file is shared. */
#if defined(__clang__)
#define GOLDEN_COMPILER GOLDEN "clang/"
#else
#define GOLDEN_COMPILER GOLDEN
#endif

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* text against this compiler's golden file for name, or written there under
 * TSLAB_GOLDEN_UPDATE=1 (a clang copy only where it differs from the shared one). A difference
 * names the first line that differs. */
static void assert_golden(const char *text, const char *name, const char *shape) {
    char path[512], shared[512];
    snprintf(path, sizeof path, GOLDEN_COMPILER "%s", name);
    snprintf(shared, sizeof shared, GOLDEN "%s", name);
    char *shared_text = test_read_file(shared);
    bool own_copy = access(path, F_OK) == 0 && strcmp(path, shared) != 0;
    if (getenv("TSLAB_GOLDEN_UPDATE")) {
        if (strcmp(path, shared) == 0 || !shared_text || strcmp(shared_text, text) != 0)
            write_text(path, text);
        else if (own_copy)
            unlink(path);
        free(shared_text);
        return;
    }
    free(shared_text);
    if (!own_copy)
        snprintf(path, sizeof path, "%s", shared);
    char *golden = test_read_file(path);
    if (!golden)
        fail_msg("cannot read %s", path);
    if (strcmp(golden, text) != 0) {
        const char *a = golden, *b = text;
        int line = 1;
        while (*a && *a == *b) {
            line += *a == '\n';
            a++;
            b++;
        }
        while (a > golden && a[-1] != '\n')
            a--, b--;
        fail_msg("%s: %s differs from its golden file at line %d:\n  golden: %.200s\n  now:    "
                 "%.200s",
                 shape, name, line, a, b);
    }
    free(golden);
}

/* Runs the experiment in a directory of its own (so that every shape writes the same names). */
static void run_in(const char *shape, const char *prefix, const char *arguments,
                   const char *options) {
    char command[8192];
    snprintf(command, sizeof command, "mkdir -p %s/%s && cd %s/%s && %s%s %s", dir, shape, dir,
             shape, prefix, arguments, options);
    char *out;
    int status = test_run(command, &out);
    if (status != 0)
        fail_msg("%s: exit %d:\n%s", command, status, out);
    free(out);
}

static void check_file(const char *shape, const char *file, const char *golden,
                       const char *const *volatile_keys) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", dir, shape, file);
    char *text = volatile_keys ? normal_json(path, volatile_keys) : normal_pgn(path);
    assert_golden(text, golden, shape);
    free(text);
}

/* An experiment: its command, the files it writes, their golden names and what to take out
 * of each (NULL: game records). */
typedef struct {
    const char *name;
    const char *arguments;
    const char *files[2], *golden[2];
    const char *const *volatile_keys[2];
} Experiment;

static const Experiment EXPERIMENTS[] = {
    {"match", MATCH, {"m.json", "m.pgn"}, {"match.json", "match.pgn"}, {RESULTS_VOLATILE, NULL}},
    {"tune", TUNE, {"t.json", NULL}, {"tune.json", NULL}, {RECORD_VOLATILE, NULL}},
    {"booktest", BOOKTEST, {"b.json", NULL}, {"booktest.json", NULL}, {RECORD_VOLATILE, NULL}},
};

/* The shapes each experiment runs on; the golden files come from the first. */
typedef struct {
    const char *name;
    const char *prefix, *options;
    bool mpi;
} Shape;

static const Shape SHAPES[] = {
    {"1 thread", ABTEST, "-concurrency 1", false},
    {"2 threads", ABTEST, "-concurrency 2", false},
    {"3 ranks", TEST_MPIRUN " -np 3 " TEST_ABTEST_MPI, "-concurrency 1", true},
};

/* Every shape of one experiment (the golden files rewritten from the first under
 * TSLAB_GOLDEN_UPDATE, the others then skipped). */
static void check_experiment(const Experiment *e) {
    for (size_t k = 0; k < sizeof SHAPES / sizeof SHAPES[0]; k++) {
        const Shape *shape = &SHAPES[k];
        if ((k > 0 && getenv("TSLAB_GOLDEN_UPDATE")) || (shape->mpi && mpi_missing)) {
            printf("test_golden: %s on %s skipped (%s)\n", e->name, shape->name,
                   shape->mpi && mpi_missing ? mpi_missing : "the golden files come from 1 thread");
            continue;
        }
        char where[64];
        snprintf(where, sizeof where, "%s_%zu", e->name, k);
        run_in(where, shape->prefix, e->arguments, shape->options);
        for (int f = 0; f < 2 && e->files[f]; f++)
            check_file(where, e->files[f], e->golden[f], e->volatile_keys[f]);
    }
}

static void match__every_shape(void **state) {
    (void)state;
    check_experiment(&EXPERIMENTS[0]);
}

static void tune__every_shape(void **state) {
    (void)state;
    check_experiment(&EXPERIMENTS[1]);
}

/* booktest had no MPI path before the pool: its ranks must give the threads' file. */
static void booktest__every_shape(void **state) {
    (void)state;
    check_experiment(&EXPERIMENTS[2]);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(match__every_shape),
        cmocka_unit_test(tune__every_shape),
        cmocka_unit_test(booktest__every_shape),
    };
    return tslab_run_tests_setup("golden", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
