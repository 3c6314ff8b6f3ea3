// SPDX-License-Identifier: MIT
// The option table: defaults, key=value parsing with its errors and suggestions, presets, text
// round trip and hash.
#include "config.h"

#include "test_util.h"

#include <stdio.h>

typedef struct {
    const char *token;
    const char *error; /* substring; NULL = accepted */
    const char *why;
} TokenRow;

static const TokenRow rows[] = {
    {"cache=tiny", NULL, "a choice"},
    {"cache=huge", "option cache: 'huge' is not allowed (allowed: none|map|table|tiny)", "bad choice"},
    {"killers=off", NULL, "a toggle"},
    {"killers=no", "option killers: 'no' is not allowed (allowed: on|off)", "bad toggle"},
    {"tt_bits=30", NULL, "tt_bits at its limit"},
    {"tt_bits=31", "option tt_bits: 31 is out of range 1..30", "tt_bits past its limit"},
    {"tt_bits=0", "out of range 1..30", "tt_bits below"},
    {"depth=64", NULL, "depth at its limit"},
    {"depth=65", "option depth: 65 is out of range 0..64", "depth past its limit"},
    {"depth=4x", "option depth: '4x' is not an integer", "trailing garbage"},
    {"depth=", "option depth: empty value", "empty value"},
    {"eval_trapped=-10000", NULL, "weight at its limit"},
    {"eval_trapped=-10001", "out of range -10000..10000", "weight past its limit"},
    {"nodes=1000000000000000", NULL, "nodes at its limit"},
    {"nodes=1000000000000001", "out of range", "nodes past its limit"},
    {"nodes=99999999999999999999999", "out of range", "overflow"},
    {"replace=deepest", NULL, "a policy"},
    {"kilers=on", "unknown option 'kilers' (did you mean 'killers'?)", "typo"},
    {"ttbits=20", "unknown option 'ttbits' (did you mean 'tt_bits'?)", "missing underscore"},
    {"frobnicate=1", "unknown option 'frobnicate' (see -help", "nothing close"},
    {"killers", "'killers' is not a key=value option", "no equals sign"},
    {"=on", "'=on' is not a key=value option", "no key"},
    {"preset=plain", NULL, "preset"},
    {"preset=fast", "option preset: 'fast' is not allowed (allowed: default|plain|tslab-0.2|tslab-0.3|tslab-0.4)",
     "bad preset"},
    {"preset=tslab-0.2", NULL, "an earlier default"},
    {"aspiration=25", NULL, "aspiration window"},
    {"lmr_depth=1", "option lmr_depth: 1 is out of range 2..64", "lmr from depth 1"},
};

static void tokens__table_of_inputs(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        SearchConfig config = config_default();
        Error err = {{0}};
        bool ok = config_apply(&config, rows[i].token, &err);
        if (!rows[i].error && !ok)
            fail_msg("row %zu (%s): '%s' rejected: %s", i, rows[i].why, rows[i].token, err.text);
        if (rows[i].error && ok)
            fail_msg("row %zu (%s): '%s' accepted", i, rows[i].why, rows[i].token);
        if (rows[i].error && !strstr(err.text, rows[i].error))
            fail_msg("row %zu (%s): message '%s', expected '%s'", i, rows[i].why, err.text,
                     rows[i].error);
    }
}

static void defaults__every_table_default_parses_and_matches(void **state) {
    (void)state;
    SearchConfig config = config_default();
    assert_int_equal(config.cache, CACHE_TABLE);
    assert_int_equal(config.tt_bits, 20);
    assert_int_equal(config.replace, REPLACE_TWOTIER);
    assert_true(config.symmetry && config.killers && config.hint && config.jumps_first);
    assert_int_equal(config.eval_captured, 100);
    assert_int_equal(config.eval_jumps, 20);
    assert_int_equal(config.eval_trapped, -15);
    assert_int_equal(config.eval_mobility, 2);
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        char token[96];
        snprintf(token, sizeof token, "%s=%s", CONFIG_OPTIONS[i].name,
                 CONFIG_OPTIONS[i].default_text);
        SearchConfig copy = config_default();
        Error err = {{0}};
        if (!config_apply(&copy, token, &err))
            fail_msg("default %s rejected: %s", token, err.text);
        assert_int_equal(config_hash(&copy), config_hash(&config));
    }
}

static void preset__plain_turns_features_off_and_later_tokens_apply(void **state) {
    (void)state;
    SearchConfig config = config_default();
    assert_true(config_apply(&config, "preset=plain", NULL));
    assert_int_equal(config.cache, CACHE_NONE);
    assert_false(config.killers || config.hint || config.jumps_first || config.symmetry);
    assert_true(config_apply(&config, "killers=on", NULL));
    assert_true(config.killers);
    assert_int_equal(config.eval_captured, 100); /* weights are not speed features */
    assert_true(config_apply(&config, "preset=default", NULL));
    SearchConfig fresh = config_default();
    assert_int_equal(config_hash(&config), config_hash(&fresh));
}

/* A preset names a search, not a budget: limits given before it survive, whatever the preset
 * (abtest applies -each limits before an engine's own tokens). Everything else is what the
 * preset gives from scratch. */
static void preset__keeps_the_limits_and_resets_the_rest(void **state) {
    (void)state;
    for (size_t i = 0; i < CONFIG_PRESET_COUNT; i++) {
        char token[64];
        snprintf(token, sizeof token, "preset=%s", CONFIG_PRESETS[i].name);
        SearchConfig config = config_default(), scratch = config_default();
        assert_true(config_apply_line(&config, "nodes=5000 depth=7 movetime=300 eval_jumps=3 "
                                               "lmr=off history=off pvs=on futility=9", NULL));
        assert_true(config_apply(&config, token, NULL));
        assert_true(config_apply(&scratch, token, NULL));
        assert_int_equal(config.nodes, 5000);
        assert_int_equal(config.depth, 7);
        assert_int_equal(config.movetime, 300);
        config.nodes = scratch.nodes;
        config.depth = scratch.depth;
        config.movetime = scratch.movetime;
        assert_int_equal(config_hash(&config), config_hash(&scratch));
    }
}

/* The newest named default is the default: changing a default (docs/experiments.md) names
 * the new one, so the old stays a configuration a new default can be tested against. */
static void preset__the_last_is_the_current_default(void **state) {
    (void)state;
    SearchConfig named = config_default(), fresh = config_default();
    char token[64];
    snprintf(token, sizeof token, "preset=%s", CONFIG_PRESETS[CONFIG_PRESET_COUNT - 1].name);
    assert_true(config_apply_line(&named, "history=off lmr=off eval_jumps=7", NULL));
    assert_true(config_apply(&named, token, NULL));
    assert_int_equal(config_hash(&named), config_hash(&fresh));
}

/* tslab-0.2 is the 0.2 default: cache, symmetry, killers, hint and jumps first on, every
 * newer feature off, whatever the defaults become. */
static void preset__tslab_0_2_is_the_old_default(void **state) {
    (void)state;
    SearchConfig config = config_default();
    assert_true(config_apply_line(&config, "history=on pvs=on preset=tslab-0.2", NULL));
    assert_int_equal(config.cache, CACHE_TABLE);
    assert_int_equal(config.tt_bits, 20);
    assert_int_equal(config.replace, REPLACE_TWOTIER);
    assert_true(config.symmetry && config.killers && config.hint && config.jumps_first);
    assert_false(config.history || config.pvs || config.lmr || config.qsearch ||
                 config.nullmove || config.jump_extension);
    assert_int_equal(config.aspiration, 0);
    assert_int_equal(config.futility, 0);
    assert_int_equal(config.eval_captured, 100);
    assert_int_equal(config.eval_jumps, 20);
    assert_int_equal(config.eval_trapped, -15);
    assert_int_equal(config.eval_mobility, 2);
}

static void text__round_trips_and_hash_tells_configs_apart(void **state) {
    (void)state;
    SearchConfig config = config_default();
    assert_true(config_apply(&config, "cache=tiny", NULL));
    assert_true(config_apply(&config, "eval_jumps=-7", NULL));
    assert_true(config_apply(&config, "nodes=123456789012", NULL));
    char text[1024];
    config_to_text(&config, text, sizeof text);
    assert_non_null(strstr(text, "cache=tiny"));
    assert_non_null(strstr(text, "nodes=123456789012"));
    SearchConfig again = config_default();
    assert_true(config_apply_line(&again, text, NULL));
    assert_int_equal(config_hash(&again), config_hash(&config));
    SearchConfig other = config_default();
    assert_int_not_equal(config_hash(&other), config_hash(&config));
}

/* The table is the single source: every feature row says how to turn it off, every exact row
 * what the matrix combines, and the matrix is their product (a policy only with a table). */
static void table__kinds_off_values_and_the_matrix(void **state) {
    (void)state;
    size_t expected = 1;
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        bool feature = spec->kind == OPTION_KIND_EXACT || spec->kind == OPTION_KIND_PRUNING;
        if (feature != (spec->off_text != NULL))
            fail_msg("%s: a feature needs an off value, nothing else has one", spec->name);
        if ((spec->kind == OPTION_KIND_EXACT) != (spec->matrix != NULL))
            fail_msg("%s: exactly the exact features have matrix values", spec->name);
        SearchConfig config = config_default();
        Error err = {{0}};
        if (feature) {
            char token[64];
            snprintf(token, sizeof token, "%s=%s", spec->name, spec->off_text);
            if (!config_apply(&config, token, &err))
                fail_msg("%s: off value rejected: %s", token, err.text);
        }
        if (spec->kind == OPTION_KIND_EXACT) {
            int values = 1;
            for (const char *p = spec->matrix; *p; p++)
                values += *p == ',';
            expected *= (size_t)values;
        }
    }
    assert_int_equal(config_matrix_size(), expected);
    size_t kept = 0;
    for (size_t i = 0; i < config_matrix_size(); i++) {
        SearchConfig config;
        char text[512];
        if (!config_matrix_entry(i, &config, text, sizeof text))
            continue;
        kept++;
        /* A replacement policy other than the first only where there is a table. */
        if (config.replace != REPLACE_TWOTIER)
            assert_true(config.cache == CACHE_TABLE || config.cache == CACHE_TINY);
        /* Pruning off whatever the defaults say; the text is the exact options' combination. */
        assert_false(config.lmr || config.qsearch || config.nullmove || config.futility ||
                     config.jump_extension);
        SearchConfig again = config_default();
        assert_true(config_pruning_off(&again));
        assert_true(config_apply_line(&again, text, NULL));
        assert_int_equal(config_hash(&again), config_hash(&config));
    }
    /* cache x replace: none, map, and table or tiny with 3 policies = 8; 7 on/off features. */
    assert_int_equal(kept, 8 * 128);
    /* preset=plain turns off every feature the table lists, the new ones included. */
    SearchConfig plain = config_default();
    assert_true(config_apply_line(&plain, "pvs=on lmr=on qsearch=on preset=plain", NULL));
    assert_false(plain.pvs || plain.lmr || plain.qsearch || plain.history || plain.nullmove);
    assert_int_equal(plain.aspiration, 0);
    assert_int_equal(plain.futility, 0);
}

/* The move loop takes its variant path when any option the table marks as a loop variant is
 * on, and only then: a variant added to the table with OPTION_MOVE_LOOP is never skipped. */
static void table__loop_variants_come_from_the_table(void **state) {
    (void)state;
    SearchConfig plain = config_without_pruning("preset=plain");
    assert_false(config_loop_variants_on(&plain));
    int marked = 0;
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        if (spec->place != OPTION_MOVE_LOOP)
            continue;
        marked++;
        assert_true(spec->kind == OPTION_KIND_EXACT || spec->kind == OPTION_KIND_PRUNING);
        SearchConfig one = plain;
        char token[64];
        /* Its default if that turns it on, else "on" (a switch) or 1 (a margin such as futility). */
        const char *on = spec->type == OPTION_BOOL ? "on" : "1";
        snprintf(token, sizeof token, "%s=%s", spec->name,
                 strcmp(spec->default_text, spec->off_text) ? spec->default_text : on);
        Error err;
        if (!config_apply(&one, token, &err))
            fail_msg("%s: %s", token, err.text);
        if (!config_loop_variants_on(&one))
            fail_msg("%s alone does not take the variant path", token);
    }
    /* lmr, pvs, jump_extension, futility and history today; all off by default since tslab 0.4,
     * so the default search takes the plain loop. */
    assert_int_equal(marked, 5);
    SearchConfig defaults = config_default();
    assert_false(config_loop_variants_on(&defaults));
    SearchConfig old_defaults = config_default();
    assert_true(config_apply(&old_defaults, "preset=tslab-0.3", NULL));
    assert_true(config_loop_variants_on(&old_defaults));
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tokens__table_of_inputs),
        cmocka_unit_test(defaults__every_table_default_parses_and_matches),
        cmocka_unit_test(preset__plain_turns_features_off_and_later_tokens_apply),
        cmocka_unit_test(preset__keeps_the_limits_and_resets_the_rest),
        cmocka_unit_test(preset__tslab_0_2_is_the_old_default),
        cmocka_unit_test(preset__the_last_is_the_current_default),
        cmocka_unit_test(text__round_trips_and_hash_tells_configs_apart),
        cmocka_unit_test(table__kinds_off_values_and_the_matrix),
        cmocka_unit_test(table__loop_variants_come_from_the_table),
    };
    return RUN_TESTS("config", tests);
}
