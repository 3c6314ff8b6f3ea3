// SPDX-License-Identifier: MIT
// Golden files: what each kind of experiment writes and prints, compared to the byte with the
// files in tests/golden/. The match, tune and booktest files were taken from main before the
// pair pool replaced the loops that played pairs (issue 41); the round robin, the gauntlet
// decided under -family holm, the ladder, the gauntlet ladder and every terminal output were
// taken from main before the experiment kinds became one table (issue 56). Each experiment runs
// on 1 thread (its terminal output compared too), 2 threads, 3 MPI ranks, and killed by
// SIGKILL at its first checkpoint and resumed. What may differ between runs of the same
// experiment is taken out first, and only that: the build and host, clocks, the shape the run
// had (threads, ranks, the command line that gave them), and the checkout's own path. A change
// that moves any other byte (a game, a count, a digit of a double, a terminal line) fails here.
// After a change meant to move them (one that re-pins the bench),
// `TSLAB_GOLDEN_UPDATE=1 build/tests/test_golden` rewrites them, and the same with
// build/clang/tests/test_golden rewrites the clang copies (tests/golden/clang/).
#include "test_util.h"

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define GOLDEN TSLAB_SOURCE_DIR "/tests/golden/"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

#define MATCH                                                                                      \
    " -engine name=cand -engine name=base killers=off hint=off -each " TEST_MATCH_PRESET           \
    " nodes=1000 -openings file=" BOOK " -rounds 40 -srand 7 -ratinginterval 10"                   \
    " -out m.json -pgnout file=m.pgn"
#define ROUNDROBIN                                                                                 \
    " -tournament roundrobin -engine name=a -engine name=b killers=off -engine name=c hint=off"    \
    " -each " TEST_MATCH_PRESET " nodes=500 -openings file=" BOOK " -rounds 8 -srand 11"           \
    " -ratinginterval 1 -out r.json -pgnout file=r.pgn"
#define GAUNTLET                                                                                   \
    " -tournament gauntlet -engine name=base -engine name=same -engine name=weak nodes=150"        \
    " -engine name=strong nodes=1500 -each " TEST_MATCH_PRESET " nodes=500 -sprt elo0=0"           \
    " elo1=60 -family holm -rounds 60 -openings file=" BOOK " -srand 13 -ratinginterval 5"         \
    " -out g.json -pgnout file=g.pgn"
#define LADDER                                                                                     \
    " -engine name=new nullmove=on -engine name=base -each " TEST_MATCH_PRESET                     \
    " -ladder nodes=300,nodes=1200 continue=on -sprt elo0=0 elo1=10 -rounds 30 -srand 17"          \
    " -ratinginterval 5 -openings file=" BOOK " -out l.json -pgnout file=l.pgn"
#define GAUNTLET_LADDER                                                                            \
    " -tournament gauntlet -seeds 1 -engine name=base -engine name=jx jump_extension=on"           \
    " -engine name=nm nullmove=on -engine name=noj jumps_first=off -each " TEST_MATCH_PRESET       \
    " -sprt elo0=0 elo1=40 -rounds 24 -ladder nodes=300,nodes=1200 -srand 19 -ratinginterval 4"    \
    " -openings file=" BOOK " -out gl.json -pgnout file=gl.pgn"
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

/* Removes the member a path names wherever it is: a tournament's pairings are records of their
 * own, each with its build and clocks. */
static void drop_everywhere(cJSON *json, const char *path) {
    drop(json, path);
    cJSON *child;
    cJSON_ArrayForEach(child, json) {
        if (cJSON_IsObject(child) || cJSON_IsArray(child))
            drop_everywhere(child, path);
    }
}

/* What runs of one experiment may differ in, per file kind (NULL-terminated). */
static const char *const RESULTS_VOLATILE[] = {
    "commit", "build", "host", "started", "updated", "ended", "seconds", "ranks", "command",
    "settings.concurrency",
    /* pairs in flight when an SPRT ends, thrown away: as many as the workers had begun */
    "discarded_pairs", NULL};
static const char *const RECORD_VOLATILE[] = {"build", "arguments", "arguments_hash", NULL};
/* Sets every member named key (of json, at any depth) that holds from to to; returns how many
 * it set. */
static int set_everywhere(cJSON *json, const char *key, double from, double to) {
    int count = 0;
    cJSON *child;
    cJSON_ArrayForEach(child, json) {
        if (child->string && !strcmp(child->string, key) && cJSON_IsNumber(child) &&
            child->valuedouble == from) {
            cJSON_SetNumberValue(child, to);
            count++;
        } else if (cJSON_IsObject(child) || cJSON_IsArray(child)) {
            count += set_everywhere(child, key, from, to);
        }
    }
    return count;
}

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
static char *normal_json(const char *path, const char *const *volatile_keys, bool resumed) {
    cJSON *json = test_load_json(path);
    for (; *volatile_keys; volatile_keys++)
        drop_everywhere(json, *volatile_keys);
    /* A run killed once and resumed had two sessions where the others had one (tune and booktest
     * records do not count their sessions). */
    if (resumed && cJSON_GetObjectItem(json, "sessions") &&
        set_everywhere(json, "sessions", 2, 1) == 0)
        fail_msg("%s: resumed, but no \"sessions\" of 2", path);
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

/* Terminal output without what the clock decides (the Progress and Elapsed lines, and how many
 * pairs were in flight at an SPRT's end: on 1 thread it differed between two runs of one clang
 * build, and between the release and ASan builds), the build as BUILD and the checkout as SRC. */
static char *normal_terminal(const char *text) {
    char *out = malloc(strlen(text) + 1), *write = out;
    for (const char *line = text, *next; *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        if (strncmp(line, "Progress: ", 10) != 0 && strncmp(line, "Elapsed: ", 9) != 0 &&
            strncmp(line, "Discarded ", 10) != 0) {
            memcpy(write, line, (size_t)(next - line));
            write += next - line;
        }
    }
    *write = '\0';
    char *built = replace_all(out, TSLAB_BUILD_DIR, "BUILD");
    char *normal = replace_all(built, TSLAB_SOURCE_DIR, "SRC");
    free(out);
    free(built);
    return normal;
}

/* Runs command in where (a directory of dir of its own, so that every shape writes the same
 * names); returns what it printed (malloc'd). */
static char *run_in(const char *where, const char *command) {
    char line[8192];
    snprintf(line, sizeof line, "mkdir -p %s/%s && cd %s/%s && %s", dir, where, dir, where,
             command);
    char *out;
    int status = test_run(line, &out);
    if (status != 0)
        fail_msg("%s: exit %d:\n%s", line, status, out);
    return out;
}

static void check_file(const char *shape, const char *file, const char *golden,
                       const char *const *volatile_keys, bool resumed) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", dir, shape, file);
    char *text = volatile_keys ? normal_json(path, volatile_keys, resumed) : normal_pgn(path);
    assert_golden(text, golden, shape);
    free(text);
}

/* An experiment: its arguments, the option that keeps it quiet (tune and booktest take none),
 * how it resumes, the files it writes, their golden names and what to take out of each (NULL: game
 * records). Its terminal output on 1 thread is golden as NAME.out. */
typedef struct {
    const char *name;
    const char *arguments, *quiet, *resume;
    const char *files[2], *golden[2];
    const char *const *volatile_keys[2];
} Experiment;

static const Experiment EXPERIMENTS[] = {
    {"match",
     MATCH,
     " -quiet",
     " -resume m.json -quiet",
     {"m.json", "m.pgn"},
     {"match.json", "match.pgn"},
     {RESULTS_VOLATILE, NULL}},
    {"tune",
     TUNE,
     "",
     " tune -resume t.json",
     {"t.json", NULL},
     {"tune.json", NULL},
     {RECORD_VOLATILE, NULL}},
    {"booktest",
     BOOKTEST,
     "",
     " booktest -resume b.json",
     {"b.json", NULL},
     {"booktest.json", NULL},
     {RECORD_VOLATILE, NULL}},
    {"roundrobin",
     ROUNDROBIN,
     " -quiet",
     " -resume r.json -quiet",
     {"r.json", "r.pgn"},
     {"roundrobin.json", "roundrobin.pgn"},
     {RESULTS_VOLATILE, NULL}},
    {"gauntlet",
     GAUNTLET,
     " -quiet",
     " -resume g.json -quiet",
     {"g.json", "g.pgn"},
     {"gauntlet.json", "gauntlet.pgn"},
     {RESULTS_VOLATILE, NULL}},
    {"ladder",
     LADDER,
     " -quiet",
     " -resume l.json -quiet",
     {"l.json", "l.pgn"},
     {"ladder.json", "ladder.pgn"},
     {RESULTS_VOLATILE, NULL}},
    {"gauntlet_ladder",
     GAUNTLET_LADDER,
     " -quiet",
     " -resume gl.json -quiet",
     {"gl.json", "gl.pgn"},
     {"gauntlet_ladder.json", "gauntlet_ladder.pgn"},
     {RESULTS_VOLATILE, NULL}},
};

/* The shapes each experiment runs on; the golden files come from the first. A killed shape is
 * stopped by SIGKILL once its file is first written (every experiment here writes it first
 * at most a quarter into its pairs, cells or iterations, except booktest at half: its first
 * cell) and resumed by its resume arguments. */
typedef struct {
    const char *name;
    const char *prefix, *options;
    bool mpi, killed;
} Shape;

static const Shape SHAPES[] = {
    {"1 thread", ABTEST, "-concurrency 1", false, false},
    {"2 threads", ABTEST, "-concurrency 2", false, false},
    {"3 ranks", TEST_MPIRUN " -np 3 " TEST_ABTEST_MPI, "-concurrency 1", true, false},
    {"killed and resumed", ABTEST, "-concurrency 1", false, true},
};

static void run_shape(const Experiment *e, const Shape *shape, const char *where) {
    char command[8192];
    if (!shape->killed) {
        snprintf(command, sizeof command, "%s%s %s%s", shape->prefix, e->arguments, shape->options,
                 shape == &SHAPES[0] ? "" : e->quiet);
        char *out = run_in(where, command);
        if (shape == &SHAPES[0]) {
            char *terminal = normal_terminal(out), name[64];
            snprintf(name, sizeof name, "%s.out", e->name);
            assert_golden(terminal, name, shape->name);
            free(terminal);
        }
        free(out);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", dir, where, e->files[0]);
    snprintf(command, sizeof command, "mkdir -p %s/%s && cd %s/%s && exec %s%s %s >/dev/null 2>&1",
             dir, where, dir, where, shape->prefix, e->arguments, shape->options);
    test_kill_9_after_checkpoint(command, path, 60);
    snprintf(command, sizeof command, "%s%s", shape->prefix, e->resume);
    free(run_in(where, command));
}

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
        run_shape(e, shape, where);
        for (int f = 0; f < 2 && e->files[f]; f++)
            check_file(where, e->files[f], e->golden[f], e->volatile_keys[f], shape->killed);
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

static void roundrobin__every_shape(void **state) {
    (void)state;
    check_experiment(&EXPERIMENTS[3]);
}

/* weak is decided H0 and strong H1 under the family's control; same stays open to the end. */
static void gauntlet__every_shape(void **state) {
    (void)state;
    check_experiment(&EXPERIMENTS[4]);
}

static void ladder__every_shape(void **state) {
    (void)state;
    check_experiment(&EXPERIMENTS[5]);
}

static void gauntlet_ladder__every_shape(void **state) {
    (void)state;
    check_experiment(&EXPERIMENTS[6]);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(match__every_shape),           cmocka_unit_test(tune__every_shape),
        cmocka_unit_test(booktest__every_shape),        cmocka_unit_test(roundrobin__every_shape),
        cmocka_unit_test(gauntlet__every_shape),        cmocka_unit_test(ladder__every_shape),
        cmocka_unit_test(gauntlet_ladder__every_shape),
    };
    return tslab_run_tests_setup("golden", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
