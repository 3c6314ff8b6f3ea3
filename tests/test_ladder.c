// SPDX-License-Identifier: MIT
// abtest -ladder (lab/match/ladder.c): each step plays the match (or gauntlet) of its limit alone;
// a ladder is the same after SIGKILL and resume and on MPI ranks; a gauntlet's candidates climb
// apart; its slope's interval covers the true slope of simulated steps in 95% of runs; bad
// ladders are refused before any game.
#include "json_text.h"
#include "ladder.h"
#include "scaling.h"
#include "test_util.h"

#include <math.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK " -openings file=" TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
#define ENGINES " -engine name=new nullmove=on -engine name=base"

static char dir[256];

static void run_in_dir(const char *arguments, const char *out_name) {
    char command[4096], *out;
    snprintf(command, sizeof command,
             "cd %s && timeout 300 " ABTEST " %s" BOOK " -quiet -out %s.json -pgnout %s.pgn", dir,
             arguments, out_name, out_name);
    if (test_run(command, &out) != 0)
        fail_msg("%s: %s", command, out);
    free(out);
}

/* Pairing p of a tournament's file (-1: the file itself, a match's). */
static const cJSON *pairing_of(const cJSON *file, int p) {
    return p < 0 ? file
                 : cJSON_GetArrayItem(
                       cJSON_GetObjectItem(cJSON_GetObjectItem(file, "tournament"), "pairings"), p);
}

/* Pairing `step` of a ladder file holds what pairing `other` of another file (-1: a match's file)
 * holds under each key. */
static void assert_pairing_same(const char *ladder, int step, const char *match, int other) {
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/%s.json", dir, ladder);
    snprintf(b, sizeof b, "%s/%s.json", dir, match);
    cJSON *x = test_load_json(a), *y = test_load_json(b);
    const cJSON *pairing = pairing_of(x, step), *alone = pairing_of(y, other);
    const char *const keys[] = {"pairs", "pentanomial_detail", "wdl",
                                "llr",   "decision",           "decision_pair",
                                "elo",   "elo_ci95",           "end_reasons"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char *u = json_text(cJSON_GetObjectItem(pairing, keys[i]));
        char *v = json_text(cJSON_GetObjectItem(alone, keys[i]));
        if (strcmp(u, v))
            fail_msg("pairing %d: %s differs from %s's:\n%s\n%s", step + 1, keys[i], match, u,
                     v);
        free(u);
        free(v);
    }
    cJSON_Delete(x);
    cJSON_Delete(y);
}

/* A ladder of two node limits on a known difference (null move at 300 and 1200 nodes), each
 * step an SPRT: each step's pairs, pentanomials, LLR and decision are those of its match
 * alone. */
static void ladder__each_step_is_its_match_alone(void **state) {
    (void)state;
    const char *sprt = " -sprt elo0=0 elo1=40 -rounds 40 -concurrency 2";
    char arguments[1024];
    snprintf(arguments, sizeof arguments, ENGINES " -ladder nodes=300,nodes=1200 continue=on%s",
             sprt);
    run_in_dir(arguments, "ladder");
    snprintf(arguments, sizeof arguments, ENGINES " -each nodes=300%s", sprt);
    run_in_dir(arguments, "alone300");
    snprintf(arguments, sizeof arguments, ENGINES " -each nodes=1200%s", sprt);
    run_in_dir(arguments, "alone1200");
    assert_pairing_same("ladder", 0, "alone300", -1);
    assert_pairing_same("ladder", 1, "alone1200", -1);
    char path[512];
    snprintf(path, sizeof path, "%s/ladder.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *ladder = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"), "ladder");
    const cJSON *slope = cJSON_GetObjectItem(ladder, "slope");
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(slope, "elo_per_doubling")));
    assert_non_null(
        strstr(cJSON_GetStringValue(cJSON_GetObjectItem(ladder, "verdict")), "at nodes=1200"));
    cJSON_Delete(json);
}

/* What two runs of one ladder share: the ladder's summary, every step's counts and test, the
 * game records. */
static void assert_same_ladder(const char *a, const char *b) {
    char x[512], y[512];
    snprintf(x, sizeof x, "%s/%s.json", dir, a);
    snprintf(y, sizeof y, "%s/%s.json", dir, b);
    cJSON *u = test_load_json(x), *v = test_load_json(y);
    const cJSON *tu = cJSON_GetObjectItem(u, "tournament"),
                *tv = cJSON_GetObjectItem(v, "tournament");
    char *p = json_text(cJSON_GetObjectItem(tu, "ladder"));
    char *q = json_text(cJSON_GetObjectItem(tv, "ladder"));
    if (strcmp(p, q))
        fail_msg("the ladders %s and %s differ:\n%.600s\n%.600s", a, b, p, q);
    free(p);
    free(q);
    const cJSON *pu = cJSON_GetObjectItem(tu, "pairings"),
                *pv = cJSON_GetObjectItem(tv, "pairings");
    assert_int_equal(cJSON_GetArraySize(pu), cJSON_GetArraySize(pv));
    const char *const keys[] = {"pairs",       "pentanomial_detail", "wdl",      "llr",
                                "decision",    "decision_pair",      "elo",      "elo_ci95",
                                "end_reasons", "trajectory",         "overshoot"};
    for (int k = 0; k < cJSON_GetArraySize(pu); k++)
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            const cJSON *mu = cJSON_GetObjectItem(cJSON_GetArrayItem(pu, k), keys[i]);
            const cJSON *nv = cJSON_GetObjectItem(cJSON_GetArrayItem(pv, k), keys[i]);
            char *m = mu ? json_text(mu) : strdup("(none)");
            char *n = nv ? json_text(nv) : strdup("(none)");
            if (strcmp(m, n))
                fail_msg("step %d: %s differs between %s and %s:\n%.300s\n%.300s", k + 1, keys[i],
                         a, b, m, n);
            free(m);
            free(n);
        }
    cJSON_Delete(u);
    cJSON_Delete(v);
    snprintf(x, sizeof x, "%s/%s.pgn", dir, a);
    snprintf(y, sizeof y, "%s/%s.pgn", dir, b);
    test_assert_same_file(x, y);
}

/* The ladder of `arguments` killed by SIGKILL after its first checkpoint (one game at a time)
 * and resumed as `name`: the same as `reference`; the resume's output holds `said`. */
static void assert_same_after_kill_9(const char *arguments, const char *name,
                                     const char *reference, const char *said) {
    char command[4096], path[512], *out;
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    snprintf(command, sizeof command,
             "cd %s && exec " ABTEST " %s" BOOK " -concurrency 1 -out %s.json -pgnout %s.pgn "
             ">/dev/null 2>&1",
             dir, arguments, name, name);
    test_kill_9_after_checkpoint(command, path, 30);
    snprintf(command, sizeof command, "cd %s && " ABTEST " -resume %s.json -quiet", dir, name);
    if (test_run(command, &out) != 0)
        fail_msg("resume: %s", out);
    assert_non_null(strstr(out, said));
    free(out);
    assert_same_ladder(reference, name);
}

/* The ladder of `arguments` on 3 MPI ranks as `name`: the same as `reference`. Skipped (said)
 * without MPI, and under ASan: every rank instrumented, and CI's time near its limit; the plain
 * and clang runs of make test play it. */
static void assert_same_on_ranks(const char *arguments, const char *name,
                                 const char *reference) {
    const char *missing = test_mpi_missing();
    if (TEST_ADDRESS_SANITIZER)
        missing = "under ASan (the plain and clang runs of make test play it)";
    if (missing) {
        printf("skipped: the ladder %s on 3 MPI ranks: %s\n", reference, missing);
        return;
    }
    char command[4096], *out;
    snprintf(command, sizeof command,
             "cd %s && " TEST_MPIRUN " -np 3 " TEST_ABTEST_MPI " %s" BOOK " -concurrency 1 -quiet "
             "-out %s.json -pgnout %s.pgn",
             dir, arguments, name, name);
    if (test_run(command, &out) != 0)
        fail_msg("3 ranks: %s", out);
    free(out);
    assert_same_ladder(reference, name);
}

/* One results file for the whole ladder: killed by SIGKILL in its first step and resumed, and
 * played on 3 MPI ranks, it is the uninterrupted ladder. */
static void ladder__same_after_kill_9_and_on_ranks(void **state) {
    (void)state;
    const char *arguments = ENGINES " -ladder nodes=300,nodes=600:gain-stc,nodes=1200 "
                                    "continue=on -rounds 24 -ratinginterval 4";
    char command[4096], path[512], *out;
    snprintf(command, sizeof command, "%s -concurrency 2", arguments);
    run_in_dir(command, "whole");
    assert_same_after_kill_9(arguments, "killed", "whole", "Finished ladder");

    /* The report reads the ladder: its line with the slope and verdict, its JSON, its chart of
     * Elo against the limit on the page (a point a step). */
    snprintf(command, sizeof command,
             "cd %s && " ABTEST " report whole.json && " ABTEST " report whole.json -json "
             "report.json -html report.html && " ABTEST " report -markdown whole.json",
             dir);
    if (test_run(command, &out) != 0)
        fail_msg("report: %s", out);
    assert_non_null(strstr(out, "ladder of new vs base, 3 steps"));
    assert_non_null(strstr(out, "Elo a doubling of the limit"));
    assert_non_null(strstr(out, "| ladder | nodes=300 | nodes=600 | nodes=1200 | Elo a doubling"));
    assert_non_null(strstr(out, "| `new` vs `base` | "));
    free(out);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *page = test_read_file(path);
    assert_non_null(page);
    assert_non_null(strstr(page, "data-chart=\"ladder\" data-points=\"3\""));
    assert_non_null(strstr(page, "nodes=1200 (log scale)"));
    free(page);
    snprintf(path, sizeof path, "%s/report.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *entry = cJSON_GetArrayItem(json, 0); /* the report: a list of its files */
    const cJSON *ladder = cJSON_GetObjectItem(entry, "ladder");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ladder, "steps")), 3);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(ladder, "elo_per_doubling")));
    cJSON_Delete(json);

    assert_same_on_ranks(arguments, "ranks", "whole");
}

/* A gauntlet climbing a ladder: three candidates against one seed at 300 and 1200 nodes, each
 * step's SPRTs a family. Jump extension accepts H0 at the first step and climbs no further; null
 * move and jumps_first=off climb. Each step is its gauntlet alone (the first of all three, the
 * second of the two that climbed): the same pairs, pentanomials, LLRs and decisions. The same
 * after SIGKILL and resume, and on 3 MPI ranks; the report gives a line a candidate. */
#define GAUNTLET                                                                                   \
    " -engine name=base -engine name=jx jump_extension=on -engine name=nm nullmove=on -engine "    \
    "name=noj jumps_first=off -tournament gauntlet -seeds 1 -sprt elo0=0 elo1=40 -rounds 80"
static void gauntlet__candidates_climb_apart(void **state) {
    (void)state;
    char command[4096], path[512], *out;
    run_in_dir(GAUNTLET " -ladder nodes=300,nodes=1200 -concurrency 2 -ratinginterval 4",
               "gauntlet");
    run_in_dir(GAUNTLET " -each nodes=300 -concurrency 2", "gauntlet300");
    run_in_dir(" -engine name=base -engine name=nm nullmove=on -engine name=noj jumps_first=off "
               "-tournament gauntlet -seeds 1 -sprt elo0=0 elo1=40 -rounds 80 -each nodes=1200 "
               "-concurrency 2",
               "gauntlet1200");
    for (int c = 0; c < 3; c++) /* pairings step by step: jx.1, nm.1, noj.1, jx.2, nm.2, noj.2 */
        assert_pairing_same("gauntlet", c, "gauntlet300", c);
    assert_pairing_same("gauntlet", 4, "gauntlet1200", 0);
    assert_pairing_same("gauntlet", 5, "gauntlet1200", 1);
    snprintf(path, sizeof path, "%s/gauntlet.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *jx = pairing_of(json, 0), *jx2 = pairing_of(json, 3);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(jx, "decision")), "H0");
    assert_true(cJSON_GetObjectItem(jx, "pairs")->valuedouble < 80);
    assert_int_equal(cJSON_GetObjectItem(jx2, "pairs")->valueint, 0);
    const cJSON *candidates = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"), "ladder"), "candidates");
    assert_int_equal(cJSON_GetArraySize(candidates), 3);
    assert_string_equal(
        cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(candidates, 0), "verdict")),
        "loses at nodes=300");
    cJSON_Delete(json);

    const char *arguments = GAUNTLET " -ladder nodes=300,nodes=1200 -ratinginterval 4";
    assert_same_after_kill_9(arguments, "gkilled", "gauntlet", "Ladder: nm: ");

    snprintf(command, sizeof command,
             "cd %s && " ABTEST " report gauntlet.json -html gauntlet.html && " ABTEST
             " report -markdown gauntlet.json",
             dir);
    if (test_run(command, &out) != 0)
        fail_msg("report: %s", out);
    assert_non_null(strstr(out, "ladder of a gauntlet against base, 3 candidates, 2 steps, "
                                "candidates decided by SPRTs under -family holm at each step (jx: "
                                "loses at nodes=300; nm, "));
    assert_non_null(strstr(out, "| `jx` vs `base` | "));
    assert_non_null(strstr(out, " | not played | - | loses at nodes=300 |"));
    assert_non_null(strstr(out, "| `noj` vs `base` | "));
    free(out);
    snprintf(path, sizeof path, "%s/gauntlet.html", dir);
    char *page = test_read_file(path);
    assert_non_null(page);
    assert_non_null(strstr(page, "data-chart=\"ladder\" data-points=\"1\""));
    assert_non_null(strstr(page, "nm vs base: Elo (95% interval)"));
    free(page);

    assert_same_on_ranks(arguments, "granks", "gauntlet");
}

/* Which step plays, from the counts: a candidate stopped by an H0 climbs no further unless the
 * ladder goes on; the next step opens once every candidate still climbing is done; counts that
 * no schedule makes are refused. */
static void gauntlet__open_step_from_counts(void **state) {
    (void)state;
    LadderSpec ladder;
    char list[] = "nodes=1000,nodes=4000", *words[1] = {list};
    Error err;
    assert_true(ladder_parse(words, 1, &ladder, &err));
    ladder.gauntlet = true;
    ladder.candidates = 2;
    MatchTotals totals[4];
    for (int p = 0; p < 4; p++)
        totals_init(&totals[p]);
    totals[0].pairs = 30;
    totals[0].decision = SPRT_H0; /* candidate 1 stops at step 1 */
    totals[1].pairs = 30;
    assert_int_equal(ladder_open_step(&ladder, totals, 100), 0);
    totals[1].decision = SPRT_H1;
    assert_int_equal(ladder_open_step(&ladder, totals, 100), 1);
    assert_false(ladder_climbs(&ladder, totals, 1, 0));
    assert_true(ladder_climbs(&ladder, totals, 1, 1));
    assert_false(ladder_pairing_open(&ladder, totals, 100, 2));
    assert_true(ladder_pairing_open(&ladder, totals, 100, 3));
    assert_true(ladder_counts_agree(&ladder, totals, 100, false, &err));
    totals[2].pairs = 5; /* candidate 1 at step 2 after its H0 */
    assert_false(ladder_counts_agree(&ladder, totals, 100, false, &err));
    assert_non_null(strstr(err.text, "candidate 1 has pairs after a step before accepted H0"));
    ladder.go_on = true; /* continue=on: it climbs on */
    assert_true(ladder_counts_agree(&ladder, totals, 100, false, &err));
    totals[2].pairs = 0;
    totals[3].decision = SPRT_H0;
    ladder.go_on = false;
    assert_int_equal(ladder_open_step(&ladder, totals, 100), -1);
    for (int p = 0; p < 4; p++)
        totals_destroy(&totals[p]);
}

/* Simulated ladders (abtest simulate -ladder): three steps a doubling apart whose true Elos rise
 * by 12 a doubling, 400 pairs each at draw ratio 0.5; the fitted slope's 95% interval covers 12
 * in 95% of 2,000 runs (within 2 binomial errors, 0.49 points each); and two steps of 150 pairs
 * falling 20 a doubling, as the ablation's ladders are. */
static void slope__interval_covers_the_true_slope(void **state) {
    (void)state;
    const ScalingSetup setups[] = {
        {.steps = 3, .elo = {-6, 6, 18}, .draws = 0.5, .pairs = 400, .runs = 2000,
         .seed = 20261204},
        {.steps = 2, .elo = {10, -10}, .draws = 0.55, .pairs = 150, .runs = 2000, .seed = 7},
    };
    for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
        ScalingResult r;
        const char *why = NULL;
        assert_true(scaling_simulate(&setups[i], &r, &why));
        printf("ladder slope: true %+.1f, the 95%% interval held it in %.4f of %lld runs\n",
               r.true_slope, r.coverage, (long long)r.fitted);
        assert_int_equal(r.fitted, setups[i].runs);
        assert_true(r.coverage > 0.94 && r.coverage < 0.96);
        assert_true(fabs(r.mean_slope - r.true_slope) < 3 * r.rmse / sqrt((double)r.fitted));
    }
}

/* What the steps decided, in one sentence: a passed short step and a failed long one are said
 * as such, a step without a test by where its interval lies, a step not played not at all; the
 * slope of two steps is their Elo difference over their doublings. */
static void summary__gains_short_loses_long(void **state) {
    (void)state;
    LadderSpec ladder;
    char list[] = "nodes=1000,nodes=4000,nodes=16000", *words[1] = {list};
    Error err;
    assert_true(ladder_parse(words, 1, &ladder, &err));
    MatchTotals totals[3];
    const Pentanomial penta[3] = {{.ll = 10, .ld = 40, .dd = 100, .wd = 80, .ww = 30},
                                  {.ll = 40, .ld = 80, .dd = 100, .wd = 30, .ww = 10},
                                  {0}};
    const SprtDecision decision[3] = {SPRT_H1, SPRT_H0, SPRT_CONTINUE};
    for (int k = 0; k < 3; k++) {
        totals_init(&totals[k]);
        totals[k].penta = penta[k];
        totals[k].pairs = (int64_t)(penta[k].ll + penta[k].ld + penta[k].dd + penta[k].wd +
                                    penta[k].ww);
        totals[k].decision = decision[k];
    }
    LadderSummary summary;
    ladder_summary(&ladder, totals, 0, &summary);
    assert_string_equal(summary.verdict, "gains at nodes=1000, loses at nodes=4000");
    assert_true(summary.has_slope);
    assert_float_equal(summary.slope, (summary.elo[1] - summary.elo[0]) / 2, 1e-9);
    assert_true(summary.elo[0] > 0 && summary.elo[1] < 0 && isnan(summary.elo[2]));
    totals[1].decision = SPRT_CONTINUE; /* no test: where the interval lies */
    totals[1].penta = (Pentanomial){.ll = 30, .ld = 60, .dd = 100, .wd = 60, .ww = 30};
    ladder_summary(&ladder, totals, 0, &summary);
    assert_string_equal(summary.verdict, "gains at nodes=1000, no clear difference at nodes=4000");
    for (int k = 0; k < 3; k++)
        totals_destroy(&totals[k]);
}

/* Refused before any game, nothing written. */
static void ladder__bad_input_refused_before_any_game(void **state) {
    (void)state;
    static const struct {
        const char *arguments, *expected;
    } rows[] = {
        {ENGINES " -ladder nodes=1000 -rounds 2", "-ladder: 1 step: a ladder climbs"},
        {ENGINES " -ladder nodes=4000,nodes=1000 -rounds 2",
         "-ladder: nodes=1000 is not larger than nodes=4000"},
        {ENGINES " -ladder nodes=1000,tc=1+0.01 -rounds 2",
         "-ladder: tc=1+0.01 after nodes=1000: a ladder climbs one kind of limit"},
        {ENGINES " -ladder depth=4,depth=8 -rounds 2", "-ladder: 'depth=4' is not a step"},
        {ENGINES " -ladder nodes=1000,nodes=4000:gain -rounds 2",
         "-sprt preset=gain: no such preset"},
        {ENGINES " -ladder nodes=1000,nodes=4000", "-ladder step nodes=1000 has no test"},
        {ENGINES " -ladder nodes=1000,nodes=4000 go_on -rounds 2",
         "-ladder: 'go_on' is not continue=on|off"},
        {ENGINES " -engine name=third -ladder nodes=1000,nodes=4000 -rounds 2",
         "-engine: exactly two engines are needed"},
        {ENGINES " -tournament ladder -each nodes=100 -rounds 2",
         "-tournament: 'ladder' is not roundrobin or gauntlet"},
        {ENGINES " -engine name=third -tournament gauntlet -seeds 2 -ladder nodes=1000,nodes=4000 "
                 "-rounds 2",
         "-ladder with a gauntlet of 2 seeds: each step tests its candidates against one seed"},
        {ENGINES " -engine name=third -tournament roundrobin -ladder nodes=1000,nodes=4000 "
                 "-rounds 2",
         "-ladder climbs with two engines or a gauntlet (-tournament gauntlet -seeds 1), not a "
         "roundrobin"},
        {ENGINES " -ladder nodes=1000,nodes=4000 -family bonferroni -sprt elo0=0 elo1=5",
         "-family: a ladder of two engines has one test a step, not a family"},
        {ENGINES " -engine name=c -engine name=d -engine name=e -tournament gauntlet -ladder "
                 "nodes=100,nodes=200,nodes=400,nodes=800 -rounds 2",
         "-ladder: 4 steps of 5 engines are 20 engines, more than a run's 16"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char arguments[1024];
        snprintf(arguments, sizeof arguments, "%s -out refused.json", rows[i].arguments);
        test_assert_refused_in(dir, arguments, rows[i].expected);
    }
}

/* A killed ladder's steps, slope and verdict are recomputed from its counts on resume: an
 * edit of any is refused, naming the field and both values (40 of 60 pairs played). */
static void resume__forged_steps_and_slope_refused(void **state) {
    (void)state;
    char command[2048], *out;
    snprintf(command, sizeof command,
             "cd %s && " ABTEST ENGINES " -ladder nodes=300,nodes=1200 continue=on -sprt elo0=0 "
             "elo1=10 -rounds 30" BOOK " -quiet -out forged.json -debug-stopafter 40",
             dir);
    assert_int_equal(test_run(command, &out), 130);
    free(out);
    static const TestEdit edits[] = {
        {"tournament.ladder.slope.elo_per_doubling", "1e308",
         "\"tournament.ladder.slope.elo_per_doubling\" is 1e+308, but its counts give -23.19"},
        {"tournament.ladder.steps.0.elo", "50",
         "\"tournament.ladder.steps[0].elo\" is 50, but its counts give 11.57"},
        {"tournament.ladder.steps.1.decision", "\"H1\"",
         "\"tournament.ladder.steps[1].decision\" is \"H1\", but its counts give \"none\""},
        {"tournament.ladder.steps.0.pairs", "31",
         "\"tournament.ladder.steps[0].pairs\" is 31, but its counts give 30"},
        {"tournament.ladder.verdict", "\"better\"",
         "\"tournament.ladder.verdict\" is \"better\", but its counts give \"no clear"},
    };
    test_assert_edits_refused(dir, "forged.json", edits, sizeof edits / sizeof edits[0]);
    /* The file as written resumes to the end. */
    snprintf(command, sizeof command, "cd %s && " ABTEST " -resume forged.json -quiet", dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
}

static int group_setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "ladder");
}

static int group_teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slope__interval_covers_the_true_slope),
        cmocka_unit_test(summary__gains_short_loses_long),
        cmocka_unit_test(ladder__bad_input_refused_before_any_game),
        cmocka_unit_test(ladder__each_step_is_its_match_alone),
        cmocka_unit_test(ladder__same_after_kill_9_and_on_ranks),
        cmocka_unit_test(resume__forged_steps_and_slope_refused),
        cmocka_unit_test(gauntlet__open_step_from_counts),
        cmocka_unit_test(gauntlet__candidates_climb_apart),
    };
    return tslab_run_tests_setup("ladder", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 group_setup, group_teardown);
}
