// SPDX-License-Identifier: MIT
// `bench options [-markdown]`: the search option table, as help text or as the Markdown of
// docs/options.md (`make docs` writes it; a test checks the file is up to date).
#include "commands.h"

#include "cli.h"
#include "config.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

void bench_print_options_markdown(FILE *out) {
    fprintf(out, "# Search options\n\n"
                 "Generated from the option table in `lib/config.c` by `build/bench options "
                 "-markdown`\n(`make docs`); do not edit by hand.\n\n"
                 "Options are `key=value` tokens, for example `killers=off cache=tiny "
                 "replace=always`.\n`preset=plain` turns every speed feature off (cache, "
                 "symmetry, killers, hint, jumps_first)\nand `preset=default` restores the "
                 "defaults; later tokens apply on top of a preset.\n\n"
                 "| option | allowed | default | kind | what it does |\n"
                 "|---|---|---|---|---|\n");
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        char allowed[96];
        config_allowed_text(spec, allowed, sizeof allowed);
        fprintf(out, "| `%s` | ", spec->name);
        for (const char *p = allowed; *p; p++) { /* a bare | would end the table cell */
            if (*p == '|')
                fputs(" \\| ", out);
            else
                fputc(*p, out);
        }
        fprintf(out, " | `%s` | %s | %s |\n", spec->default_text,
                spec->is_limit ? "limit" : "feature", spec->help);
    }
}

int bench_options_main(int argc, char **argv) {
    if (argc == 1 && !strcmp(argv[0], "-markdown")) {
        bench_print_options_markdown(stdout);
        return 0;
    }
    if (argc > 0 && strcmp(argv[0], "-help") && strcmp(argv[0], "--help"))
        die("options: unknown argument '%s' (usage: bench options [-markdown])", argv[0]);
    report_print_options(stdout);
    return 0;
}
