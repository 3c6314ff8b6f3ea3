// SPDX-License-Identifier: MIT
// Hostile and careless input, one regression test per case found by attacking the tools: values
// read back from results and signature files are checked like the command line, nothing crashes
// or hangs, no output destroys an input or another run, a failed save says once what is safe,
// and signals other than Ctrl-C stop a run resumably.
#include "test_util.h"

#include "json_text.h"

#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BENCH TSLAB_BUILD_DIR "/bench"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
/* A short match: interrupted runs of it are the raw material of the results-file cases. Its
 * bounds are wide so that the finished run decides in about 440 pairs (1 s); at elo1=10 it took
 * 2,991 pairs and 37 s. */
#define MATCH ABTEST " -engine name=cand -engine name=base killers=off hint=off" \
                     " -each " TEST_MATCH_PRESET " nodes=300" \
                     " -openings file=" BOOK " -sprt elo0=0 elo1=40 -ratinginterval 2 -quiet"

static char dir[96];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "hardening");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static void write_text(const char *path, const char *text, size_t length) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(text, 1, length, f);
    fclose(f);
}

static void save_json(const char *path, const cJSON *json) {
    char *text = json_text(json);
    write_text(path, text, strlen(text));
    free(text);
}

/* Runs command; fails unless it exits with status and prints expected (when not NULL). */
static void expect(const char *command, int status, const char *expected) {
    char *out;
    int got = test_run(command, &out);
    if (got != status || (expected && !strstr(out, expected)))
        fail_msg("%s\nexit %d (expected %d), output:\n%.2000s\nexpected: %s", command, got, status,
                 out, expected ? expected : "(any)");
    free(out);
}

static bool same_bytes(const char *a, const char *b) {
    char *x = test_read_file(a), *y = test_read_file(b);
    bool same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

/* An interrupted SPRT run after 4 pairs (with records), made once: dir/base.{json,pgn}. */
static void base_run(void) {
    char path[512], command[1024];
    snprintf(path, sizeof path, "%s/base.json", dir);
    if (access(path, F_OK) == 0)
        return;
    snprintf(command, sizeof command,
             MATCH " -out %s/base.json -pgnout file=%s/base.pgn -debug-stopafter 4", dir, dir);
    expect(command, 130, NULL);
}

/* Sets the value at a dotted path ("settings.engines.0.name") of a JSON document. */
static void set_at(cJSON *json, const char *path, const char *value_text) {
    char copy[512];
    snprintf(copy, sizeof copy, "%s", path);
    cJSON *node = json;
    char *saved, *key = strtok_r(copy, ".", &saved), *next;
    for (; (next = strtok_r(NULL, ".", &saved)); key = next)
        node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, atoi(key))
                                   : cJSON_GetObjectItem(node, key);
    cJSON *value = cJSON_Parse(value_text);
    if (!node || !value)
        fail_msg("cannot set %s to %s", path, value_text);
    if (cJSON_IsArray(node))
        cJSON_ReplaceItemInArray(node, atoi(key), value);
    else if (cJSON_GetObjectItem(node, key))
        cJSON_ReplaceItemInObject(node, key, value);
    else
        cJSON_AddItemToObject(node, key, value); /* a key the file did not have */
}

typedef struct {
    const char *path, *value, *message;
} Doctored;

/* Each row edits one value of a valid results file; -resume must refuse it (exit 2) saying
 * what is wrong: no crash, no cast of an absurd number, no silent acceptance. */
static const Doctored DOCTORED[] = {
    {"settings.ratinginterval", "0", "\"ratinginterval\" is 0: a whole number in 1..1000000"},
    {"settings.start", "-5", "\"start\" is -5: a whole number in 1..1073741824"},
    {"settings.concurrency", "-3", "\"concurrency\" is -3"},
    {"settings.concurrency", "1e9", "\"concurrency\" is 1e+09"},
    {"settings.maxmoves", "0", "\"maxmoves\" is 0"},
    {"settings.rounds", "0", "\"rounds\" is 0"},
    {"settings.randomplies", "-1", "\"randomplies\" is -1"},
    {"settings.seed", "\"-1\"", "-srand: -1 is out of range"},
    {"settings.order", "\"bogus\"", "-openings order: 'bogus' is not allowed"},
    {"settings.book", "\"-x\"", "'-x' looks like an option"},
    {"settings.sprt.alpha", "0.97", "alpha + beta (1.02) must be less than 1"},
    {"settings.sprt.model", "\"bogus\"", "sprt \"model\" must be normalized, logistic or bayeselo"},
    {"settings.sprt.elo1", "400", "normalized bounds must lie strictly within +-231.6 nElo"},
    {"settings.sprt.elo1", "1e-9", "elo1 - elo0 is 1e-09: bounds closer than 0.01 cannot be "
                                   "resolved"},
    {"settings.engines.1.name", "\"cand\"", "the two engines need different names"},
    {"settings.engines.0.name", "\"\"", "name empty"},
    {"settings.engines.0.name", "\"a\\\"b\"", "use letters, digits and . _ + - only"},
    {"settings.engines.0.config", "\"nodes=5\"",
     "gives them this version's default (engine cand: cache=table tt_bits=20 "},
    {"settings.engines.0.config", "@no-limit", "engine cand has no limit"},
    {"settings.engines.0.config", "\"kilers=on nodes=5\"", "did you mean 'killers'"},
    /* The check of an engine's kind holds for files too: a program with in-process options. */
    {"settings.engines.1.program",
     "{\"cmd\": \"/bin/true\", \"args\": \"\", \"dir\": \"\", \"options\": \"\", "
     "\"bench\": 0, \"timemargin\": 100, \"startup\": 10000, \"stall\": 60000}",
     "-engine base runs a program (cmd=): 'killers=off' is an in-process search option"},
    {"pairs", "1e62", "\"pairs\" is 1e+62: a count must be a whole number >= 0"},
    {"pairs", "5", "resume.next_pair (4) is not \"pairs\" (5)"},
    {"pentanomial_detail.LL", "3", "the pentanomial counts"},
    {"pentanomial_detail.WW", "2.5", "\"WW\" is 2.5: a count must be a whole number"},
    {"wdl.wins", "999", "\"wdl\" disagrees with the pentanomial"},
    {"resume.next_pair", "2", "resume.next_pair (2) is not \"pairs\" (4)"},
    {"plies", "99999999", "the engines' moves do not add up to \"plies\""},
    {"end_reasons.max moves", "7", "\"end_reasons\" count"},
    {"trajectory.0.pairs", "99", "\"trajectory\" point 1 is out of order"},
    {"decision", "\"H1\"", "\"decision_pair\" is missing or not a number"},
    {"decision_pair", "3", "says the SPRT decided, \"decision\" says it did not"},
    {"state", "\"bogus\"", "\"state\" must be running, sprt, rounds or interrupted"},
    {"format", "3", "results format 3 is not one this abtest reads (2)"},
    {"tool", "\"other\"", "not an abtest results file"},
};

static void results_file__every_value_checked_like_the_command_line(void **state) {
    (void)state;
    base_run();
    char base[512], doctored[512], command[1024];
    snprintf(base, sizeof base, "%s/base.json", dir);
    snprintf(doctored, sizeof doctored, "%s/doctored.json", dir);
    for (size_t i = 0; i < sizeof DOCTORED / sizeof DOCTORED[0]; i++) {
        cJSON *json = test_load_json(base);
        const char *value = DOCTORED[i].value;
        char computed[1200];
        if (!strcmp(value, "@no-limit")) { /* every option set, and no limit among them */
            SearchConfig config = config_default();
            char text[1024];
            config_to_text(&config, text, sizeof text);
            snprintf(computed, sizeof computed, "\"%s\"", text);
            value = computed;
        }
        set_at(json, DOCTORED[i].path, value);
        save_json(doctored, json);
        cJSON_Delete(json);
        snprintf(command, sizeof command, ABTEST " -resume %s -quiet", doctored);
        expect(command, 2, DOCTORED[i].message);
    }
    /* Not a results file at all. */
    snprintf(command, sizeof command, ABTEST " -resume %s", dir);
    expect(command, 2, "is a directory");
    snprintf(command, sizeof command, "mkfifo %s/fifo.json", dir);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, ABTEST " -resume %s/fifo.json", dir);
    expect(command, 2, "is not a regular file");
    write_text(doctored, "{\"tool\": \"tslab abtest\", \"format\": 2, ", 38);
    snprintf(command, sizeof command, ABTEST " -resume %s", doctored);
    expect(command, 2, "not valid JSON");
}

static void results_file__records_length_never_extends_the_records(void **state) {
    (void)state;
    base_run();
    char base[512], copy[512], pgn[512], command[1024];
    snprintf(base, sizeof base, "%s/base.json", dir);
    snprintf(copy, sizeof copy, "%s/long_records.json", dir);
    snprintf(pgn, sizeof pgn, "%s/base.pgn", dir);
    struct stat before, after;
    assert_int_equal(stat(pgn, &before), 0);
    cJSON *json = test_load_json(base);
    set_at(json, "resume.pgn_bytes", "1000000000000");
    save_json(copy, json);
    cJSON_Delete(json);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", copy);
    expect(command, 2, "but the results file covers 1000000000000: not this run's records");
    assert_int_equal(stat(pgn, &after), 0);
    assert_int_equal(after.st_size, before.st_size);
}

/* A decided run: resuming it plays nothing and changes nothing. */
static void resume__finished_run_plays_nothing(void **state) {
    (void)state;
    char command[4096], json[512], pgn[512], json_copy[600], pgn_copy[600];
    snprintf(json, sizeof json, "%s/done.json", dir);
    snprintf(pgn, sizeof pgn, "%s/done.pgn", dir);
    snprintf(command, sizeof command, MATCH " -out %s -pgnout file=%s", json, pgn);
    expect(command, 0, NULL);
    snprintf(command, sizeof command, "cp %s %s.before && cp %s %s.before", json, json, pgn, pgn);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, ABTEST " -resume %s", json);
    expect(command, 0, "the run has already ended (SPRT decided after");
    snprintf(json_copy, sizeof json_copy, "%s.before", json);
    snprintf(pgn_copy, sizeof pgn_copy, "%s.before", pgn);
    assert_true(same_bytes(json, json_copy));
    assert_true(same_bytes(pgn, pgn_copy));
}

/* A copy resumes into itself; -out sends the continuation elsewhere; the original is kept. */
static void resume__copy_writes_itself_and_out_is_honoured(void **state) {
    (void)state;
    base_run();
    char command[4096], base[512], kept[512], path[512];
    snprintf(base, sizeof base, "%s/base.json", dir);
    snprintf(kept, sizeof kept, "%s/base.kept", dir);
    snprintf(command, sizeof command, "cp %s %s && cp %s %s/copy.json", base, kept, base, dir);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command,
             ABTEST " -resume %s/copy.json -quiet -debug-stopafter 2 -pgnout file=%s/copy.pgn",
             dir, dir);
    /* The copy has records in base.pgn: relocating them needs a copy of them too. */
    expect(command, 2, "copy.pgn: missing, but the results file covers");
    snprintf(command, sizeof command,
             "cp %s/base.pgn %s/copy.pgn && " ABTEST " -resume %s/copy.json -quiet "
             "-debug-stopafter 2 -pgnout file=%s/copy.pgn",
             dir, dir, dir, dir);
    expect(command, 130, NULL);
    assert_true(same_bytes(base, kept));
    snprintf(path, sizeof path, "%s/copy.json", dir);
    cJSON *json = test_load_json(path);
    assert_int_equal(cJSON_GetObjectItem(json, "pairs")->valueint, 6);
    cJSON_Delete(json);
    snprintf(command, sizeof command,
             ABTEST " -resume %s/copy.json -out %s/elsewhere.json -pgnout file=%s/copy.pgn "
             "-quiet -debug-stopafter 2",
             dir, dir, dir);
    expect(command, 130, NULL);
    snprintf(path, sizeof path, "%s/elsewhere.json", dir);
    json = test_load_json(path);
    assert_int_equal(cJSON_GetObjectItem(json, "pairs")->valueint, 8);
    cJSON_Delete(json);
    snprintf(path, sizeof path, "%s/copy.json", dir);
    json = test_load_json(path);
    assert_int_equal(cJSON_GetObjectItem(json, "pairs")->valueint, 6);
    cJSON_Delete(json);
}

/* Starts command in the background; returns its pid once path exists (or fails after 20 s). */
static pid_t start_until(const char *command, const char *path) {
    pid_t child = test_start_until(command, path, 20);
    if (access(path, F_OK) != 0)
        fail_msg("%s never appeared", path);
    return child;
}

static int wait_status(pid_t child) {
    int status;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The continuation of an interrupted long match must equal the same match run at once. */
#define LONG_MATCH ABTEST " -engine name=cand -engine name=base killers=off -each nodes=300" \
                          " -openings file=" BOOK " -rounds 40 -ratinginterval 5 -quiet"

static void reference_long(void) {
    char path[512], command[1024];
    snprintf(path, sizeof path, "%s/long_ref.json", dir);
    if (access(path, F_OK) == 0)
        return;
    snprintf(command, sizeof command, LONG_MATCH " -out %s -pgnout file=%s/long_ref.pgn", path,
             dir);
    expect(command, 0, NULL);
}

static void assert_same_counts(const char *a, const char *b) {
    static const char *const KEYS[] = {"pairs", "pentanomial_detail", "wdl", "end_reasons",
                                       "first_as_tigers", "trajectory", "plies"};
    test_assert_same_keys(a, b, KEYS, sizeof KEYS / sizeof KEYS[0]);
}

/* An option given with -resume is applied where that is sound (-rounds above the run's: it
 * goes on, and ends as a fresh run of that many rounds), is the run's own value (no change), or
 * is refused naming it and both values; never ignored. */
static void resume__options_applied_or_refused(void **state) {
    (void)state;
    char command[2048], extended[512], fresh[512];
    snprintf(extended, sizeof extended, "%s/extended.json", dir);
    snprintf(fresh, sizeof fresh, "%s/fresh.json", dir);
#define ROUNDS_MATCH                                                                               \
    ABTEST " -engine name=a -engine name=b killers=off -each nodes=200 -quiet"                     \
           " -openings file=" BOOK
    snprintf(command, sizeof command, ROUNDS_MATCH " -rounds 3 -out %s", extended);
    expect(command, 0, "Finished match");
    static const struct {
        const char *options, *message;
    } refused[] = {
        {"-srand 5", "-srand 5: the run was played with -srand 20261129, and a resumed run keeps "
                     "the settings its file records"},
        {"-each nodes=1000", "-each with -resume: a resumed run keeps the engines, test and kind"},
        {"-openings order=sequential", "-openings order=sequential: the run was played with "
                                       "-openings order=random"},
        {"-maxmoves 100", "-maxmoves 100: the run was played with -maxmoves 300"},
        {"-tb", "sliding.tstb: the run was played with -tb file=, and a resumed run keeps"},
        {"-sprt elo0=0 elo1=5", "-sprt with -resume"},
        {"-rounds 2", "-rounds 2: the run was started for 3; a resume plays more pairs, never "
                      "fewer"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(command, sizeof command, ABTEST " -resume %s %s", extended, refused[i].options);
        expect(command, 2, refused[i].message);
    }
    /* The run's own values are no change. */
    snprintf(command, sizeof command, ABTEST " -resume %s -srand 20261129 -openings file=" BOOK,
             extended);
    expect(command, 0, "the run has already ended (rounds played after 3 pairs)");
    snprintf(command, sizeof command, ABTEST " -resume %s -rounds 6 -quiet", extended);
    expect(command, 0, "note: -rounds 6 (the run was started for 3); resumed to play its pairs");
    snprintf(command, sizeof command, ROUNDS_MATCH " -rounds 6 -out %s", fresh);
    expect(command, 0, "Finished match");
    /* The counts; the trajectory keeps the first session's end as a point of its history. */
    static const char *const COUNTS[] = {
        "pairs", "pentanomial_detail", "wdl", "end_reasons", "first_as_tigers", "plies", "engines"};
    test_assert_same_keys(extended, fresh, COUNTS, sizeof COUNTS / sizeof COUNTS[0]);
    cJSON *json = test_load_json(extended);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "rounds")->valueint,
                     6);
    char *changes = cJSON_PrintUnformatted(cJSON_GetObjectItem(json, "accepted_changes"));
    assert_non_null(strstr(changes, "pair 4: -rounds 6 (the run was started for 3)"));
    free(changes);
    cJSON_Delete(json);
#undef ROUNDS_MATCH
}

static void locks__a_second_abtest_on_the_same_file_is_refused(void **state) {
    (void)state;
    char command[4096], lock[600], results[512];
    snprintf(results, sizeof results, "%s/locked.json", dir);
    snprintf(lock, sizeof lock, "%s.lock", results);
    snprintf(command, sizeof command,
             "exec " ABTEST " -engine name=a -engine name=b killers=off -each nodes=300 "
             "-openings file=" BOOK " -rounds 100000 -quiet -out %s >/dev/null 2>&1",
             results);
    pid_t child = start_until(command, results); /* a checkpoint: running for sure */
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", results);
    expect(command, 2, "is in use by another abtest (process");
    kill(child, SIGINT);
    assert_int_equal(wait_status(child), 130);
    assert_int_not_equal(access(lock, F_OK), 0); /* released */
}

/* One file reached under two names (a symbolic link, a linked directory) is one lock: a second
 * tune started on the link while the first runs is refused before it moves anything aside, and
 * the first's file stays where it is. */
static void locks__one_file_under_two_names_is_one_lock(void **state) {
    (void)state;
    char command[4096], results[512], moved[512];
    snprintf(results, sizeof results, "%s/tuned.json", dir);
    snprintf(moved, sizeof moved, "%s/tuned.1.json", dir);
    snprintf(command, sizeof command, "ln -s tuned.json %s/tuned-link.json && ln -s %s %s/same",
             dir, dir, dir);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command,
             "exec " ABTEST " tune -param 'futility, int, 150, 0, 300, 20, 0.02' -iterations "
             "100000 -each nodes=300 -out %s >/dev/null 2>&1",
             results);
    pid_t child = start_until(command, results); /* its file written: its lock taken */
    const char *others[] = {"tuned-link.json", "same/tuned.json"};
    char *out = NULL;
    int got = 0, i = 0;
    /* The first run is stopped before any check fails: a failing test leaves no process. */
    for (; i < 2; i++) {
        snprintf(command, sizeof command,
                 ABTEST " tune -param 'futility, int, 150, 0, 300, 20, 0.02' -iterations 10 "
                        "-each nodes=300 -out %s/%s",
                 dir, others[i]);
        free(out);
        got = test_run(command, &out);
        if (got != 2 || !strstr(out, "is in use by another abtest tune (process") ||
            access(moved, F_OK) == 0)
            break;
    }
    kill(child, SIGTERM);
    wait_status(child);
    if (i < 2)
        fail_msg("%s\nexit %d (expected 2, the file locked), %s moved aside: %s, output:\n%.2000s",
                 command, got, results, access(moved, F_OK) == 0 ? "yes" : "no", out);
    free(out);
    assert_int_equal(access(results, F_OK), 0);
}

/* Entries in directory path (. and .. not counted; -1 when it cannot be read). */
static int entries_in(const char *path) {
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(d));)
        count += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return count;
}

/* Ctrl-C while bench compare runs engine programs: the programs stop and each positions file
 * they were reading (one a process, in TMPDIR) is removed; bench exits 130. */
static void signals__bench_against_programs_leaves_no_file(void **state) {
    (void)state;
    char tmp[512], command[2048];
    snprintf(tmp, sizeof tmp, "%s/bench-tmp", dir);
    assert_int_equal(mkdir(tmp, 0755), 0);
    snprintf(command, sizeof command,
             "TMPDIR=%s exec " BENCH " compare -base-engine " TSLAB_BUILD_DIR "/engine "
             "-cand-engine " TSLAB_BUILD_DIR "/engine -depth 12 -threads 2 >/dev/null 2>&1",
             tmp);
    pid_t child = test_start_until(command, "/nonexistent/never", 0);
    for (int i = 0; i < 4000 && entries_in(tmp) < 1; i++)
        nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
    if (entries_in(tmp) < 1) {
        kill(child, SIGKILL);
        wait_status(child);
        fail_msg("bench compare wrote no positions file in %s within 20 s", tmp);
    }
    kill(child, SIGINT);
    assert_int_equal(wait_status(child), 130);
    assert_int_equal(entries_in(tmp), 0);
}

static void signals__hangup_and_broken_pipe_save_and_resume(void **state) {
    (void)state;
    reference_long();
    char command[4096], path[512], reference[512];
    snprintf(reference, sizeof reference, "%s/long_ref.json", dir);
    /* SIGHUP: a closed terminal. */
    snprintf(path, sizeof path, "%s/hup.json", dir);
    snprintf(command, sizeof command,
             "exec " LONG_MATCH " -out %s -pgnout file=%s/hup.pgn >/dev/null 2>&1", path, dir);
    pid_t child = start_until(command, path);
    kill(child, SIGHUP);
    int status = wait_status(child);
    assert_true(status == 129 || status == 0); /* 0: it had already finished */
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", path);
    expect(command, 0, NULL);
    assert_same_counts(reference, path);
    /* SIGPIPE: the reader of the output went away (abtest ... | head -1). */
    snprintf(path, sizeof path, "%s/pipe.json", dir);
    snprintf(command, sizeof command,
             "( " ABTEST " -engine name=cand -engine name=base killers=off -each nodes=300"
             " -openings file=" BOOK " -rounds 40 -ratinginterval 5 -out %s"
             " -pgnout file=%s/pipe.pgn; echo $? > %s/pipe.status ) | head -c 100 >/dev/null",
             path, dir, dir);
    assert_int_equal(system(command), 0);
    char status_path[512];
    snprintf(status_path, sizeof status_path, "%s/pipe.status", dir);
    char *text = test_read_file(status_path);
    assert_non_null(text);
    assert_int_equal(atoi(text), 141);
    free(text);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", path);
    expect(command, 0, NULL);
    assert_same_counts(reference, path);
}

/* A file-size limit stands in for a full disk: the records cannot grow. The run says once what
 * is safe and stops; resumed without the limit, it ends as an uninterrupted run. */
static void disk_full__said_once_and_resumable(void **state) {
    (void)state;
    reference_long();
    char command[4096], path[512], reference[512], *out;
    snprintf(reference, sizeof reference, "%s/long_ref.json", dir);
    snprintf(path, sizeof path, "%s/full.json", dir);
    snprintf(command, sizeof command,
             "ulimit -f 24 && " LONG_MATCH " -out %s -pgnout file=%s/full.pgn", path, dir);
    assert_int_equal(test_run(command, &out), 2);
    const char *first = strstr(out, "cannot save");
    if (!first || strstr(first + 1, "cannot save") || !strstr(out, "resumes from there"))
        fail_msg("expected one 'cannot save' and the resume advice:\n%s", out);
    free(out);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", path);
    expect(command, 0, NULL);
    assert_same_counts(reference, path);
}

static void outputs__never_destroy_an_input_or_a_special_file(void **state) {
    (void)state;
    char command[4096], book_copy[512];
    snprintf(book_copy, sizeof book_copy, "%s/book_copy.txt", dir);
    snprintf(command, sizeof command, "cp " BOOK " %s && mkfifo %s/out.fifo", book_copy, dir);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=100 -rounds 2 -openings file=%s "
             "-out %s",
             book_copy, book_copy);
    expect(command, 2, "is also -openings file: writing it would destroy the input");
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=100 -rounds 2 -openings file=%s "
             "-out %s/same.json -pgnout file=%s/same.json",
             book_copy, dir, dir);
    expect(command, 2, "-out and -pgnout are the same file");
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=100 -rounds 2 -openings file=%s "
             "-out %s/out.fifo",
             book_copy, dir);
    expect(command, 2, "is not a regular file (a FIFO)");
    snprintf(command, sizeof command, BENCH " -depth 1 -positions %s -json %s", book_copy,
             book_copy);
    expect(command, 2, "is also -positions: writing it would destroy the input");
    /* The engine program under test is an input too, for abtest and bench alike. */
    snprintf(command, sizeof command,
             "cp " TSLAB_BUILD_DIR "/engine %s/eng && cp %s/eng %s/eng.before", dir, dir, dir);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a cmd=%s/eng -engine name=b -each nodes=100 -rounds 1 "
                    "-openings file=%s -pgnout file=%s/eng",
             dir, book_copy, dir);
    expect(command, 2, "eng is also -engine cmd: writing it would destroy the input");
    snprintf(command, sizeof command,
             BENCH " compare -base-engine %s/eng -cand-engine %s/eng -depth 1 -json %s/eng", dir,
             dir, dir);
    expect(command, 2, "eng is also -base-engine: writing it would destroy the input");
    snprintf(command, sizeof command, "cmp %s/eng %s/eng.before", dir, dir);
    assert_int_equal(system(command), 0);
    char *text = test_read_file(book_copy), *original = test_read_file(BOOK);
    assert_string_equal(text, original);
    free(text);
    free(original);
    /* Through a link, the file it points to is written and the link stays. */
    base_run();
    snprintf(command, sizeof command,
             "cp %s/base.json %s/target.json && cp %s/base.pgn %s/target.pgn && "
             "ln -s %s/target.json %s/link.json",
             dir, dir, dir, dir, dir, dir);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command,
             ABTEST " -resume %s/link.json -pgnout file=%s/target.pgn -quiet -debug-stopafter 2",
             dir, dir);
    expect(command, 130, NULL);
    char link[512];
    struct stat st;
    snprintf(link, sizeof link, "%s/link.json", dir);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    cJSON *json = test_load_json(link);
    assert_int_equal(cJSON_GetObjectItem(json, "pairs")->valueint, 6);
    cJSON_Delete(json);
}

/* Nothing from the command line reaches gnuplot unquoted: a path with a quote and a backquote
 * is a file name, not a command. */
static void plot__path_cannot_run_commands(void **state) {
    (void)state;
    char command[2048], pwned[512];
    snprintf(pwned, sizeof pwned, "%s/pwned", dir);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b killers=off -each nodes=200 -openings file="
             BOOK " -rounds 6 -ratinginterval 2 -quiet "
             "-plot \"file=%s/x'\\`touch %s\\`'.png\"",
             dir, pwned);
    expect(command, 0, "plot: ");
    assert_int_not_equal(access(pwned, F_OK), 0);
}

static void bench_check__signature_file_checked(void **state) {
    (void)state;
    char pin[512], bad[512], command[1024];
    snprintf(pin, sizeof pin, "%s/pin.json", dir);
    snprintf(bad, sizeof bad, "%s/bad_pin.json", dir);
    snprintf(command, sizeof command, BENCH " pin -depth 2 -out %s", pin);
    expect(command, 0, NULL);
    static const Doctored ROWS[] = {
        {"depth", "100", "\"depth\" is 100: a whole number in 1..64"},
        {"depth", "-3", "\"depth\" is -3"},
        {"format", "2", "signature format 2 is not one this bench reads (1)"},
        {"config", "\"\"", "\"config\" is empty"},
        {"config", "\"movetime=100\"", "a pinned bench must be reproducible"},
        {"nodes", "1e62", "\"nodes\" is 1e+62"},
        {"nodes", "5", "\"nodes\" is 5 but the positions add up to"},
        {"signature", "\"0123456789abcdef\"", "does not match the pinned ids, moves and scores"},
        {"positions.3.id", "\"start\"", "duplicate id 'start'"},
        {"positions.3.move", "\"zz9\"", "move: "},
        {"positions.3.nodes", "2.5", "\"nodes\" is 2.5"},
        {"positions.3.score", "99999", "\"score\" is 99999"},
    };
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
        cJSON *json = test_load_json(pin);
        set_at(json, ROWS[i].path, ROWS[i].value);
        save_json(bad, json);
        cJSON_Delete(json);
        snprintf(command, sizeof command, BENCH " check %s", bad);
        expect(command, 2, ROWS[i].message);
    }
    /* A removed position changes the signature: missing positions are not "ok". */
    cJSON *json = test_load_json(pin);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(json, "positions"), 0);
    save_json(bad, json);
    cJSON_Delete(json);
    snprintf(command, sizeof command, BENCH " check %s", bad);
    expect(command, 2, "\"nodes\" is");
    write_text(bad, "", 0);
    expect(command, 2, "not valid JSON");
    write_text(bad, "{\"format\": 1, \"depth\": 2, \"con", 30);
    expect(command, 2, "not valid JSON");
}

static void inputs__endless_nul_and_whitespace_refused(void **state) {
    (void)state;
    char path[512], command[1024];
    expect(BENCH " -positions /dev/zero", 2, "/dev/zero:1: col 1: a NUL byte");
    snprintf(path, sizeof path, "%s/nul.txt", dir);
    write_text(path, "T3T/5/5/5/T3T s 20 0 ; a\nT3T/5/5/5/T3T s 2\0 0 ; b\n", 50);
    snprintf(command, sizeof command, BENCH " -positions %s", path);
    expect(command, 2, "nul.txt:2: col 18: a NUL byte");
    expect(BENCH " -depth ' 3'", 2, "is not an integer");
    expect(BENCH " \"depth=$(printf '\\t3')\"", 2, "is not an integer");
    expect(BENCH " \"depth=$(printf '\\n3')\"", 2, "is not an integer");
    expect(ABTEST " -engine name=a -engine name=b -each nodes=10 -rounds 2 -openings file=" BOOK
                  " start=401", 2, "-openings start=401: the book");
}

static void pgn__book_ids_with_quotes_are_escaped(void **state) {
    (void)state;
    char book[512], pgn[512], command[4096];
    snprintf(book, sizeof book, "%s/quoted.txt", dir);
    snprintf(pgn, sizeof pgn, "%s/quoted.pgn", dir);
    const char *text = "T3T/5/5/5/T3T s 20 0 ; id\"with\\quote\n";
    write_text(book, text, strlen(text));
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=100 -rounds 1 -quiet "
             "-openings file=%s -pgnout file=%s",
             book, pgn);
    expect(command, 0, NULL);
    char *records = test_read_file(pgn);
    assert_non_null(strstr(records, "[Opening \"id\\\"with\\\\quote\"]"));
    free(records);
}

static void messages__bounded_and_printable(void **state) {
    (void)state;
    char *out;
    /* A 100 KB argument is quoted in 60 characters. */
    assert_int_equal(test_run(BENCH " -depth \"$(head -c 100000 /dev/zero | tr '\\0' 9)\"", &out),
                     2);
    if (strlen(out) > 200 || !strstr(out, "999..."))
        fail_msg("%zu characters: %.300s", strlen(out), out);
    free(out);
    assert_int_equal(test_run(BENCH " -positions \"$(printf 'x\\377\\033[31m')\"", &out), 2);
    assert_non_null(strstr(out, "x\\xff\\x1b[31m"));
    free(out);
    expect(ABTEST " sprt -penta 1,,2,3,4,5 -sprt elo0=0 elo1=5", 2, "count 2 is empty");
    expect(ABTEST " sprt -penta ,1,2,3,4,5, -sprt elo0=0 elo1=5", 2, "count 1 is empty");
    expect(ABTEST " sprt -penta 1,2,3,4,5 -plan 0.5 -sprt elo0=0 elo1=5", 2,
           "-plan designs a test before it runs");
    expect(ABTEST " sprt -penta 1,2,3,4,5 -sprt elo0=300 elo1=400", 2,
           "normalized bounds must lie strictly within +-231.6 nElo");
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(results_file__every_value_checked_like_the_command_line),
        cmocka_unit_test(results_file__records_length_never_extends_the_records),
        cmocka_unit_test(resume__finished_run_plays_nothing),
        cmocka_unit_test(resume__copy_writes_itself_and_out_is_honoured),
        cmocka_unit_test(resume__options_applied_or_refused),
        cmocka_unit_test(locks__a_second_abtest_on_the_same_file_is_refused),
        cmocka_unit_test(locks__one_file_under_two_names_is_one_lock),
        cmocka_unit_test(signals__bench_against_programs_leaves_no_file),
        cmocka_unit_test(signals__hangup_and_broken_pipe_save_and_resume),
        cmocka_unit_test(disk_full__said_once_and_resumable),
        cmocka_unit_test(outputs__never_destroy_an_input_or_a_special_file),
        cmocka_unit_test(plot__path_cannot_run_commands),
        cmocka_unit_test(bench_check__signature_file_checked),
        cmocka_unit_test(inputs__endless_nul_and_whitespace_refused),
        cmocka_unit_test(pgn__book_ids_with_quotes_are_escaped),
        cmocka_unit_test(messages__bounded_and_printable),
    };
    return tslab_run_tests_setup("hardening", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
