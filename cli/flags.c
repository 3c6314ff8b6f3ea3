// SPDX-License-Identifier: MIT
#include "flags.h"

#include "cli.h"
#include "parse.h"

#include <string.h>

#define FLAG_CANDIDATES_MAX 32

static const CliFlag *find_flag(const CliCommand *c, const char *name) {
    for (size_t i = 0; i < c->count; i++)
        if (!strcmp(c->flags[i].name, name))
            return &c->flags[i];
    return NULL;
}

/* "tslab-bench tbgen -help": where the usage is, with the program's name as invoked. */
static const char *help_of(const CliCommand *c, char *out, size_t size) {
    snprintf(out, size, "%s%s%s -help", cli_program_name(), *c->subcommand ? " " : "",
             c->subcommand);
    return out;
}

/* "tbgen: " before a message; nothing for a tool's own options (die names the tool). */
static const char *prefix_of(const CliCommand *c, char *out, size_t size) {
    snprintf(out, size, "%s%s", c->name, *c->name ? ": " : "");
    return out;
}

static bool unknown_flag(const CliCommand *c, const char *arg, Error *err) {
    const char *names[FLAG_CANDIDATES_MAX + 1];
    size_t count = 0;
    for (size_t i = 0; i < c->count && count < FLAG_CANDIDATES_MAX; i++)
        names[count++] = c->flags[i].name;
    names[count++] = "-help";
    char quoted[ERROR_EXCERPT_MAX], prefix[48];
    const char *best = parse_closest(arg, names, count, 3);
    if (best)
        return error_set(err, "%sunknown option '%s' (did you mean '%s'?)",
                         prefix_of(c, prefix, sizeof prefix), error_excerpt(arg, quoted), best);
    char help[96];
    return error_set(err, "%sunknown option '%s' (see %s)", prefix_of(c, prefix, sizeof prefix),
                     error_excerpt(arg, quoted), help_of(c, help, sizeof help));
}

/* A bound of a whole number: the double rounded into int64_t's range (INT64_MAX as a double
 * is 2^63, one past it). */
static int64_t whole_bound(double bound) {
    if (bound >= 0x1p63)
        return INT64_MAX;
    if (bound <= -0x1p63)
        return INT64_MIN;
    return (int64_t)bound;
}

static bool set_flag(const CliCommand *c, const CliFlag *f, const char *value, Error *err) {
    Error inner;
    char prefix[48];
    prefix_of(c, prefix, sizeof prefix);
    int64_t number;
    switch (f->type) {
    case CLI_FLAG_GROUP: /* cli_flags_parse takes the words */
        return true;
    case CLI_FLAG_DOUBLE:
        if (!parse_double(value, f->min, f->max, (double *)f->target, &inner))
            return error_set(err, "%s%s: %s", prefix, f->name, inner.text);
        return true;
    case CLI_FLAG_SWITCH:
        *(bool *)f->target = true;
        return true;
    case CLI_FLAG_TEXT:
        if (!*value)
            return error_set(err, "%s%s: the value is empty", prefix, f->name);
        *(const char **)f->target = value;
        return true;
    case CLI_FLAG_INT:
    case CLI_FLAG_INT64:
        if (!parse_int64(value, whole_bound(f->min), whole_bound(f->max), &number, &inner))
            return error_set(err, "%s%s: %s", prefix, f->name, inner.text);
        if (f->type == CLI_FLAG_INT)
            *(int *)f->target = (int)number;
        else
            *(int64_t *)f->target = number;
        return true;
    }
    return error_set(err, "%s%s: unknown option type", prefix, f->name);
}

/* A word after '-' that reads as a number ("-5") is a word, so that a negative value is refused
 * by whoever takes it ("depth: -5 is out of range"), not called an unknown option. */
static bool is_option(const char *arg) {
    return arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9') && !strchr(arg, '=');
}

bool cli_flags_parse(const CliCommand *c, int argc, char **argv, bool *help, Error *err) {
    *help = false;
    char prefix[48], help_text[96];
    prefix_of(c, prefix, sizeof prefix);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-help") || !strcmp(arg, "--help")) {
            cli_flags_usage(c, stdout);
            *help = true;
            return true;
        }
        if (!is_option(arg)) {
            char quoted[ERROR_EXCERPT_MAX];
            if (!c->word)
                return error_set(err, "%sunexpected '%s' (see %s)", prefix,
                                 error_excerpt(arg, quoted),
                                 help_of(c, help_text, sizeof help_text));
            if (!c->word(c->context, arg, err))
                return false;
            continue;
        }
        const CliFlag *f = find_flag(c, arg);
        if (!f)
            return unknown_flag(c, arg, err);
        if (f->type == CLI_FLAG_GROUP) {
            CliGroup *group = f->target;
            int end = i + 1;
            while (end < argc && !is_option(argv[end]))
                end++;
            *group = (CliGroup){argv + i + 1, end - i - 1, true};
            i = end - 1;
            continue;
        }
        if (f->type != CLI_FLAG_SWITCH && i + 1 == argc)
            return error_set(err, "%s%s needs a value (see %s)", prefix, arg,
                             help_of(c, help_text, sizeof help_text));
        if (!set_flag(c, f, f->type == CLI_FLAG_SWITCH ? NULL : argv[++i], err))
            return false;
    }
    return true;
}

void cli_flags_usage(const CliCommand *c, FILE *out) {
    fputs(c->synopsis, out);
    for (size_t i = 0; i < c->count; i++) {
        const CliFlag *f = &c->flags[i];
        if (!*f->help)
            continue;
        char left[40];
        snprintf(left, sizeof left, "%s%s%s", f->name, f->value ? " " : "",
                 f->value ? f->value : "");
        fprintf(out, "  %-20s %s\n", left, f->help);
    }
    fprintf(out, "  %-20s %s\n", "-help", "this text");
    if (c->usage_tail)
        c->usage_tail(out);
}

bool cli_flags_parse_or_die(const CliCommand *c, int argc, char **argv) {
    bool help;
    Error err;
    if (!cli_flags_parse(c, argc, argv, &help, &err))
        die("%s", err.text);
    return help;
}
