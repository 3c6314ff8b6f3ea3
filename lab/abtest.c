// SPDX-License-Identifier: MIT
// build/abtest: entry point. The SPRT calculator is here; the match runner arrives with its issue.
#include "sprt_cmd.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char abtest_usage[] =
    "usage: abtest COMMAND [options]\n"
    "  sprt (-penta ...|-wdl ...) -sprt elo0= elo1= [...]   the SPRT calculator (fishtest-exact)\n"
    "Each command takes -help.\n";

int main(int argc, char **argv) {
    cli_set_program("abtest");
    if (argc < 2 || !strcmp(argv[1], "-help") || !strcmp(argv[1], "--help")) {
        fputs(abtest_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "sprt"))
        return abtest_sprt_main(argc - 2, argv + 2);
    die("unknown command '%s'\n%s", argv[1], abtest_usage);
}
