// SPDX-License-Identifier: MIT
// `bench options [-markdown]`: the search option table, as help text or as the Markdown of
// docs/options.md (`make docs` writes it; a test checks the file is up to date).
#include "options_cmd.h"

#include "cli.h"
#include "config.h"
#include "describe.h"
#include "flags.h"
#include "tuning.h"

#include <stdio.h>
#include <string.h>

/* How many configurations the exactness matrix holds (combinations applies() keeps). */
static size_t bench_matrix_count(void) {
    size_t count = 0;
    for (size_t i = 0; i < config_matrix_size(); i++) {
        SearchConfig config;
        char text[512];
        count += config_matrix_entry(i, &config, text, sizeof text);
    }
    return count;
}

/* Writes text into a Markdown table cell: a bare | would end the cell. */
static void put_cell(FILE *out, const char *text) {
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            fputs(" \\| ", out);
        else
            fputc(*p, out);
    }
}

void bench_print_options_markdown(FILE *out) {
    fprintf(out, "# Search options\n\n"
                 "Generated from the option table in `lib/search/config.c` by `build/bench options "
                 "-markdown`\n(`make docs`); do not edit by hand.\n\n"
                 "Options are `key=value` tokens, for example `killers=off cache=tiny "
                 "replace=always`. The kind says\nwhat the tools do with an option: *exact* "
                 "features (ordering, caching) must give every move and\nscore of plain minimax "
                 "and are combined in the exactness matrix (`bench verify`, the search\ntests); "
                 "*pruning* features change the tree (pruning, reductions, extensions, "
                 "quiescence), so\nresults may differ; *parameters* tune another feature. The "
                 "off value is what `preset=plain`\nsets.\n\n"
                 "| option | allowed | default | kind | off | what it does |\n"
                 "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        char allowed[96];
        config_allowed_text(spec, allowed, sizeof allowed);
        fprintf(out, "| `%s` | ", spec->name);
        put_cell(out, allowed);
        fprintf(out, " | `%s` | %s | %s%s%s | %s |\n", spec->default_text,
                config_kind_name(spec->kind), spec->off_text ? "`" : "",
                spec->off_text ? spec->off_text : "", spec->off_text ? "`" : "", spec->help);
    }
    fprintf(out, "\n## Presets\n\n`preset=NAME` sets a named search: every feature, parameter "
                 "and weight starts at its\ndefault (the limits are kept), every exact and pruning "
                 "feature is turned off where the\ntable says so, then the preset's own tokens "
                 "apply. Later tokens apply on top.\n\n| preset | features off first | what it "
                 "sets |\n|---|---|---|\n");
    for (size_t i = 0; i < CONFIG_PRESET_COUNT; i++) {
        const ConfigPreset *preset = &CONFIG_PRESETS[i];
        fprintf(out, "| `%s` | %s | %s", preset->name, preset->features_off ? "yes" : "no",
                preset->help);
        if (preset->tokens && *preset->tokens)
            fprintf(out, ": `%s`", preset->tokens);
        fprintf(out, " |\n");
    }
    fprintf(out, "\nThe exactness matrix combines %zu configurations (the values of each exact "
                 "option's matrix, a\nreplacement policy only where there is a table).\n",
            bench_matrix_count());
}

/* The tunable rows as OpenBench's SPSA input lines (NAME, int, START, MIN, MAX, C_END, R_END),
 * START from config; a value outside a row's range starts at the nearer end, said on err_out. */
void bench_print_options_spsa(const SearchConfig *config, FILE *out, FILE *err_out) {
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        const OptionTuning *range = &spec->tuning;
        if (range->c_end == 0)
            continue;
        int value = *(const int *)((const char *)config + spec->offset);
        int start = value < range->min ? range->min : value > range->max ? range->max : value;
        if (start != value)
            fprintf(err_out, "note: %s=%d is outside its tuning range %d..%d: it starts at %d\n",
                    spec->name, value, range->min, range->max, start);
        fprintf(out, "%s, int, %d, %d, %d, %g, %g\n", spec->name, start, range->min, range->max,
                range->c_end, TUNING_R_END);
    }
}

typedef struct {
    SearchConfig config;
    int words; /* key=value options given */
} OptionsWords;

static bool options_word(void *context, const char *word, Error *err) {
    OptionsWords *words = context;
    words->words++;
    return config_apply(&words->config, word, err);
}

int bench_options_main(int argc, char **argv) {
    bool markdown = false, spsa = false;
    OptionsWords words = {config_default(), 0};
    const CliFlag flags[] = {
        {"-markdown", CLI_FLAG_SWITCH, &markdown, 0, 0, NULL, "as docs/options.md (make docs)"},
        {"-spsa", CLI_FLAG_SWITCH, &spsa, 0, 0, NULL,
         "the tunable options as SPSA input lines (OpenBench's format), starting from the "
         "defaults or the key=value options given"},
    };
    const CliCommand command = {.name = "options",
                                .subcommand = "options",
                                .synopsis = "usage: bench options [-markdown] | -spsa "
                                            "[key=value ...]\n"
                                            "  The search options (key=value), their values, "
                                            "defaults and kinds.\n",
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0],
                                .word = options_word,
                                .context = &words};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    if (words.words > 0 && !spsa)
        die("options: key=value options choose where -spsa starts; without -spsa they mean "
            "nothing");
    if (spsa)
        bench_print_options_spsa(&words.config, stdout, stderr);
    else if (markdown)
        bench_print_options_markdown(stdout);
    else
        describe_print_options(stdout);
    return 0;
}
