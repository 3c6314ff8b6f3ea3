// SPDX-License-Identifier: MIT
// Forged and unreadable tablebase files. The small game (2 captures win) is solved once with
// `bench tbgen`, then each case changes one header field or entry and, to pass for a sound file,
// recomputes the checksum with an FNV-1a written here apart from lib/tablebase/tablebase.c. Every forgery
// is refused when the file is opened, by the library and by every tool that opens one (bench
// tbprobe, abtest -tb, egdb=on), naming the file and the field; a FIFO is refused at once; and a
// file truncated while a run uses it changes nothing in the run.
#include "test_util.h"

#include "tablebase.h"

#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>

#define BENCH TSLAB_BUILD_DIR "/bench"
#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define ENGINE TSLAB_BUILD_DIR "/engine"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
#define FULL_TABLEBASE TSLAB_SOURCE_DIR "/tablebase/sliding.tstb" /* make test builds it */
#define SMALL_ENTRIES 733312                                      /* 2 * (33481 + 333175) */

static char dir[96], small[160];
static uint8_t *sound; /* the small file's bytes */
static size_t sound_size;

static int setup(void **state) {
    (void)state;
    if (test_make_dir(dir, sizeof dir, "tb_file") != 0)
        return -1;
    snprintf(small, sizeof small, "%s/small.tstb", dir);
    char command[512];
    snprintf(command, sizeof command, BENCH " tbgen -captures 2 -threads 2 -out %s >/dev/null",
             small);
    if (system(command) != 0)
        return -1;
    char *bytes = NULL;
    FILE *f = fopen(small, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    sound_size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = malloc(sound_size);
    bool ok = bytes && fread(bytes, 1, sound_size, f) == sound_size;
    fclose(f);
    sound = (uint8_t *)bytes;
    return ok && sound_size == TB_HEADER_BYTES + SMALL_ENTRIES ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    free(sound);
    return test_remove_dir(dir);
}

static void put_le(uint8_t *at, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; i++)
        at[i] = (uint8_t)(value >> 8 * i);
}

/* The file format's checksum (docs/tablebase.md): FNV-1a 64 over little-endian 64-bit words of
 * the header, its checksum field (112) zero, then of the entries, the last word zero-padded. */
static uint64_t fnv_words(uint64_t hash, const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i += 8) {
        uint64_t word = 0;
        for (size_t k = 0; k < 8 && i + k < count; k++)
            word |= (uint64_t)bytes[i + k] << 8 * k;
        hash = (hash ^ word) * UINT64_C(0x100000001b3);
    }
    return hash;
}

static void reseal(uint8_t *file, size_t size) {
    put_le(file + 112, 0, 8);
    uint64_t hash = fnv_words(UINT64_C(0xcbf29ce484222325), file, TB_HEADER_BYTES);
    put_le(file + 112, fnv_words(hash, file + TB_HEADER_BYTES, size - TB_HEADER_BYTES), 8);
}

typedef struct {
    int offset, bytes; /* the field (or entry byte) and its width */
    uint64_t value;
    bool reseal; /* recompute the checksum, as a forger would */
    const char *message;
    const char *why;
} Forgery;

#define ENTRY(i) (TB_HEADER_BYTES + (i))
static const Forgery FORGERIES[] = {
    {104, 8, UINT64_C(1) << 62, true, "longest win 39 plies at entry 4611686018427387904",
     "longest-win index far out of range (a crash in tb_index_board)"},
    {104, 8, SMALL_ENTRIES, true, "at an entry below 733312", "longest-win index at the end"},
    {104, 8, 5, true, "are not those of its entries", "longest-win index at another entry"},
    {96, 4, 0xffff, true, "at most 900", "a longest win the search cannot score"},
    {96, 4, 38, true, "a win takes an odd number of plies", "an even longest win"},
    {88, 8, 5, true, "it lists 5 entries, the game that 2 captures win has 733312",
     "an entry count against the game"},
    {12, 4, 4096, true, "it gives its size as 4096 bytes, format version 2 has 512",
     "a header size of another format"},
    {8, 4, 1, true, "format version 1, this build reads 2", "an older format"},
    {80, 4, 9, true, "captures 9", "a game that is not one"},
    {84, 4, 3, true, "entry bytes 3", "an entry size that is not one"},
    {128, 8, UINT64_MAX - 4, true, "18446744073709551611 wins", "a negative level count"},
    {120, 8, 33480, true, "the game has 33481", "positions of a level against the game"},
    {120 + 32 * 8, 8, 1, true, "the game has 0", "a count at a level the game does not reach"},
    {ENTRY(0), 1, 254, true, "an entry holds a distance of 253 plies",
     "a distance beyond the longest win (egdb read it as a mate in 2766)"},
    {ENTRY(1), 1, 0, true, "are not those of its entries", "one value changed, within range"},
    {128, 8, 0, false, "checksum mismatch", "a header field changed, checksum kept"},
};

/* The sound file with one forgery applied, as dir/forged-N.tstb (the path into path). */
static void write_forged(size_t n, char *path, size_t size) {
    uint8_t *file = malloc(sound_size);
    assert_non_null(file);
    memcpy(file, sound, sound_size);
    const Forgery *f = &FORGERIES[n];
    if (f->offset == 128 && !f->reseal) { /* wins and losses traded: the counts still sum */
        uint64_t wins = 0, losses = 0;
        for (int i = 0; i < 8; i++) {
            wins |= (uint64_t)file[128 + i] << 8 * i;
            losses |= (uint64_t)file[136 + i] << 8 * i;
        }
        put_le(file + 128, wins + 1, 8);
        put_le(file + 136, losses - 1, 8);
    } else {
        put_le(file + f->offset, f->value, f->bytes);
    }
    if (f->reseal)
        reseal(file, sound_size);
    snprintf(path, size, "%s/forged-%zu.tstb", dir, n);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(file, 1, sound_size, out), sound_size);
    fclose(out);
    free(file);
}

/* The test's own FNV reproduces the library's checksum of the sound file, so that what the
 * forgeries change is the field and nothing else. */
static void sound_file__opens_and_its_checksum_is_the_formats(void **state) {
    (void)state;
    uint8_t *copy = malloc(sound_size);
    assert_non_null(copy);
    memcpy(copy, sound, sound_size);
    reseal(copy, sound_size);
    assert_memory_equal(copy, sound, sound_size);
    free(copy);
    Error err;
    Tablebase *tb = tb_new(small, 2, &err);
    if (!tb)
        fail_msg("%s", err.text);
    assert_int_equal(tb_header(tb)->counts.longest_plies, 39);
    tb_free(tb);
}

static void forged_fields__refused_on_opening(void **state) {
    (void)state;
    for (size_t n = 0; n < sizeof FORGERIES / sizeof FORGERIES[0]; n++) {
        char path[256];
        write_forged(n, path, sizeof path);
        Error err = {{0}};
        Tablebase *tb = tb_new(path, 2, &err);
        if (tb || !strstr(err.text, FORGERIES[n].message) || !strstr(err.text, path))
            fail_msg("row %zu (%s): %s", n, FORGERIES[n].why, tb ? "accepted" : err.text);
        remove(path);
    }
}

/* The tools: bench tbprobe, abtest -tb, and egdb=on in abtest and in the engine (through
 * TSLAB_DATA, whose tablebase/sliding.tstb is the forged file). Each refuses with the file and
 * the reason, exit 2, and abtest writes no results file. */
static void forged_fields__every_tool_refuses(void **state) {
    (void)state;
    char path[256], data[256], command[2048], *out;
    write_forged(13, path, sizeof path); /* the distance of 253 plies */
    const char *reason = FORGERIES[13].message;
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(command, sizeof command, "mkdir -p %s/tablebase && cp %s %s/tablebase/sliding.tstb",
             data, path, data);
    assert_int_equal(system(command), 0);
    for (int i = 0; i < 3; i++) {
        if (i == 0)
            snprintf(command, sizeof command, BENCH " tbprobe -info -captures 2 -tb %s", path);
        else if (i == 1)
            snprintf(command, sizeof command,
                     ABTEST " -engine name=a -engine name=b -each nodes=50 -openings file=" BOOK
                            " -rounds 1 -tb file=%s -out %s.json",
                     path, path);
        else
            snprintf(command, sizeof command,
                     "TSLAB_DATA=%s " ABTEST " -engine name=a egdb=on -engine name=b -each "
                     "nodes=50 -openings file=" BOOK " -rounds 1 -out %s.json",
                     data, path);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, reason))
            fail_msg("%s: exit %d, %s", command, status, out);
        free(out);
    }
    snprintf(command, sizeof command, "%s.json", path);
    assert_int_equal(access(command, F_OK), -1);
    /* The engine says so and plays no move from it. */
    snprintf(command, sizeof command,
             "printf 'setoption name egdb value on\\nposition fen SS1SS/SSSST/S1TTS/SSSTS/SSSS1 "
             "t 1 1\\ngo depth 6\\nisready\\n' | TSLAB_DATA=%s timeout 30 " ENGINE,
             data);
    assert_int_equal(test_run(command, &out), 0);
    if (!strstr(out, "info string error: cannot set up the search: egdb=on:") ||
        !strstr(out, reason) || strstr(out, "score mate"))
        fail_msg("%s", out);
    free(out);
    /* A sound file of the small game is refused for egdb too: its values are another game's. */
    snprintf(command, sizeof command, "cp %s %s/tablebase/sliding.tstb", small, data);
    assert_int_equal(system(command), 0);
    /* Every user of the default file: abtest's in-process engines, -tb, bench, the engine. The
     * position is the one where the small game's values once leaked into a search: egdb=off
     * scores +59 there at depth 6, and the 2-captures file said "sheep win in 39". */
    const char *const users[] = {
        ABTEST " -engine name=a egdb=on -engine name=b -each nodes=50 -openings file=" BOOK
               " -rounds 1",
        ABTEST " -engine name=a -engine name=b -each nodes=50 -openings file=" BOOK
               " -rounds 1 -tb",
        BENCH " search -fen '1SSSS/S1SSS/TSSSS/TSTSS/SSSST s 0 1' depth=6 egdb=on",
        BENCH " depth=2 egdb=on -positions " TSLAB_SOURCE_DIR "/bench/positions.txt",
        BENCH " tbprobe -fen '1SSSS/S1SSS/TSSSS/TSTSS/SSSST s 0 1'",
    };
    for (size_t i = 0; i < sizeof users / sizeof users[0]; i++) {
        snprintf(command, sizeof command, "TSLAB_DATA=%s %s", data, users[i]);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, "solves the game that 2 captures win, not this one"))
            fail_msg("%s: exit %d, %s", command, status, out);
        free(out);
    }
    snprintf(command, sizeof command,
             "printf 'setoption name egdb value on\\nposition fen 1SSSS/S1SSS/TSSSS/TSTSS/SSSST "
             "s 0 1\\ngo depth 6\\nisready\\n' | TSLAB_DATA=%s timeout 30 " ENGINE,
             data);
    assert_int_equal(test_run(command, &out), 0);
    if (!strstr(out, "solves the game that 2 captures win, not this one") ||
        strstr(out, "score mate"))
        fail_msg("%s", out);
    free(out);
}

/* A FIFO named as the tablebase is refused at once, not waited on for a writer. */
static void fifo__refused_without_blocking(void **state) {
    (void)state;
    char fifo[256], command[1024], *out;
    snprintf(fifo, sizeof fifo, "%s/fifo.tstb", dir);
    snprintf(command, sizeof command, "mkfifo %s", fifo);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, "timeout 20 " BENCH " tbprobe -info -tb %s", fifo);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "is not a regular file"));
    free(out);
    snprintf(command, sizeof command,
             "timeout 20 " ABTEST " -engine name=a -engine name=b -each nodes=50 -openings "
             "file=" BOOK " -rounds 1 -tb file=%s",
             fifo);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "-tb: "));
    assert_non_null(strstr(out, "is not a regular file"));
    free(out);
}

/* The file is read whole when opened: truncating it under a running abtest -tb (which killed
 * the run with SIGBUS when it was mapped) changes nothing; the run ends as one on an intact
 * file does. */
static void truncated_during_a_run__the_run_goes_on(void **state) {
    (void)state;
    char copy[256], command[2048], results[256];
    snprintf(copy, sizeof copy, "%s/copy.tstb", dir);
    snprintf(results, sizeof results, "%s/tb.json", dir);
    snprintf(command, sizeof command, "cp " FULL_TABLEBASE " %s", copy);
    assert_int_equal(system(command), 0);
    const char *match = ABTEST " -engine name=a -engine name=b killers=off -each nodes=300 "
                               "-openings file=" BOOK " -rounds 200 -concurrency 2 -quiet "
                               "-ratinginterval 2";
    snprintf(command, sizeof command, "exec %s -tb file=%s -out %s >/dev/null 2>&1", match, copy,
             results);
    pid_t child = test_start_until(command, results, 60);
    assert_int_equal(access(results, F_OK), 0);
    int status;
    assert_int_equal(waitpid(child, &status, WNOHANG), 0); /* still playing */
    assert_int_equal(truncate(copy, 1000), 0);
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the run ended with %s %d", WIFSIGNALED(status) ? "signal" : "status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    /* The same games as on the intact file. */
    char intact[256];
    snprintf(intact, sizeof intact, "%s/intact.json", dir);
    snprintf(command, sizeof command, "%s -tb file=" FULL_TABLEBASE " -out %s >/dev/null 2>&1",
             match, intact);
    assert_int_equal(test_run(command, NULL), 0);
    static const char *const keys[] = {"pairs", "pentanomial", "wdl", "end_reasons", "plies",
                                       "engines"};
    test_assert_same_keys(intact, results, keys, sizeof keys / sizeof keys[0]);
    /* Games were adjudicated by it after the truncation too (most end there). */
    cJSON *json = test_load_json(results);
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "end_reasons"), "tablebase")
                    ->valuedouble > 100);
    cJSON_Delete(json);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sound_file__opens_and_its_checksum_is_the_formats),
        cmocka_unit_test(forged_fields__refused_on_opening),
        cmocka_unit_test(forged_fields__every_tool_refuses),
        cmocka_unit_test(fifo__refused_without_blocking),
        cmocka_unit_test(truncated_during_a_run__the_run_goes_on),
    };
    return tslab_run_tests_setup("tb_file", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
