// SPDX-License-Identifier: MIT
// The subcommands' option table (cli/flags.c): every kind of option, and the messages each
// mistake gets, naming the command and the option.
#include "cli.h"
#include "flags.h"
#include "test_util.h"

typedef struct {
    bool quiet;
    const char *out;
    int depth;
    int64_t seed;
    double ratio;
    CliGroup sprt;
    const char *words[4];
    int word_count;
} Seen;

static bool take_word(void *context, const char *word, Error *err) {
    Seen *seen = context;
    if (seen->word_count == 4)
        return error_set(err, "demo: too many words ('%s')", word);
    seen->words[seen->word_count++] = word;
    return true;
}

/* Parses a command line of space-separated words into seen; returns the message or "". */
static const char *parse(const char *line, Seen *seen, bool with_words) {
    static char text[512], message[sizeof(Error)];
    static char *words[32];
    snprintf(text, sizeof text, "%s", line);
    int count = 0;
    for (char *w = strtok(text, " "); w && count < 32; w = strtok(NULL, " "))
        words[count++] = w;
    *seen = (Seen){.depth = 3, .seed = 1, .ratio = 0.5};
    const CliFlag flags[] = {
        {"-quiet", CLI_FLAG_SWITCH, &seen->quiet, 0, 0, NULL, "say less"},
        {"-out", CLI_FLAG_TEXT, &seen->out, 0, 0, "FILE", "where"},
        {"-depth", CLI_FLAG_INT, &seen->depth, 1, 64, "N", "how deep"},
        {"-seed", CLI_FLAG_INT64, &seen->seed, 0, 0x1p63, "S", "seed"},
        {"-ratio", CLI_FLAG_DOUBLE, &seen->ratio, 0, 0.999, "R", "a ratio"},
        {"-sprt", CLI_FLAG_GROUP, &seen->sprt, 0, 0, "k=v ...", "a group"},
    };
    const CliCommand command = {.name = "demo",
                                .subcommand = "",
                                .synopsis = "usage: demo\n",
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0],
                                .word = with_words ? take_word : NULL,
                                .context = seen};
    bool help;
    Error err;
    message[0] = '\0';
    if (!cli_flags_parse(&command, count, words, &help, &err))
        snprintf(message, sizeof message, "%s", err.text);
    return message;
}

static void flags__every_kind_is_set(void **state) {
    (void)state;
    Seen s;
    assert_string_equal(parse("-quiet -out x.json -depth 7 -seed 9223372036854775807 -ratio "
                              "0.25 -sprt elo0=-5 elo1=5 -depth 8 word",
                              &s, true),
                        "");
    assert_true(s.quiet);
    assert_string_equal(s.out, "x.json");
    assert_int_equal(s.depth, 8); /* the last one given wins */
    assert_true(s.seed == INT64_MAX);
    assert_true(s.ratio == 0.25);
    assert_true(s.sprt.given);
    assert_int_equal(s.sprt.count, 2); /* elo0=-5 is a word of the group, not an option */
    assert_string_equal(s.sprt.words[0], "elo0=-5");
    assert_int_equal(s.word_count, 1);
    assert_string_equal(s.words[0], "word");
    assert_string_equal(parse("", &s, false), "");
    assert_int_equal(s.depth, 3); /* untouched when not given */
}

static void flags__mistakes_name_command_and_option(void **state) {
    (void)state;
    static const char *const cases[][2] = {
        {"-depth", "demo: -depth needs a value (see tslab-demo -help)"},
        {"-depth 65", "demo: -depth: 65 is out of range 1..64"},
        {"-depth x", "demo: -depth: 'x' is not an integer"},
        {"-ratio 1", "demo: -ratio: 1 is out of range"},
        {"-dept 5", "demo: unknown option '-dept' (did you mean '-depth'?)"},
        {"-zzzzzzzz", "demo: unknown option '-zzzzzzzz' (see tslab-demo -help)"},
        {"stray", "demo: unexpected 'stray' (see tslab-demo -help)"},
        {"-depth -5", "demo: -depth: -5 is out of range 1..64"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Seen s;
        const char *message = parse(cases[i][0], &s, false);
        if (!strstr(message, cases[i][1]))
            fail_msg("'%s' said '%s', not '%s'", cases[i][0], message, cases[i][1]);
    }
}

int main(void) {
    /* Hints name the program as invoked: an installed tool is tslab-NAME. */
    cli_init("/usr/local/bin/tslab-demo");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flags__every_kind_is_set),
        cmocka_unit_test(flags__mistakes_name_command_and_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
