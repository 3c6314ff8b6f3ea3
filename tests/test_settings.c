// SPDX-License-Identifier: MIT
// abtest's settings tables (lab/match/settings.c, lab/stats/sprt_keys.c,
// programs/engine_spec.c): whatever one row adds reaches every place the settings go. A command
// line, its echo, its results-file JSON and a resume all describe the same run.
#include "arguments.h"
#include "cli.h"
#include "settings.h"
#include "settings_json.h"
#include "test_util.h"

#define BOOK TSLAB_SOURCE_DIR "/openings/default.txt"
#define ABTEST TSLAB_BUILD_DIR "/abtest"

/* Splits a command line on spaces ('...' groups words, as the echo quotes args=). */
static int split_words(char *text, char **words, int max) {
    int count = 0;
    char *p = text;
    while (*p && count < max) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        bool quoted = *p == '\'';
        if (quoted)
            p++;
        words[count++] = p;
        while (*p && (quoted ? *p != '\'' : *p != ' '))
            p++;
        if (*p)
            *p++ = '\0';
    }
    return count;
}

static void parse_or_fail(const char *line, MatchSettings *s) {
    char text[4096], *words[256];
    snprintf(text, sizeof text, "%s", line);
    int count = split_words(text, words, 256);
    bool exit_now;
    Error err;
    if (!arguments_parse(count, words, s, &exit_now, &err))
        fail_msg("'%s': %s", line, err.text);
}

/* Every field away from its default, the SPRT with every key given. */
#define REST                                                                                       \
    " -sprt elo0=-1 elo1=4 alpha=0.1 beta=0.02 model=logistic overshoot=off -openings file=" BOOK  \
    " order=sequential start=3 randomplies=2 -srand 42 -rounds 77 -maxmoves 150 -tb "              \
    "file=/tmp/x.tstb -ratinginterval 5 -concurrency 3 -out /tmp/o.json -pgnout file=/tmp/o.pgn "  \
    "-plot file=/tmp/o.png -blunders dir=/tmp/placement"
/* An engine program with every key, and an in-process engine. */
static const char PROGRAM[] = "-engine name=new nodes=700 cmd=/bin/true 'args=-a b' dir=/tmp "
                              "option.Hash=16 bench=123 timemargin=50 startup=900 stall=7000 "
                              "-engine name=old depth=5" REST;
/* Two in-process engines, one with a search option. */
static const char IN_PROCESS[] = "-engine name=new nodes=700 killers=off -engine name=old "
                                 "depth=5" REST;

static void echo__reparses_to_the_same_settings(void **state) {
    (void)state;
    const char *const lines[] = {PROGRAM, IN_PROCESS};
    for (size_t i = 0; i < 2; i++) {
        MatchSettings a, b;
        parse_or_fail(lines[i], &a);
        char echo[4096];
        settings_command_line(&a, echo, sizeof echo);
        parse_or_fail(strchr(echo, ' ') + 1, &b); /* after the program's name */
        Error err;
        if (!settings_same_experiment(&a, &b, &err))
            fail_msg("%s\n%s", echo, err.text);
        /* What the echo leaves out is the machine's: -concurrency. */
        assert_int_equal(b.concurrency, 0);
        b.concurrency = a.concurrency;
        cJSON *x = settings_to_json(&a), *y = settings_to_json(&b);
        char *xt = cJSON_PrintUnformatted(x), *yt = cJSON_PrintUnformatted(y);
        assert_string_equal(xt, yt);
        free(xt);
        free(yt);
        cJSON_Delete(x);
        cJSON_Delete(y);
    }
}

static void json__round_trip_of_every_field(void **state) {
    (void)state;
    const char *const lines[] = {PROGRAM, IN_PROCESS};
    for (size_t i = 0; i < 2; i++) {
        MatchSettings a, b;
        parse_or_fail(lines[i], &a);
        cJSON *json = settings_to_json(&a);
        Error err;
        if (!settings_from_json(json, &b, NULL, &err))
            fail_msg("%s", err.text);
        cJSON *again = settings_to_json(&b);
        char *x = cJSON_PrintUnformatted(json), *y = cJSON_PrintUnformatted(again);
        assert_string_equal(x, y);
        assert_true(settings_same_experiment(&a, &b, &err));
        /* Every recorded field is in the file, and no session one. */
        for (size_t f = 0; f < SETTINGS_FIELD_COUNT; f++) {
            const SettingsField *field = &SETTINGS_FIELDS[f];
            bool present = cJSON_GetObjectItemCaseSensitive(json, field->key) != NULL;
            if (present == !!(field->traits & SETTINGS_SESSION))
                fail_msg("field %s: %s in the results file", field->key,
                         present ? "wrongly" : "not");
        }
        free(x);
        free(y);
        cJSON_Delete(json);
        cJSON_Delete(again);
    }
    /* A field added later is left out at its default: older files and the runs without it
     * write the file they wrote before. */
    MatchSettings plain;
    parse_or_fail("-engine name=new nodes=700 -engine name=old depth=5 -rounds 10", &plain);
    cJSON *json = settings_to_json(&plain);
    for (size_t f = 0; f < SETTINGS_FIELD_COUNT; f++) {
        const SettingsField *field = &SETTINGS_FIELDS[f];
        if (field->traits & SETTINGS_ADDED_LATER &&
            cJSON_GetObjectItemCaseSensitive(json, field->key))
            fail_msg("field %s: at its default, yet in the results file", field->key);
    }
    cJSON_Delete(json);
}

static void resume__merges_by_the_fields_roles(void **state) {
    (void)state;
    MatchSettings file, given;
    parse_or_fail("-engine name=a -engine name=b -each nodes=50 -rounds 20 -openings file=" BOOK
                  " -maxmoves 90 -concurrency 3 -out /tmp/run.json -plot file=/tmp/p.png",
                  &file);
    parse_or_fail("-resume /tmp/copy.json -quiet -concurrency 2", &given);
    Error err;
    assert_true(settings_merge_resume(&given, &file, 5, &err));
    assert_int_equal(given.max_plies, 90); /* decides: the file's */
    assert_int_equal(given.rounds, 20);
    assert_int_equal(given.concurrency, 2);                /* given: the command's */
    assert_string_equal(given.plot_path, "/tmp/p.png");    /* not given: the file's */
    assert_string_equal(given.out_path, "/tmp/copy.json"); /* a copy writes to itself */
    assert_true(given.quiet);                              /* the session's */
    assert_string_equal(given.resume_path, "/tmp/copy.json");
    /* A command line naming the engines must be the same experiment. */
    parse_or_fail("-engine name=a -engine name=b -each nodes=50 -rounds 20 -openings file=" BOOK
                  " -maxmoves 91 -resume /tmp/copy.json",
                  &given);
    assert_false(settings_merge_resume(&given, &file, 5, &err));
    assert_non_null(strstr(err.text, "maxmoves (91 vs 90)"));
    /* A path emptied in place (its old bytes left behind its end) is at its default: not
     * "given", so the file's value stays. */
    parse_or_fail("-resume /tmp/copy.json -plot file=/tmp/mine.png", &given);
    given.plot_path[0] = '\0';
    assert_true(settings_field_is_default(settings_field("plot"), &given));
    assert_true(settings_merge_resume(&given, &file, 5, &err));
    assert_string_equal(given.plot_path, "/tmp/p.png");
    parse_or_fail("-resume /tmp/copy.json -pgnout file=/tmp/late.pgn", &given);
    assert_false(settings_merge_resume(&given, &file, 5, &err));
    assert_non_null(strstr(err.text, "-pgnout: the run kept no game records"));
}

/* Every option of the table is in -help and parsed by the command line. */
static void usage__lists_every_option(void **state) {
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    settings_usage(out);
    fclose(out);
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        char needle[64];
        snprintf(needle, sizeof needle, "%s%s%s", f->option, f->group_key ? " " : "",
                 f->group_key && f == settings_field(f->key) &&
                         (i == 0 || strcmp(SETTINGS_FIELDS[i - 1].option, f->option))
                     ? f->group_key
                     : "");
        if (*f->help && !strstr(text, needle))
            fail_msg("%s is not in the usage:\n%s", needle, text);
    }
    assert_non_null(strstr(text, "0, the default: one per core"));
    free(text);
}

/* The keys of the other two tables are in -help too, and a typo of one is named. */
static void usage__sprt_and_program_keys_from_their_tables(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(ABTEST " -help", &out), 0);
    static const char *const keys[] = {"elo0=X",
                                       "elo1=Y",
                                       "[alpha=0.05]",
                                       "[beta=0.05]",
                                       "[model=normalized|logistic|bayeselo]",
                                       "[overshoot=on|off]",
                                       "cmd=PROGRAM",
                                       "[dir=D]",
                                       "[bench=NODES|off]",
                                       "[timemargin=MS]",
                                       "[startup=MS]",
                                       "[stall=MS]",
                                       "[option.NAME=VALUE ...]"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(out, keys[i]))
            fail_msg("abtest -help lacks %s:\n%s", keys[i], out);
    free(out);
    static const char *const typos[][2] = {
        {" -engine name=a cmd=/bin/true stal=100 -engine name=b -each nodes=5 -rounds 1",
         "-engine a: unknown key 'stal' (did you mean 'stall'?)"},
        {" -engine name=a -engine name=b -each nodes=5 -rounds 1 -sprt elo0=0 elo1=5 alpah=0.1",
         "-sprt: unknown key in 'alpah=0.1' (did you mean alpha=?)"},
    };
    for (size_t i = 0; i < sizeof typos / sizeof typos[0]; i++) {
        char command[512];
        snprintf(command, sizeof command, ABTEST "%s", typos[i][0]);
        assert_int_equal(test_run(command, &out), 2);
        if (!strstr(out, typos[i][1]))
            fail_msg("%s said '%s'", command, out);
        free(out);
    }
}

int main(void) {
    cli_init("abtest");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(echo__reparses_to_the_same_settings),
        cmocka_unit_test(json__round_trip_of_every_field),
        cmocka_unit_test(resume__merges_by_the_fields_roles),
        cmocka_unit_test(usage__lists_every_option),
        cmocka_unit_test(usage__sprt_and_program_keys_from_their_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
