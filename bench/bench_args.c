// SPDX-License-Identifier: MIT
#include "bench_args.h"

#include "cli.h"
#include "describe.h"
#include "output.h"
#include "paths.h"

#include <stdlib.h>
#include <string.h>

#define BENCH_EXTRA_FLAGS_MAX 8 /* a command's own options beside the shared ones */

/* What a word of the shared options may be: a search option, or the one file (check). */
typedef struct {
    BenchArgs *args;
    bool allow_file, pinned;
    const char *prefix, *help;
} WordContext;

static bool take_word(void *context, const char *word, Error *err) {
    WordContext *w = context;
    Error inner;
    if (strchr(word, '=') && w->pinned)
        return error_set(err, "%s'%s': the signature file says what to run; search options are "
                              "not taken (try %s)",
                         w->prefix, word, w->help);
    if (strchr(word, '=')) {
        if (!config_apply(&w->args->config, word, &inner))
            return error_set(err, "%s%s", w->prefix, inner.text);
        w->args->has_config_tokens = true;
        return true;
    }
    if (w->allow_file && !w->args->file) {
        w->args->file = word;
        return true;
    }
    return error_set(err, "%sunexpected argument '%s' (try %s)", w->prefix, word, w->help);
}

void bench_parse_args(const BenchCommand *bench_command, int argc, char **argv, BenchArgs *args) {
    const char *command = bench_command->name;
    bool allow_out = bench_command->allow_out, allow_file = bench_command->allow_file;
    memset(args, 0, sizeof *args);
    args->config = config_default();
    args->positions = NULL;
    args->threads = 1;
    /* Messages name the subcommand; the suite run is the program itself ("bench: -depth: ..."). */
    bool is_run = !strcmp(command, "bench");
    char prefix[32], help[96];
    snprintf(prefix, sizeof prefix, "%s%s", is_run ? "" : command, is_run ? "" : ": ");
    snprintf(help, sizeof help, "%s%s%s -help", cli_program_name(), is_run ? "" : " ",
             is_run ? "" : command);
    const CliFlag shared[] = {
        {"-depth", CLI_FLAG_INT, &args->depth, 1, SEARCH_MAX_DEPTH, "N", "the search depth"},
        {"-positions", CLI_FLAG_TEXT, &args->positions, 0, 0, "FILE",
         "the suite (default: " BENCH_DEFAULT_POSITIONS ")"},
        {"-threads", CLI_FLAG_INT, &args->threads, 1, 1024, "N",
         "positions searched in parallel (1; results do not depend on it)"},
        {"-json", CLI_FLAG_TEXT, &args->json, 0, 0, "FILE",
         "also write the run as JSON ('-': stdout)"},
        {"-out", CLI_FLAG_TEXT, &args->out, 0, 0, "FILE", "the signature file to write"},
    };
    /* The shared options the command takes (-out only where allowed; no suite's where a file
     * pins it), then the command's own. */
    CliFlag flags[sizeof shared / sizeof shared[0] + BENCH_EXTRA_FLAGS_MAX];
    size_t count = 0;
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
        bool suite = !strcmp(shared[i].name, "-depth") || !strcmp(shared[i].name, "-positions");
        if ((suite && bench_command->pinned) || (!strcmp(shared[i].name, "-out") && !allow_out))
            continue;
        flags[count++] = shared[i];
    }
    if (bench_command->extra_count > BENCH_EXTRA_FLAGS_MAX)
        die("%s: too many options for the shared table", command);
    for (size_t i = 0; i < bench_command->extra_count; i++) /* none: extra may be NULL */
        flags[count++] = bench_command->extra[i];
    WordContext context = {args, allow_file, bench_command->pinned, prefix, help};
    const CliCommand flag_command = {.name = is_run ? "" : command,
                                     .subcommand = is_run ? "" : command,
                                     .synopsis = bench_command->usage,
                                     .flags = flags,
                                     .count = count,
                                     .word = take_word,
                                     .context = &context,
                                     .usage_tail = bench_command->pinned
                                                       ? bench_print_defaults
                                                       : bench_print_usage_tail};
    if (cli_flags_parse_or_die(&flag_command, argc, argv))
        exit(0);
    /* The outputs are checked before any search: an output that is an input or the other
     * output, a directory, a device or a FIFO is refused here (cli/output.h). */
    OutputPlan *plan = &args->plan;
    Error err;
    *plan = (OutputPlan){0};
    output_plan_add(plan, "-json", args->json, NULL);
    output_plan_add(plan, "-out", args->out, NULL);
    output_plan_input(plan, "-positions", args->positions);
    output_plan_input(plan, "the signature file", args->file);
    if (!output_plan_check(plan, &err))
        die("%s%s", prefix, err.text);
}


void bench_load_suite(BenchArgs *args, Book *book) {
    Error err;
    if (args->positions) {
        bench_load_positions(args->positions, book);
        return;
    }
    if (!bench_default_suite(book, args->default_positions, sizeof args->default_positions,
                             &err))
        die("%s", err.text);
    args->positions = args->default_positions;
}

void bench_default_file(const char *relative, char out[PATHS_MAX]) {
    Error err;
    if (!paths_data_file(relative, out, PATHS_MAX, &err))
        die("%s", err.text);
}

const char *bench_file_or_default(const char *given, const char *relative,
                                  char buffer[PATHS_MAX]) {
    if (given)
        return given;
    bench_default_file(relative, buffer);
    return buffer;
}

void bench_write_json(const OutputPlan *plan, cJSON *json, const char *path, const char *command) {
    Error err;
    bool ok = output_write_json(plan, json, path, &err);
    cJSON_Delete(json);
    if (!ok) {
        if (!strcmp(command, "bench"))
            die("%s", err.text);
        die("%s: %s", command, err.text);
    }
}

/* A search command's words: search options (key=value) for config, errors named as the command
 * names its own. */
typedef struct {
    SearchConfig *config;
    const char *name;
} SearchWords;

static bool take_search_option(void *context, const char *word, Error *err) {
    const SearchWords *words = context;
    Error inner;
    if (!config_apply(words->config, word, &inner))
        return error_set(err, "%s: %s", words->name, inner.text);
    return true;
}

bool bench_parse_search_command(CliCommand *command, int argc, char **argv, SearchConfig *config,
                                int default_depth) {
    SearchWords words = {config, command->name};
    command->word = take_search_option;
    command->context = &words;
    command->usage_tail = describe_print_options;
    bool help;
    Error err;
    if (!cli_flags_parse(command, argc, argv, &help, &err))
        die("%s", err.text);
    command->context = NULL; /* words was this call's */
    if (config->depth == 0 && config->nodes == 0 && config->movetime == 0)
        config->depth = default_depth;
    return !help;
}

FILE *bench_table_stream(const char *json_path) {
    return json_path && !strcmp(json_path, "-") ? stderr : stdout;
}
